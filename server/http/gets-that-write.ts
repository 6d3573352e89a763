import type { OpenAPIHono } from '@hono/zod-openapi'

/**
 * Spread into a `createRoute({ method: 'get', … })` whose handler changes data: the GET forms of
 * actions kept for compatibility (a company's life cycle, rejecting an agreement). The write
 * middleware then runs it as a write (write lock, one transaction, the writing connection) and
 * refuses HEAD on it, instead of the read-only path every other GET takes. The mark is on the
 * route, so a new such route cannot be forgotten in a list elsewhere; it also shows in the
 * OpenAPI document. The route must be an `openapi` route that is not `hide`-den: only those reach
 * the registry (a plain `app.get` or a hidden one would run as a read and fail on the read-only
 * connection, a 500, never a silent write).
 */
export const CHANGES_DATA = { 'x-changes-data': true } as const

const patternOf = (openApiPath: string) => new RegExp(`^${openApiPath.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^/}]+\}/g, '[^/]+')}$`)

/**
 * Whether a request path is one of the app's GET routes marked CHANGES_DATA. Read from the app's
 * OpenAPI registry on first use, when every route has been mounted (paths include their mount prefix).
 */
export function getsThatWrite(app: OpenAPIHono<any>): (path: string) => boolean {
  let patterns: RegExp[] | undefined
  return (path) => {
    patterns ??= app.openAPIRegistry.definitions.flatMap((d) =>
      d.type === 'route' && d.route.method === 'get' && (d.route as Record<string, unknown>)['x-changes-data'] === true ? [patternOf(d.route.path)] : [],
    )
    return patterns.some((p) => p.test(path))
  }
}
