import { Outlet } from '@tanstack/react-router'
import { useLingui } from '@lingui/react/macro'
import { Toaster } from '../../components/ui/Toaster'
import { dismissToast, useToasts } from '../../lib/toast'
import { isSignedIn, useSession } from '../auth/session'
import { AppLayout } from './AppLayout'
import { GuestLayout } from './GuestLayout'
import { UpdatePrompt } from './UpdatePrompt'
import { useFocusMainOnNavigate } from './use-focus-on-navigate'

/**
 * Signed-in users get the sidebar layout on every page; guests the header and footer. The toasts
 * live in the sticky top bar: on a phone they take their own room there instead of covering the
 * page (docs/PRODUCT.md, "Shell"); from desktop width they float bottom right.
 */
export function RootLayout() {
  const { t } = useLingui()
  const session = useSession()
  const toasts = useToasts()
  useFocusMainOnNavigate()
  const notices = <Toaster toasts={toasts} closeLabel={t`Close`} onDismiss={dismissToast} />
  return (
    <>
      {isSignedIn(session) && session.user ?
        <AppLayout user={session.user} notices={notices}>
          <Outlet />
        </AppLayout>
      : <GuestLayout notices={notices}>
          <Outlet />
        </GuestLayout>
      }
      <UpdatePrompt />
    </>
  )
}
