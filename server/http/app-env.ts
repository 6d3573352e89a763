import type { MiddlewareHandler } from 'hono'
import type { Logger } from 'pino'
import type { Actor } from '../access/actor'
import type { AccessChecks } from '../access/scope'
import type { Locale } from '../i18n/i18n'

/** Variables every request carries through the middleware chain. */
export interface AppEnv {
  Variables: {
    requestId: string
    log: Logger
    actor: Actor | undefined
    locale: Locale
    clientIp: string
    /**
     * The body to store for an Idempotency-Key replay instead of the answer itself, when the
     * answer holds a secret shown once (a generated login token): a replay then omits it.
     */
    replayBody?: string
    /** How a route reads or writes the database (write-transaction.ts), run by the route's rules (route.ts). */
    data: DataAccess
    /** Set by a route whose rules say `unlogged`: no request log line (docs/decisions/0027). */
    unlogged?: true
    /** Every module's scope checks by kind and action checks by name (server/access/scope.ts). */
    access: AccessChecks
    /** Set by a route with a `scope` rule: decides the caller's access before a refused body is reported. */
    accessProbe?: () => Promise<void>
  }
}

/** A read in a read scope, or a write in one transaction under the write lock with its Idempotency-Key. */
export interface DataAccess {
  read: MiddlewareHandler<AppEnv>
  write: MiddlewareHandler<AppEnv>
}
