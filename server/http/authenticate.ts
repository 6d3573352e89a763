import type { MiddlewareHandler } from 'hono'
import type { AuthService } from '../features/auth/auth.service'
import { localeOf } from '../../shared/contract/common'
import { localeFromHeader } from '../i18n/i18n'
import type { AppEnv } from './app-env'

/**
 * Resolves `Authorization: Bearer <token>` into `c.var.actor` (undefined for guests; reused per
 * token for a few seconds, see auth.authenticate and users/actor-cache.ts) and picks the
 * answer language: the Accept-Language the client sends (its interface language), else the user's.
 * Routes that need a user say so in their rules (server/http/route.ts); this middleware never refuses on its own.
 */
export function authenticate(auth: AuthService): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const header = c.req.header('Authorization')
    const match = header?.match(/^Bearer\s+([A-Za-z0-9_\-.~+/=]{16,512})$/)
    const actor = match?.[1] ? await auth.authenticate(match[1]) : undefined
    c.set('actor', actor)
    c.set('locale', localeFromHeader(c.req.header('Accept-Language')) ?? (actor ? localeOf(actor.language) : 'en'))
    await next()
  }
}
