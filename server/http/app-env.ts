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
  }
}
