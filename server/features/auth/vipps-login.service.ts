import { eq } from 'drizzle-orm'
import type { Logger } from 'pino'
import type { Db } from '../../db/client'
import { oidcLogins } from '../../db/schema/oidc'
import { authMethods, users } from '../../db/schema/users'
import type { Clock } from '../../lib/clock'
import { newId } from '../../lib/ids'
import type { WriteLock } from '../../lib/write-lock'
import type { VippsLogin } from '../../integrations/vipps/vipps-login'
import { authRepository } from './auth.repository'
import type { AuthService } from './auth.service'

const ATTEMPT_TTL_MS = 10 * 60 * 1000

/** Where the browser goes after the callback: into the app signed in, or back to the login page with a reason. */
export type VippsLoginOutcome = { ok: true; accessToken: string } | { ok: false; error: 'vipps_unavailable' | 'vipps_failed' | 'vipps_no_account' }

const digits = (phone: string) => phone.replace(/\D/g, '')

/**
 * Sign in with Vipps MobilePay. The user is found by an existing MOBILEPAY sign-in (the Vipps
 * subject), else by the phone number Vipps verified matching the user's mobile number — then the
 * MOBILEPAY sign-in is added, so the next time the subject alone suffices. Anyone else gets a
 * clear message instead of a new, empty account.
 * Vipps is called outside the write lock; each database step takes it.
 */
export function createVippsLoginService(deps: { db: Db; clock: Clock; lock: WriteLock; auth: AuthService; login: VippsLogin | undefined; log: Logger }) {
  const { db, clock, lock, log } = deps

  function findUser(sub: string, phone: string | undefined): string | undefined {
    const linked = db.select().from(authMethods).where(eq(authMethods.identifier, sub)).all().find((m) => m.type === 'MOBILEPAY')
    if (linked) return linked.userId
    if (!phone) return undefined
    const wanted = digits(phone)
    const match = db
      .select({ id: users.id, mobile: users.mobileNumber })
      .from(users)
      .all()
      .filter((u) => u.mobile)
      .find((u) => {
        const have = digits(u.mobile!)
        // Stored without country code (8 Danish digits) or with it.
        return have === wanted || (have.length === 8 && wanted.endsWith(have) && wanted.length === 10)
      })
    if (!match) return undefined
    authRepository.insertMethod(db, { id: newId(), userId: match.id, type: 'MOBILEPAY', identifier: sub, createdAt: clock.now().toISOString() })
    return match.id
  }

  return {
    available: () => deps.login !== undefined,

    async start(): Promise<string | undefined> {
      if (!deps.login) return undefined
      try {
        const attempt = await deps.login.start()
        await lock.run(() => db.insert(oidcLogins).values({ state: attempt.state, nonce: attempt.nonce, codeVerifier: attempt.codeVerifier, createdAt: clock.now().toISOString() }).run())
        return attempt.url
      } catch (err) {
        log.warn({ err }, 'vipps login could not start')
        return undefined
      }
    },

    async callback(code: string | undefined, state: string | undefined, error: string | undefined): Promise<VippsLoginOutcome> {
      if (!deps.login) return { ok: false, error: 'vipps_unavailable' }
      if (!state) return { ok: false, error: 'vipps_failed' }
      // The state is used up whatever happens next, so a callback cannot be replayed.
      const attempt = await lock.run(() => {
        const row = db.select().from(oidcLogins).where(eq(oidcLogins.state, state)).get()
        if (row) db.delete(oidcLogins).where(eq(oidcLogins.state, state)).run()
        return row
      })
      if (!attempt || error || !code || clock.now().getTime() - Date.parse(attempt.createdAt) > ATTEMPT_TTL_MS) return { ok: false, error: 'vipps_failed' }
      try {
        const identity = await deps.login.finish(code, attempt)
        return await lock.run(() =>
          db.transaction(() => {
            const userId = findUser(identity.sub, identity.phone_number)
            if (!userId) return { ok: false as const, error: 'vipps_no_account' as const }
            return { ok: true as const, accessToken: deps.auth.startSession(userId).accessToken }
          }),
        )
      } catch (err) {
        log.warn({ err }, 'vipps login failed')
        return { ok: false, error: 'vipps_failed' }
      }
    },
  }
}

export type VippsLoginService = ReturnType<typeof createVippsLoginService>
