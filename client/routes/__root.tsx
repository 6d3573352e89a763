import { createRootRouteWithContext, redirect } from '@tanstack/react-router'
import { takeTokensFromUrl } from '../features/auth/url-tokens'
import { ErrorPage } from '../features/shell/ErrorPage'
import { NotFound } from '../features/shell/NotFound'
import { RootLayout } from '../features/shell/RootLayout'
import type { RouterContext } from '../router'

export const Route = createRootRouteWithContext<RouterContext>()({
  beforeLoad: async ({ location, context }) => {
    const target = await takeTokensFromUrl(location.pathname, location.searchStr)
    if (target) throw redirect({ href: target, replace: true })
    await context.session.ready()
  },
  component: RootLayout,
  errorComponent: ErrorPage,
  notFoundComponent: NotFound,
})
