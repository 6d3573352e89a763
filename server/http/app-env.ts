import type { Logger } from 'pino'
import type { Actor } from '../features/access/actor'
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
  }
}
