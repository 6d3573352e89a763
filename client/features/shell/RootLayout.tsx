import { Outlet } from '@tanstack/react-router'
import { isSignedIn, useSession } from '../auth/session'
import { AppLayout } from './AppLayout'
import { GuestLayout } from './GuestLayout'
import { UpdatePrompt } from './UpdatePrompt'
import { useFocusMainOnNavigate } from './use-focus-on-navigate'

/** Signed-in users get the sidebar layout on every page; guests the header and footer. */
export function RootLayout() {
  const session = useSession()
  useFocusMainOnNavigate()
  return (
    <>
      {isSignedIn(session) && session.user ? (
        <AppLayout user={session.user}>
          <Outlet />
        </AppLayout>
      ) : (
        <GuestLayout>
          <Outlet />
        </GuestLayout>
      )}
      <UpdatePrompt />
    </>
  )
}
