/** Route guards for `beforeLoad`: they wait for the start-up session check, then decide. */
import { redirect } from '@tanstack/react-router'
import type { RouterContext } from '../../router'
import { isSignedIn } from './session'

/** Routes marked (auth) in docs/PRODUCT.md §2: guests go to /login. */
export async function requireSignedIn({ context }: { context: RouterContext }): Promise<void> {
  await context.session.ready()
  if (!isSignedIn(context.session.get())) throw redirect({ to: '/login' })
}

/** Pages for guests only (front page, sign-in): a signed-in user goes on to `to`. */
export async function redirectSignedIn({ context }: { context: RouterContext }, to: '/' | '/agreements'): Promise<void> {
  await context.session.ready()
  if (isSignedIn(context.session.get())) throw redirect({ to, replace: true })
}

/** Super-admin-only pages (docs/PRODUCT.md §6): anyone else goes on to `to`. */
export async function requireSuperAdmin({ context }: { context: RouterContext }, to: '/companies'): Promise<void> {
  await context.session.ready()
  if (context.session.get().user?.userRole !== 'SUPERADMIN') throw redirect({ to, replace: true })
}
