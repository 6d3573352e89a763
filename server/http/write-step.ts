import type { Context } from 'hono'
import type { AppEnv } from './app-env'
import { onError } from './error-mapper'

/**
 * The write step of a route that first waits on an outside service (rules `data: 'own-steps'`,
 * docs/API.md "Writes"): `answer` runs exactly as a `data: 'write'` route's handler does — one
 * transaction under the write lock, with its Idempotency-Key record, an error answered by the error
 * mapper and its effects rolled back, a PostgreSQL serialization failure run again. Call it after
 * the outside calls, which so never hold the lock (decision 0009), and before nothing else writes.
 * The request's body must have been read before (`c.req.parseBody()`), so the key's fingerprint is
 * the bytes the client sent.
 */
export async function writeStep(c: Context<AppEnv>, answer: () => Promise<Response>): Promise<Response> {
  await c.var.data.write(c, async () => {
    try {
      c.res = await answer()
    } catch (err) {
      const error = err instanceof Error ? err : new Error(String(err))
      c.error = error
      c.res = await onError(error, c)
    }
  })
  return c.res
}
