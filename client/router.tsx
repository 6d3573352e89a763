import { createRouter } from '@tanstack/react-router'
import { routeTree } from './routeTree.gen'
import { sessionStore, whenSessionReady, type SessionState } from './features/auth/session'
import { ErrorPage } from './features/shell/ErrorPage'
import { NotFound } from './features/shell/NotFound'

/** What route guards can read: the session and a promise for the end of its start-up check. */
export interface RouterContext {
  session: { get: () => SessionState; ready: () => Promise<void> }
}

/**
 * Query strings stay plain strings: the default JSON parsing would turn an all-digit token into a
 * number and lose digits. Route schemas coerce where they need another type.
 */
function parseSearch(searchStr: string): Record<string, string> {
  return Object.fromEntries(new URLSearchParams(searchStr))
}

function stringifySearch(search: Record<string, unknown>): string {
  const params = new URLSearchParams()
  for (const [key, value] of Object.entries(search)) if (value !== undefined && value !== null) params.set(key, String(value))
  const str = params.toString()
  return str ? `?${str}` : ''
}

export const router = createRouter({
  routeTree,
  context: { session: { get: sessionStore.get, ready: whenSessionReady } },
  parseSearch,
  stringifySearch,
  defaultPreload: 'intent',
  scrollRestoration: true,
  defaultErrorComponent: ErrorPage,
  defaultNotFoundComponent: NotFound,
})

declare module '@tanstack/react-router' {
  interface Register {
    router: typeof router
  }
}
