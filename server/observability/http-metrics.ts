/**
 * Records each request's time by method, matched route pattern (`/api/agreements/:id`, never the
 * path itself, so ids do not make a series each) and status class, in the metrics (metrics.ts).
 */
import type { MiddlewareHandler } from 'hono'
import { matchedRoutes } from 'hono/route'
import { metrics } from './metrics'

export const measureRequests = (): MiddlewareHandler => async (c, next) => {
  const started = performance.now()
  try {
    await next()
  } finally {
    // The first route with a method of its own answered; middleware and the catch-alls are `ALL`.
    const route = c.req.path.startsWith('/api/') ? (matchedRoutes(c).find((r) => r.method !== 'ALL')?.path ?? 'unmatched') : 'other'
    metrics().requestSeconds.observe(
      { method: c.req.method, route, status: `${Math.floor((c.res?.status ?? 500) / 100)}xx` },
      (performance.now() - started) / 1000,
    )
  }
}
