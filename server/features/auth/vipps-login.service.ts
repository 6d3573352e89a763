import type { Logger } from 'pino'
import type { Db } from '../../db/client'
import { DomainError } from '../../errors'
import type { Clock } from '../../lib/clock'
import { newId } from '../../lib/ids'
import type { WriteLock } from '../../lib/write-lock'
import type { VippsLogin } from '../../integrations/vipps/vipps-login'
import { mobileKey } from '../../../shared/domain/mobile'
import { messages } from '../../../shared/i18n-messages'
import type { Actor } from '../../access/actor'
import type { UsersService } from '../users'
import { authRepository } from './auth.repository'
import type { AuthService } from './auth.service'
import type { IdentityService } from './identity.service'
import { transaction } from '../../db/client'

const ATTEMPT_TTL_MS = 10 * 60 * 1000

export type VippsLoginError = 'vipps_unavailable' | 'vipps_failed' | 'vipps_no_account' | 'vipps_not_linked' | 'vipps_linked_elsewhere'

/**
 * Where the browser goes after the callback: into the app signed in, back to the profile after
 * linking, or back to the login page (or the profile, when linking) with a reason.
 */
export type VippsLoginOutcome = { ok: true; accessToken: string } | { ok: true; linked: true } | { ok: false; error: VippsLoginError; linking?: boolean }

/** What the Vipps Login service is made with. */
export interface VippsLoginServiceDeps {
  db: Db
  clock: Clock
  lock: WriteLock
  auth: AuthService
  identity: IdentityService
  login: VippsLogin | undefined
  log: Logger
  users: UsersService
}

/**
 * Sign in with Vipps MobilePay, and linking Vipps to a signed-in account (README "Security").
 * A sign-in finds the user by an existing MOBILEPAY sign-in (the Vipps subject). Failing that, the
 * phone number Vipps verified opens an account only when exactly one user holds that number and
 * it was verified (mobile numbers are unique; a number typed into a profile is not verified until
 * Vipps returns it for that user); then the MOBILEPAY sign-in is added so the subject suffices next
 * time. Anyone else is told to sign in another way and link Vipps from the profile — never guessed.
 * Vipps is called outside the write lock; each database step takes it.
 */
export class VippsLoginService {
  constructor(private readonly deps: VippsLoginServiceDeps) {}

  private async linkedUser(sub: string) {
    return await authRepository.userOfVippsSub(this.deps.db, sub)
  }

  private async addVippsSignIn(userId: string, sub: string): Promise<void> {
    const now = this.deps.clock.now().toISOString()
    await authRepository.insertMethod(this.deps.db, { id: newId(), userId, type: 'MOBILEPAY', identifier: sub, verifiedAt: now, createdAt: now })
  }

  private async signInUser(sub: string, phone: string | undefined): Promise<{ userId: string } | { error: VippsLoginError }> {
    const linked = await this.linkedUser(sub)
    if (linked) {
      if (phone) await this.verifyOwnNumber(linked, mobileKey(phone))
      return { userId: linked }
    }
    const holder = phone ? await this.deps.users.byMobileKey(mobileKey(phone)) : undefined
    if (!holder) return { error: 'vipps_no_account' }
    if (!holder.mobileVerifiedAt) return { error: 'vipps_not_linked' }
    await this.addVippsSignIn(holder.id, sub)
    return { userId: holder.id }
  }

  /** Vipps returned this number for the user: when it is the number on their profile, it is now proven. */
  private async verifyOwnNumber(userId: string, key: string): Promise<boolean> {
    const user = await this.deps.users.byId(userId)
    if (!user || user.mobileKey !== key) return false
    if (!user.mobileVerifiedAt) {
      const now = this.deps.clock.now().toISOString()
      await this.deps.users.update(userId, { mobileVerifiedAt: now, version: user.version + 1, updatedAt: now })
    }
    return true
  }

  /** Links the Vipps identity to the signed-in user; the phone Vipps returned becomes their verified number when it is theirs or free. */
  private async link(userId: string, sub: string, phone: string | undefined): Promise<VippsLoginOutcome> {
    const linked = await this.linkedUser(sub)
    if (linked && linked !== userId) return { ok: false, error: 'vipps_linked_elsewhere', linking: true }
    if (!linked) {
      await this.addVippsSignIn(userId, sub)
      await this.deps.identity.mailNewMethod(userId, 'Vipps MobilePay')
    }
    const user = await this.deps.users.byId(userId)
    if (
      user &&
      phone &&
      !(await this.verifyOwnNumber(userId, mobileKey(phone))) &&
      !user.mobileNumber &&
      !(await this.deps.users.byMobileKey(mobileKey(phone)))
    ) {
      // No number on the profile yet: the one Vipps proved becomes it.
      const key = mobileKey(phone)
      const now = this.deps.clock.now().toISOString()
      await this.deps.users.update(userId, { mobileNumber: `+${key}`, mobileKey: key, mobileVerifiedAt: now, version: user.version + 1, updatedAt: now })
    }
    return { ok: true, linked: true }
  }

  /** Where the browser goes, and the state the same browser must bring back (a cookie: README "Security"). */
  private async begin(linkUserId: string | null): Promise<{ url: string; state: string } | undefined> {
    if (!this.deps.login) return undefined
    try {
      const attempt = await this.deps.login.start()
      await this.deps.lock.run(() =>
        authRepository.insertOidcLogin(this.deps.db, {
          state: attempt.state,
          nonce: attempt.nonce,
          codeVerifier: attempt.codeVerifier,
          createdAt: this.deps.clock.now().toISOString(),
          linkUserId,
        }),
      )
      return { url: attempt.url, state: attempt.state }
    } catch (err) {
      this.deps.log.warn({ err }, 'vipps login could not start')
      return undefined
    }
  }

  available(): boolean {
    return this.deps.login !== undefined
  }

  async start() {
    return await this.begin(null)
  }

  /**
   * The Vipps Login address for linking Vipps to the signed-in user, after confirming the owner
   * (linking adds a way to sign in: a stolen session must not add its own Vipps). 503 when Vipps
   * Login is unavailable.
   */
  async startLink(actor: Actor, currentPassword: string | undefined, clientIp: string): Promise<{ url: string; state: string }> {
    await this.deps.lock.run(() => this.deps.identity.confirmOwner(actor, currentPassword, clientIp))
    const started = await this.begin(actor.userId)
    if (!started) throw new DomainError('PROVIDER_UNAVAILABLE', messages.providerUnavailable.id)
    return started
  }

  /**
   * Where Vipps returns. `browserState` is the state cookie set when this browser started the
   * flow: a callback opened in another browser (a link someone was sent) is refused, so nobody
   * can be signed in to, or link Vipps to, an account that is not theirs.
   */
  async callback(code: string | undefined, state: string | undefined, error: string | undefined, browserState: string | undefined): Promise<VippsLoginOutcome> {
    if (!this.deps.login) return { ok: false, error: 'vipps_unavailable' }
    if (!state) return { ok: false, error: 'vipps_failed' }
    // The state is used up whatever happens next, so a callback cannot be replayed.
    const attempt = await this.deps.lock.run(() => authRepository.takeOidcLogin(this.deps.db, state))
    const linking = Boolean(attempt?.linkUserId)
    if (!attempt || state !== browserState || error || !code || this.deps.clock.now().getTime() - Date.parse(attempt.createdAt) > ATTEMPT_TTL_MS)
      return { ok: false, error: 'vipps_failed', linking }
    try {
      const identity = await this.deps.login.finish(code, attempt)
      return await this.deps.lock.run(() =>
        transaction(this.deps.db, async (): Promise<VippsLoginOutcome> => {
          if (attempt.linkUserId) return this.link(attempt.linkUserId, identity.sub, identity.phone_number)
          const found = await this.signInUser(identity.sub, identity.phone_number)
          if ('error' in found) return { ok: false, error: found.error }
          return { ok: true, accessToken: (await this.deps.auth.startSession(found.userId, 'vipps')).accessToken }
        }),
      )
    } catch (err) {
      this.deps.log.warn({ err }, 'vipps login failed')
      return { ok: false, error: 'vipps_failed', linking }
    }
  }
}

export const createVippsLoginService = (deps: VippsLoginServiceDeps) => new VippsLoginService(deps)
