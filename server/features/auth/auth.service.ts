import { type Db, transaction } from '../../db/client'
import { DomainError, validation } from '../../errors'
import type { Clock } from '../../lib/clock'
import { newId, randomToken, sha256 } from '../../lib/ids'
import { translate } from '../../i18n/i18n'
import { localeOf } from '../../../shared/contract/common'
import type { LoginRequest, LoginResponse, ResetPasswordRequest } from '../../../shared/contract/auth'
import { messages } from '../../../shared/i18n-messages'
import { queueMail } from '../../integrations/mail/mail-outbox'
import { renderEmail } from '../../integrations/mail/layout'
import { RateLimiter } from '../../http/rate-limit'
import { inReadScope } from '../../db/read-scope'
import type { WriteLock } from '../../lib/write-lock'
import { LoginThrottle } from './login-throttle'
import type { Actor } from '../../access/actor'
import type { UsersService } from '../users'
import { authRepository, type AuthMethodRow, type NewAuthMethod } from './auth.repository'
import type { NotificationsService } from '../notifications'
import { dummyPasswordHash, hashPassword, isCommonPassword, verifyPassword } from './passwords'

const DAY = 24 * 60 * 60 * 1000
export const SESSION_TTL_MS = 30 * DAY
const RESET_TTL_MS = 60 * 60 * 1000
/** An invitation's set-password link lasts longer than a reset link: the invitee may be away. */
export const INVITATION_TTL_MS = 7 * DAY
/** A session's expiry slides forward at most once an hour, so reads do not write on every call. */
const TOUCH_INTERVAL_MS = 60 * 60 * 1000

export interface AuthDeps {
  db: Db
  clock: Clock
  publicUrl: string
  tokenLoginEnabled: boolean
  notifications: NotificationsService
  users: UsersService
  /** Sign-in runs outside the request's write transaction (README "Security"); it takes the lock for its writes. */
  lock: WriteLock
  /** Sign-in attempts, password-reset requests per IP and reset e-mails per account. */
  limits?: { login?: LoginThrottle; forgot?: RateLimiter; forgotMails?: RateLimiter }
  /** Waits before a password check on an account under attack (tests pass a no-op). */
  sleep?: (ms: number) => Promise<void>
}

export type SessionVia = 'password' | 'token' | 'vipps'

const loginFailed = () => new DomainError('INVALID_CREDENTIALS', messages.loginFailed.id)

/** Counts one use of the key; false once over the limit (for limits that must stay silent). */
function withinLimit(limiter: RateLimiter, key: string): boolean {
  try {
    limiter.hit(key)
    return true
  } catch {
    return false
  }
}

/** Sign-in, sessions and password reset (docs/PRODUCT.md §2 Login/Reset, docs/PRODUCT.md §4 Session, CONTRACT "Transport"). */
export class AuthService {
  private readonly throttle: LoginThrottle
  private readonly forgotPerIp: RateLimiter
  // Reset e-mails per account are capped quietly: the answer stays the same, so nobody can block
  // another person's reset and nobody learns whether the account exists.
  private readonly forgotMails: RateLimiter
  private readonly sleep: (ms: number) => Promise<void>

  constructor(private readonly deps: AuthDeps) {
    this.throttle = deps.limits?.login ?? new LoginThrottle(deps.clock)
    this.forgotPerIp = deps.limits?.forgot ?? new RateLimiter(deps.clock, 20, 60 * 60 * 1000)
    this.forgotMails = deps.limits?.forgotMails ?? new RateLimiter(deps.clock, 5, 60 * 60 * 1000)
    this.sleep = deps.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)))
  }

  async startSession(userId: string, via: SessionVia): Promise<LoginResponse> {
    const token = randomToken()
    const now = this.deps.clock.now()
    const expiresAt = new Date(now.getTime() + SESSION_TTL_MS).toISOString()
    await authRepository.insertSession(this.deps.db, {
      id: newId(),
      userId,
      tokenHash: sha256(token),
      createdAt: now.toISOString(),
      lastUsedAt: now.toISOString(),
      expiresAt,
      via,
    })
    return { accessToken: token, expiresAt }
  }

  /** Rejects the most common passwords (in addition to the length rule of the schema). */
  assertAcceptablePassword(password: string, path: string): void {
    if (isCommonPassword(password)) throw validation([{ path, message: messages.passwordTooCommon.id }])
  }

  /** A single-use link to /reset-password for the user, valid `ttlMs`; the token is stored hashed. */
  private async issueResetLink(user: { id: string; emailAddress: string; language: 'EN' | 'DA' }, ttlMs: number) {
    const token = randomToken()
    const now = this.deps.clock.now()
    await authRepository.insertReset(this.deps.db, {
      id: newId(),
      userId: user.id,
      tokenHash: sha256(token),
      expiresAt: new Date(now.getTime() + ttlMs).toISOString(),
      createdAt: now.toISOString(),
    })
    const url = `${this.deps.publicUrl}/reset-password?token=${encodeURIComponent(token)}&email=${encodeURIComponent(user.emailAddress)}`
    return { locale: localeOf(user.language), url }
  }

  /**
   * Set-password links for many invitees at once (invitations at scale, docs/decisions/0091): the
   * same single-use links as `invite` (valid 7 days; the address counts as proven only when one is
   * used, decision 0001), written in a few statements inside the caller's transaction. Answers the
   * link per user id.
   */
  async invitationLinks(people: readonly { id: string; emailAddress: string }[]): Promise<Map<string, string>> {
    const now = this.deps.clock.now()
    const links = new Map<string, string>()
    const rows = people.map((p) => {
      const token = randomToken()
      links.set(p.id, `${this.deps.publicUrl}/reset-password?token=${encodeURIComponent(token)}&email=${encodeURIComponent(p.emailAddress)}`)
      return {
        id: newId(),
        userId: p.id,
        tokenHash: sha256(token),
        expiresAt: new Date(now.getTime() + INVITATION_TTL_MS).toISOString(),
        createdAt: now.toISOString(),
      }
    })
    await authRepository.insertResets(this.deps.db, rows)
    return links
  }

  /** A user's sign-in methods, for the account feature (its own methods and login tokens). */
  readonly methods = {
    of: async (userId: string): Promise<AuthMethodRow[]> => await authRepository.methodsOf(this.deps.db, userId),
    verified: async (type: AuthMethodRow['type'], identifier: string): Promise<AuthMethodRow | undefined> =>
      await authRepository.verifiedMethod(this.deps.db, type, identifier),
    insert: async (row: NewAuthMethod): Promise<void> => await authRepository.insertMethod(this.deps.db, row),
    delete: async (id: string): Promise<void> => await authRepository.deleteMethod(this.deps.db, id),
  }

  /**
   * E-mail + password or a login token. Unknown e-mail and wrong password get the same answer
   * and take the same time; only proven sign-ins count. Failures are limited per IP and per
   * account + IP, and slow an account under attack without locking its owner out (LoginThrottle).
   * Runs outside the request's write transaction: the password check and any slow-down never
   * hold the write lock; the session is written under it.
   */
  async login(input: LoginRequest, clientIp: string): Promise<LoginResponse> {
    if (input.type === 'token') {
      if (!this.deps.tokenLoginEnabled) throw loginFailed()
      this.throttle.assertAllowed(clientIp)
      const method = await this.deps.lock.run(async () => await authRepository.methodByLookupHash(this.deps.db, sha256(input.token)))
      if (!method || method.type !== 'LOGIN_TOKEN') {
        this.throttle.failed(clientIp)
        throw loginFailed()
      }
      return this.deps.lock.run(() => this.startSession(method.userId, 'token'))
    }
    this.throttle.assertAllowed(clientIp, input.email)
    const delay = this.throttle.delayMs(input.email)
    if (delay > 0) await this.sleep(delay)
    const method = await this.deps.lock.run(async () => await authRepository.verifiedMethod(this.deps.db, 'EMAIL_PASSWORD', input.email))
    const ok = await verifyPassword(input.password, method?.secretHash ?? (await dummyPasswordHash()))
    if (!method || !ok) {
      this.throttle.failed(clientIp, input.email)
      throw loginFailed()
    }
    this.throttle.succeeded(clientIp, input.email)
    return this.deps.lock.run(() => this.startSession(method.userId, 'password'))
  }

  async logout(actor: Actor): Promise<void> {
    await authRepository.revokeSession(this.deps.db, actor.sessionId, this.deps.clock.now().toISOString())
    this.deps.users.actorChanged(actor.userId)
  }

  /**
   * The actor behind a bearer token, sliding the session's expiry forward; undefined when the
   * token is not a live session. Reused for a few seconds per token (this.deps.users.actors), never past
   * the session's expiry; sign-out and every change of what the actor holds invalidate it.
   */
  async authenticate(token: string): Promise<Actor | undefined> {
    const key = sha256(token)
    const now = this.deps.clock.now()
    const cached = this.deps.users.actors.get(key, now.getTime())
    if (cached) return cached
    // A change of what the actor holds from here on keeps what is read below out of the cache.
    const ticket = this.deps.users.actors.ticket()
    // Read as a GET reads (committed rows only, never inside another request's open write
    // transaction): this runs before the request's own transaction or read scope begins.
    const session = await inReadScope(() => authRepository.liveSession(this.deps.db, key, now.toISOString()))
    if (!session) return undefined
    let expiresAt = session.expiresAt
    if (now.getTime() - new Date(session.lastUsedAt).getTime() >= TOUCH_INTERVAL_MS) {
      expiresAt = new Date(now.getTime() + SESSION_TTL_MS).toISOString()
      // The sliding expiry is a write: it waits for the lock like every other write instead of
      // landing inside whichever write transaction is open on the writer right now.
      // A touch that fails only leaves the expiry where it was; the next request tries again.
      const sessionId = session.id
      const at = now.toISOString()
      const until = expiresAt
      void this.deps.lock.run(() => authRepository.touchSession(this.deps.db, sessionId, at, until)).catch(() => undefined)
    }
    const actor = await inReadScope(() => this.deps.users.loadActor(session.userId, session.id))
    if (actor) this.deps.users.actors.set(key, actor, now.getTime(), new Date(expiresAt).getTime(), ticket)
    return actor
  }

  /**
   * Always the same answer, whether or not the account exists. When it does, an e-mail in the
   * user's language carries a single-use link valid for one hour.
   */
  async forgotPassword(email: string, clientIp: string): Promise<string> {
    this.forgotPerIp.hit(`ip:${clientIp}`)
    const user = await this.deps.users.byEmail(email)
    if (user && withinLimit(this.forgotMails, `account:${user.id}`)) {
      const { locale, url } = await this.issueResetLink(user, RESET_TTL_MS)
      const mail = renderEmail(locale, {
        subject: translate(locale, /*i18n*/ { id: 'Reset your Boligkasse password' }),
        paragraphs: [
          translate(locale, /*i18n*/ { id: 'Hello {name},', values: { name: user.fullName } }),
          translate(locale, /*i18n*/ { id: 'We received a request to reset the password of your Boligkasse account. The link works once and for one hour.' }),
          translate(locale, /*i18n*/ { id: 'If you did not ask for this, you can ignore this e-mail; your password stays the same.' }),
        ],
        action: { label: translate(locale, /*i18n*/ { id: 'Choose a new password' }), url },
      })
      await queueMail(this.deps.db, this.deps.clock, { to: user.emailAddress, ...mail })
    }
    return messages.resetRequested.id
  }

  /**
   * Invites a user who has no password yet (added to a company by its staff): an e-mail in the
   * user's language with a single-use set-password link, valid 7 days. It is a password reset
   * link, so the reset screen (docs/PRODUCT.md §2 "Reset password") sets the first password.
   */
  async invite(userId: string, context: { companyName: string; inviterName: string }): Promise<void> {
    const user = await this.deps.users.byId(userId)
    if (!user) return
    const { locale, url } = await this.issueResetLink(user, INVITATION_TTL_MS)
    const values = { name: user.fullName, company: context.companyName, inviter: context.inviterName }
    const mail = renderEmail(locale, {
      subject: translate(locale, /*i18n*/ { id: 'You are invited to {company} on Boligkasse' }, values),
      paragraphs: [
        translate(locale, /*i18n*/ { id: 'Hello {name},' }, values),
        translate(locale, /*i18n*/ { id: '{inviter} has added you to {company} on Boligkasse.' }, values),
        translate(locale, /*i18n*/ { id: 'Choose a password to sign in. The link works once and for 7 days.' }),
      ],
      action: { label: translate(locale, /*i18n*/ { id: 'Choose a password' }), url },
    })
    await queueMail(this.deps.db, this.deps.clock, { to: user.emailAddress, ...mail })
  }

  /**
   * Tells an existing user, in their language, that a company's staff added them (docs/decisions/0033-privacy-between-associations.md):
   * who added them, to which company, and a link to sign in. A user who cannot sign in yet (an
   * earlier invitation not taken up, no proven sign-in) gets a fresh set-password link (valid 7
   * days) instead.
   */
  async notifyAddedToCompany(userId: string, context: { companyName: string; inviterName: string }): Promise<void> {
    const user = await this.deps.users.byId(userId)
    if (!user) return
    const values = { name: user.fullName, company: context.companyName, inviter: context.inviterName }
    // Only a proven sign-in counts: a pending claim on an address signs nobody in.
    const canSignIn = (await authRepository.methodsOf(this.deps.db, userId)).some((m) => m.verifiedAt !== null)
    const { locale, url } =
      canSignIn ? { locale: localeOf(user.language), url: `${this.deps.publicUrl}/login` } : await this.issueResetLink(user, INVITATION_TTL_MS)
    const mail = renderEmail(locale, {
      subject: translate(locale, /*i18n*/ { id: 'You were added to {company} on Boligkasse' }, values),
      paragraphs: [
        translate(locale, /*i18n*/ { id: 'Hello {name},' }, values),
        translate(locale, /*i18n*/ { id: '{inviter} has added you to {company} on Boligkasse.' }, values),
        canSignIn ?
          translate(locale, /*i18n*/ { id: 'Sign in as usual to see {company}.' }, values)
        : translate(locale, /*i18n*/ { id: 'Choose a password to sign in. The link works once and for 7 days.' }),
        translate(locale, /*i18n*/ { id: 'If you did not expect this, ask {company} to remove you.' }, values),
      ],
      action:
        canSignIn ? { label: translate(locale, /*i18n*/ { id: 'Sign in' }), url } : { label: translate(locale, /*i18n*/ { id: 'Choose a password' }), url },
    })
    await queueMail(this.deps.db, this.deps.clock, { to: user.emailAddress, ...mail })
  }

  /**
   * Sets a new password from a reset (or invitation) link and uses the link up. The link proves
   * the account's address, so only that user's own e-mail sign-in is written (and marked proven);
   * other this.deps.users' unproven claims on the address are dropped. Every session and login token of
   * the account ends, and an e-mail says so.
   */
  async resetPassword(input: ResetPasswordRequest): Promise<string> {
    this.assertAcceptablePassword(input.newPassword, 'newPassword')
    const reset = await authRepository.resetByTokenHash(this.deps.db, sha256(input.token))
    const now = this.deps.clock.now().toISOString()
    if (!reset) throw new DomainError('VALIDATION_FAILED', messages.invalidResetLink.id, { issues: [{ path: 'token', message: messages.invalidResetLink.id }] })
    if (reset.usedAt || reset.expiresAt <= now)
      throw new DomainError('VALIDATION_FAILED', messages.resetLinkExpired.id, { issues: [{ path: 'token', message: messages.resetLinkExpired.id }] })
    const user = await this.deps.users.byId(reset.userId)
    if (!user || (input.email && input.email !== user.emailAddress))
      throw new DomainError('VALIDATION_FAILED', messages.invalidResetLink.id, { issues: [{ path: 'token', message: messages.invalidResetLink.id }] })
    const secretHash = await hashPassword(input.newPassword)
    const ended = await transaction(this.deps.db, async () => {
      await authRepository.markResetUsed(this.deps.db, reset.id, now)
      const taken = await authRepository.verifiedMethod(this.deps.db, 'EMAIL_PASSWORD', user.emailAddress)
      if (taken && taken.userId !== user.id)
        throw new DomainError('VALIDATION_FAILED', messages.invalidResetLink.id, { issues: [{ path: 'token', message: messages.invalidResetLink.id }] })
      await authRepository.deleteOthersPendingClaims(this.deps.db, 'EMAIL_PASSWORD', user.emailAddress, user.id)
      const own = await authRepository.ownMethod(this.deps.db, user.id, 'EMAIL_PASSWORD', user.emailAddress)
      if (own) await authRepository.updateMethod(this.deps.db, own.id, { secretHash, verifiedAt: own.verifiedAt ?? now })
      else
        await authRepository.insertMethod(this.deps.db, {
          id: newId(),
          userId: user.id,
          type: 'EMAIL_PASSWORD',
          identifier: user.emailAddress,
          secretHash,
          verifiedAt: now,
          createdAt: now,
        })
      // Whatever someone else may have set up with a stolen session or password ends here too:
      // pending e-mail claims and changes, and Vipps links (the owner links Vipps again).
      const pending = await authRepository.expireConfirmations(this.deps.db, user.id, now)
      await authRepository.deleteUnverifiedMethods(this.deps.db, user.id)
      const vipps = await authRepository.deleteMethodsOfType(this.deps.db, user.id, 'MOBILEPAY')
      const sessions = await authRepository.revokeAllSessions(this.deps.db, user.id, now)
      this.deps.users.actors.invalidateUser(user.id, this.deps.db)
      return { sessions, tokens: await authRepository.deleteLoginTokens(this.deps.db, user.id), pending, vipps }
    })
    await this.deps.notifications.notify(user.id, {
      type: 'info',
      title: /*i18n*/ { id: 'Your password was changed' },
      message: /*i18n*/ {
        id: 'The password of your account was changed and you were signed out on all devices. If this was not you, reset your password at once and contact your association.',
      },
    })
    const locale = localeOf(user.language)
    const values = { name: user.fullName, sessions: ended.sessions, tokens: ended.tokens, pending: ended.pending, vipps: ended.vipps }
    await queueMail(this.deps.db, this.deps.clock, {
      to: user.emailAddress,
      ...renderEmail(locale, {
        subject: translate(locale, /*i18n*/ { id: 'Your Boligkasse password was changed' }),
        paragraphs: [
          translate(locale, /*i18n*/ { id: 'Hello {name},' }, values),
          translate(locale, /*i18n*/ { id: 'The password of your Boligkasse account was just changed with a reset link.' }),
          translate(
            locale,
            /*i18n*/ {
              id: 'For your safety we signed you out everywhere: {sessions, plural, one {# session was} other {# sessions were}} ended and {tokens, plural, one {# login token was} other {# login tokens were}} removed.',
            },
            values,
          ),
          ...(ended.vipps > 0 ?
            [translate(locale, /*i18n*/ { id: 'Your Vipps MobilePay sign-in was unlinked as well. Link it again from your profile when you have signed in.' })]
          : []),
          ...(ended.pending > 0 ?
            [translate(locale, /*i18n*/ { id: 'Sign-in methods and e-mail changes that were still waiting for confirmation were cancelled.' })]
          : []),
          translate(locale, /*i18n*/ { id: 'If this was not you, reset your password at once and contact your association.' }),
        ],
      }),
    })
    return messages.passwordChanged.id
  }
}

export const createAuthService = (deps: AuthDeps) => new AuthService(deps)
