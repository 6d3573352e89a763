import type { Db } from '../../db/client'
import { DomainError, conflict, ruleViolation, validation } from '../../errors'
import type { Clock } from '../../lib/clock'
import { newId, randomToken, sha256 } from '../../lib/ids'
import { translate, type Locale } from '../../i18n/i18n'
import { localeOf } from '../../../shared/contract/common'
import { messages } from '../../../shared/i18n-messages'
import { queueMail } from '../../integrations/mail/mail-outbox'
import { renderEmail } from '../../integrations/mail/layout'
import type { Actor } from '../../access/actor'
import type { UserRow, UsersService } from '../users'
import { authRepository } from './auth.repository'
import { LoginThrottle } from './login-throttle'
import { verifyPassword } from './passwords'

/** How long an e-mail confirmation link works. */
export const CONFIRMATION_TTL_MS = 24 * 60 * 60 * 1000
/** A Vipps sign-in this recent confirms identity like the current password does. */
export const FRESH_VIPPS_SIGN_IN_MS = 10 * 60 * 1000

/** What the identity service is made with. */
export interface IdentityServiceDeps {
  db: Db
  clock: Clock
  publicUrl: string
  users: UsersService
  throttle?: LoginThrottle
  sleep?: (ms: number) => Promise<void>
}

/**
 * Proofs of identity for security changes (README "Security"):
 * - a change of sign-in methods or of the account's e-mail needs the current password (or a
 *   Vipps sign-in from the last 10 minutes), and the account's address hears of it;
 * - an e-mail address counts as a sign-in only once a link sent to it was clicked.
 */
export class IdentityService {
  private readonly throttle: LoginThrottle
  private readonly sleep: (ms: number) => Promise<void>

  constructor(private readonly deps: IdentityServiceDeps) {
    this.throttle = deps.throttle ?? new LoginThrottle(deps.clock, { perPair: 10, perIp: 50 })
    this.sleep = deps.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)))
  }

  private async userById(id: string): Promise<UserRow> {
    const row = await this.deps.users.byId(id)
    if (!row) throw new DomainError('NOT_FOUND', messages.notFound.id)
    return row
  }

  /** Sends a plain security notice to the account's own address, in the user's language. */
  private async mailAccount(owner: UserRow, subject: { id: string }, lines: { id: string }[], values: Record<string, unknown>) {
    const locale = localeOf(owner.language)
    const all = { name: owner.fullName, ...values }
    await queueMail(this.deps.db, this.deps.clock, {
      to: owner.emailAddress,
      ...renderEmail(locale, {
        subject: translate(locale, subject, all),
        paragraphs: [translate(locale, /*i18n*/ { id: 'Hello {name},' }, all), ...lines.map((l) => translate(locale, l, all))],
        action: { label: translate(locale, /*i18n*/ { id: 'Open profile' }), url: `${this.deps.publicUrl}/user` },
      }),
    })
  }

  /** A single-use link to /confirm-email sent to `email`; the token is stored hashed. */
  private async sendConfirmation(owner: UserRow, purpose: 'ADD_METHOD' | 'CHANGE_EMAIL', email: string, authMethodId: string | null) {
    const token = randomToken()
    const now = this.deps.clock.now()
    await authRepository.insertConfirmation(this.deps.db, {
      id: newId(),
      userId: owner.id,
      purpose,
      email,
      authMethodId,
      tokenHash: sha256(token),
      expiresAt: new Date(now.getTime() + CONFIRMATION_TTL_MS).toISOString(),
      createdAt: now.toISOString(),
    })
    const locale: Locale = localeOf(owner.language)
    const values = { name: owner.fullName, email }
    const url = `${this.deps.publicUrl}/confirm-email?token=${encodeURIComponent(token)}`
    await queueMail(this.deps.db, this.deps.clock, {
      to: email,
      ...renderEmail(locale, {
        subject: translate(locale, /*i18n*/ { id: 'Confirm your e-mail address for Boligkasse' }),
        paragraphs: [
          translate(locale, /*i18n*/ { id: 'Hello {name},' }, values),
          purpose === 'ADD_METHOD' ?
            translate(
              locale,
              /*i18n*/ { id: 'Someone asked to sign in to a Boligkasse account with {email}. It works only after you confirm that this address is yours.' },
              values,
            )
          : translate(
              locale,
              /*i18n*/ {
                id: 'Someone asked to make {email} the e-mail address of a Boligkasse account. It changes only after you confirm that this address is yours.',
              },
              values,
            ),
          translate(locale, /*i18n*/ { id: 'The link works once and for 24 hours. If this was not you, ignore this e-mail and nothing changes.' }),
        ],
        action: { label: translate(locale, /*i18n*/ { id: 'Confirm e-mail address' }), url },
      }),
    })
  }

  /**
   * Refuses an address that is someone else's account e-mail or proven e-mail sign-in. An address
   * only claimed (not proven) by someone else does not block its owner.
   */
  async assertEmailFree(email: string, ownerId: string, path: string): Promise<void> {
    const holder = await this.deps.users.byEmail(email)
    const method = await authRepository.verifiedMethod(this.deps.db, 'EMAIL_PASSWORD', email)
    if ((holder && holder.id !== ownerId) || (method && method.userId !== ownerId)) throw conflict(messages.emailTaken.id, path)
  }

  /**
   * Confirms that the person at the keyboard is the account's owner before a security change:
   * the current password, or a Vipps sign-in from the last 10 minutes. Wrong passwords count
   * like failed sign-ins (per account + IP), so a stolen session cannot guess the password.
   */
  async confirmOwner(actor: Actor, currentPassword: string | undefined, clientIp: string): Promise<void> {
    const session = await authRepository.sessionById(this.deps.db, actor.sessionId)
    if (session?.via === 'vipps' && this.deps.clock.now().getTime() - Date.parse(session.createdAt) <= FRESH_VIPPS_SIGN_IN_MS) return
    const passwords = await authRepository.passwordMethodsOf(this.deps.db, actor.userId)
    if (passwords.length === 0) throw ruleViolation(messages.confirmWithVipps.id)
    if (!currentPassword) throw validation([{ path: 'currentPassword', message: messages.currentPasswordRequired.id }])
    const account = `reauth:${actor.userId}`
    this.throttle.assertAllowed(clientIp, account)
    // Guesses spread over many addresses are slowed per account, like sign-ins.
    const delay = this.throttle.delayMs(account)
    if (delay > 0) await this.sleep(delay)
    for (const m of passwords) if (await verifyPassword(currentPassword, m.secretHash!)) return
    this.throttle.failed(clientIp, account)
    throw validation([{ path: 'currentPassword', message: messages.currentPasswordWrong.id }])
  }

  /** A new e-mail sign-in waits, unusable, for its confirmation link; the account's address is told. */
  async addPendingEmailSignIn(actor: Actor, email: string, secretHash: string): Promise<{ id: string; createdAt: string }> {
    const owner = await this.userById(actor.userId)
    await this.assertEmailFree(email, owner.id, 'identifier')
    const existing = await authRepository.ownMethod(this.deps.db, owner.id, 'EMAIL_PASSWORD', email)
    if (existing?.verifiedAt) throw conflict(messages.emailTaken.id, 'identifier')
    if (existing) await authRepository.deleteMethod(this.deps.db, existing.id)
    const id = newId()
    const createdAt = this.deps.clock.now().toISOString()
    await authRepository.insertMethod(this.deps.db, { id, userId: owner.id, type: 'EMAIL_PASSWORD', identifier: email, secretHash, createdAt })
    await this.sendConfirmation(owner, 'ADD_METHOD', email, id)
    return { id, createdAt }
  }

  /** The new address must be confirmed from its own inbox; the current address is told. */
  async requestEmailChange(actor: Actor, email: string): Promise<void> {
    const owner = await this.userById(actor.userId)
    await this.assertEmailFree(email, owner.id, 'emailAddress')
    const now = this.deps.clock.now().toISOString()
    await authRepository.expireEmailChanges(this.deps.db, owner.id, now)
    await this.sendConfirmation(owner, 'CHANGE_EMAIL', email, null)
    await this.mailAccount(
      owner,
      /*i18n*/ { id: 'A change of your Boligkasse e-mail address was requested' },
      [
        /*i18n*/ {
          id: 'Someone signed in to your account asked to change its e-mail address to {email}. It changes only when the link sent to that address is clicked.',
        },
        /*i18n*/ { id: 'If this was not you, change your password at once and contact your association.' },
      ],
      { email },
    )
  }

  /** The e-mail change waiting for its link, if any. */
  async pendingEmail(userId: string): Promise<string | null> {
    return (await authRepository.pendingEmailChange(this.deps.db, userId, this.deps.clock.now().toISOString()))?.email ?? null
  }

  /** Tells the account's own address that a sign-in method was added. */
  async mailNewMethod(userId: string, identifier: string): Promise<void> {
    await this.mailAccount(
      await this.userById(userId),
      /*i18n*/ { id: 'A sign-in method was added to your Boligkasse account' },
      [
        /*i18n*/ { id: 'The sign-in method {identifier} was added to your account.' },
        /*i18n*/ { id: 'If this was not you, remove it from your profile, change your password and contact your association.' },
      ],
      { identifier },
    )
  }

  /** Tells the account's own address that a sign-in method was removed. */
  async mailMethodRemoved(userId: string, identifier: string): Promise<void> {
    await this.mailAccount(
      await this.userById(userId),
      /*i18n*/ { id: 'A sign-in method was removed from your Boligkasse account' },
      [
        /*i18n*/ { id: 'The sign-in method {identifier} was removed from your account.' },
        /*i18n*/ { id: 'If this was not you, change your password at once and contact your association.' },
      ],
      { identifier },
    )
  }

  /**
   * Uses a confirmation link: proves the address and applies what waited for it (the pending
   * e-mail sign-in, or the new account address with the e-mail sign-in following it).
   */
  async confirmEmail(token: string): Promise<string> {
    const link = await authRepository.confirmationByTokenHash(this.deps.db, sha256(token))
    const now = this.deps.clock.now().toISOString()
    const invalid = (message: string) => new DomainError('VALIDATION_FAILED', message, { issues: [{ path: 'token', message }] })
    if (!link) throw invalid(messages.invalidConfirmationLink.id)
    if (link.usedAt || link.expiresAt <= now) throw invalid(messages.confirmationLinkExpired.id)
    const owner = await this.userById(link.userId)
    await authRepository.markConfirmationUsed(this.deps.db, link.id, now)
    await this.assertEmailFree(link.email, owner.id, 'token')
    if (link.purpose === 'ADD_METHOD') {
      const method = (await authRepository.methodsOf(this.deps.db, owner.id)).find((m) => m.id === link.authMethodId)
      if (!method) throw invalid(messages.invalidConfirmationLink.id)
      await authRepository.updateMethod(this.deps.db, method.id, { verifiedAt: now })
      await authRepository.deleteOthersPendingClaims(this.deps.db, 'EMAIL_PASSWORD', link.email, owner.id)
      return messages.emailSignInConfirmed.id
    }
    // CHANGE_EMAIL: the account's address and its e-mail sign-in move to the proven address.
    const signIn = await authRepository.ownMethod(this.deps.db, owner.id, 'EMAIL_PASSWORD', owner.emailAddress)
    const already = await authRepository.ownMethod(this.deps.db, owner.id, 'EMAIL_PASSWORD', link.email)
    if (signIn && !already) await authRepository.updateMethod(this.deps.db, signIn.id, { identifier: link.email, verifiedAt: now })
    else if (already) await authRepository.updateMethod(this.deps.db, already.id, { verifiedAt: now })
    await authRepository.deleteOthersPendingClaims(this.deps.db, 'EMAIL_PASSWORD', link.email, owner.id)
    await this.deps.users.update(owner.id, { emailAddress: link.email, version: owner.version + 1, updatedAt: now })
    return messages.emailChangeConfirmed.id
  }
}

export const createIdentityService = (deps: IdentityServiceDeps) => new IdentityService(deps)
