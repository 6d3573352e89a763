import { Outlet } from '@tanstack/react-router'
import { useLingui } from '@lingui/react/macro'
import { Toaster } from '../../components/ui/Toaster'
import { dismissToast, useToasts } from '../../lib/toast'
import { isSignedIn, useSession } from '../auth/session'
import { AppLayout } from './AppLayout'
import { GuestLayout } from './GuestLayout'
import { UpdatePrompt } from './UpdatePrompt'
import { useFocusMainOnNavigate } from './use-focus-on-navigate'

/** Signed-in users get the sidebar layout on every page; guests the header and footer. */
export function RootLayout() {
  const { t } = useLingui()
  const session = useSession()
  const toasts = useToasts()
  useFocusMainOnNavigate()
  return (
    <>
      {isSignedIn(session) && session.user ?
        <AppLayout user={session.user}>
          <Outlet />
        </AppLayout>
      : <GuestLayout>
          <Outlet />
        </GuestLayout>
      }
      <UpdatePrompt />
      <Toaster toasts={toasts} closeLabel={t`Close`} onDismiss={dismissToast} />
    </>
  )
}
