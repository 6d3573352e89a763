import type { Db } from '../../db/client'
import { conflict, notFound, ruleViolation, validation, versionConflict } from '../../errors'
import type { Clock } from '../../lib/clock'
import { newId, randomToken, sha256 } from '../../lib/ids'
import type { z } from 'zod'
import type { AccountInfo, AddAuthMethodResponse, Profile, ProfileField, UpdateAccountRequest, UserSearchResult } from '../../../shared/contract/account'
import { AddAuthMethodRequest, profileFieldSchemas } from '../../../shared/contract/account'
import { messages } from '../../../shared/i18n-messages'
import type { Actor } from '../../access/actor'
import { assertCan, isSuperAdmin } from '../../access/policy'
import type { AuthService } from '../auth'
import type { NotificationsService } from '../notifications'
import { hashPassword } from '../auth'
import type { IdentityService } from '../auth'
import { mobileKey } from '../../../shared/domain/mobile'
import type { UserRow, UsersService } from '../users'
import { issuesOf } from '../../http/error-mapper'

const authMethodView = (m: Awaited<ReturnType<AuthService['methods']['of']>>[number]) => ({
  id: m.id,
  type: m.type,
  identifier: m.identifier,
  verified: m.verifiedAt !== null,
  createdAt: m.createdAt,
})

/** What the account service is made with. */
export interface AccountServiceDeps {
  db: Db
  clock: Clock
  auth: AuthService
  identity: IdentityService
  notifications: NotificationsService
  users: UsersService
}

/** The signed-in user's own account: info, profile fields, sign-in methods, current company. */
export class AccountService {
  constructor(private readonly deps: AccountServiceDeps) {}

  private async userOf(actor: Actor): Promise<UserRow> {
    const user = await this.deps.users.byId(actor.userId)
    if (!user) throw notFound()
    return user
  }

  async info(actor: Actor): Promise<AccountInfo> {
    const user = await this.userOf(actor)
    const companies = await this.deps.users.memberships(user.id)
    const current = companies.find((c) => c.id === user.currentCompanyId) ?? companies[0] ?? null
    return {
      id: user.id,
      fullName: user.fullName,
      emailAddress: user.emailAddress,
      mobileNumber: user.mobileNumber,
      userRole: user.systemRole,
      language: user.language,
      companies,
      currentCompany: current ? { id: current.id, name: current.name } : null,
      notifications: (await this.deps.notifications.list(actor)).slice(0, 20),
      version: user.version,
    }
  }

  /** A security notice in the app and by e-mail, so a user notices a sign-in method they did not add themselves. */
  private async notifyNewMethod(actor: Actor, identifier: string): Promise<void> {
    await this.deps.identity.mailNewMethod(actor.userId, identifier)
    await this.deps.notifications.notify(actor.userId, {
      type: 'warning',
      title: /*i18n*/ { id: 'New sign-in method added' },
      message: /*i18n*/ {
        id: 'The sign-in method <strong>{identifier}</strong> was added to your account. If this was not you, remove it and change your password.',
      },
      values: { identifier },
      actionUrl: '/user',
      actionText: /*i18n*/ { id: 'Open profile' },
    })
  }

  async profile(actor: Actor): Promise<Profile> {
    const { notifications: _unused, ...rest } = await this.info(actor)
    return {
      ...rest,
      authMethods: (await this.deps.auth.methods.of(actor.userId)).map(authMethodView),
      pendingEmailAddress: await this.deps.identity.pendingEmail(actor.userId),
      mobileVerified: (await this.userOf(actor)).mobileVerifiedAt !== null,
    }
  }

  /**
   * Applies profile changes with optimistic concurrency (If-Match on the user's version).
   * A new e-mail address needs the current password and waits for the link sent to it (the
   * e-mail sign-in follows it then); a mobile number is unique and unverified until Vipps proves it.
   */
  private async applyChanges(actor: Actor, input: UpdateAccountRequest, ifMatch: number | undefined, clientIp: string): Promise<void> {
    const user = await this.userOf(actor)
    if (ifMatch !== undefined && ifMatch !== user.version) throw versionConflict(await this.profile(actor))
    const { emailAddress, currentPassword, mobileNumber, ...changes } = input
    const update: Partial<UserRow> = { ...changes }
    if (emailAddress !== undefined && emailAddress !== user.emailAddress) {
      await this.deps.identity.confirmOwner(actor, currentPassword, clientIp)
      await this.deps.identity.requestEmailChange(actor, emailAddress)
    }
    if (mobileNumber !== undefined) {
      const key = mobileNumber ? mobileKey(mobileNumber) : null
      if (key) {
        const holder = await this.deps.users.byMobileKey(key)
        if (holder && holder.id !== user.id) throw conflict(messages.mobileTaken.id, 'mobileNumber')
      }
      update.mobileNumber = mobileNumber
      update.mobileKey = key
      if (key !== user.mobileKey) update.mobileVerifiedAt = null
    }
    if (Object.keys(update).length === 0) return
    await this.deps.users.update(user.id, { ...update, version: user.version + 1, updatedAt: this.deps.clock.now().toISOString() })
  }

  /** PATCH /account/profile/{field}: validates the one field with the shared schema. */
  async patchField(
    actor: Actor,
    field: ProfileField,
    value: unknown,
    opts: { ifMatch?: number; currentPassword?: string; clientIp: string },
  ): Promise<Profile> {
    const parsed = profileFieldSchemas[field].safeParse(value)
    if (!parsed.success) throw validation(issuesOf(parsed.error).map((i) => ({ ...i, path: i.path ? `${field}.${i.path}` : field })))
    await this.applyChanges(actor, { [field]: parsed.data, currentPassword: opts.currentPassword }, opts.ifMatch, opts.clientIp)
    return this.profile(actor)
  }

  async updateInfo(actor: Actor, changes: UpdateAccountRequest, ifMatch: number | undefined, clientIp: string): Promise<AccountInfo> {
    await this.applyChanges(actor, changes, ifMatch, clientIp)
    return this.info(actor)
  }

  /** Only a company the user belongs to can become current; others answer 404. */
  async switchCompany(actor: Actor, companyId: string): Promise<AccountInfo> {
    if (!actor.companies.some((c) => c.id === companyId)) throw notFound(messages.notMemberOfCompany.id)
    const user = await this.userOf(actor)
    await this.deps.users.update(user.id, { currentCompanyId: companyId, version: user.version + 1, updatedAt: this.deps.clock.now().toISOString() })
    return this.info(actor)
  }

  /**
   * Adds a sign-in method after confirming the owner (current password or a fresh Vipps
   * sign-in). An e-mail sign-in stays unverified, and cannot sign in, until the link sent to
   * that address is clicked; a phone sign-in only for the user's own number proven by Vipps.
   * The account's address is told either way.
   */
  async addAuthMethod(actor: Actor, body: z.output<typeof AddAuthMethodRequest>, clientIp: string): Promise<AddAuthMethodResponse> {
    const now = this.deps.clock.now().toISOString()
    const id = newId()
    await this.deps.identity.confirmOwner(actor, body.currentPassword, clientIp)
    if (body.type === 'LOGIN_TOKEN') {
      const token = randomToken()
      const identifier = body.identifier || 'Login token'
      await this.deps.auth.methods.insert({
        id,
        userId: actor.userId,
        type: 'LOGIN_TOKEN',
        identifier,
        lookupHash: sha256(token),
        verifiedAt: now,
        createdAt: now,
      })
      await this.notifyNewMethod(actor, identifier)
      return { data: { id, type: 'LOGIN_TOKEN', identifier, verified: true, createdAt: now, token } }
    }
    this.deps.auth.assertAcceptablePassword(body.secret!, 'secret')
    if (body.type === 'EMAIL_PASSWORD') {
      const identifier = body.identifier.toLowerCase()
      const pending = await this.deps.identity.addPendingEmailSignIn(actor, identifier, await hashPassword(body.secret!))
      await this.notifyNewMethod(actor, identifier)
      return { data: { id: pending.id, type: 'EMAIL_PASSWORD', identifier, verified: false, createdAt: pending.createdAt } }
    }
    const identifier = body.identifier.replace(/\s+/g, '')
    const user = await this.userOf(actor)
    if (!user.mobileVerifiedAt || user.mobileKey !== mobileKey(identifier)) throw ruleViolation(messages.phoneSignInNeedsVerifiedMobile.id, 'identifier')
    if (await this.deps.auth.methods.verified('PHONE_PASSWORD', identifier)) throw conflict(messages.mobileTaken.id, 'identifier')
    const secretHash = await hashPassword(body.secret!)
    await this.deps.auth.methods.insert({ id, userId: actor.userId, type: 'PHONE_PASSWORD', identifier, secretHash, verifiedAt: now, createdAt: now })
    await this.notifyNewMethod(actor, identifier)
    return { data: { id, type: 'PHONE_PASSWORD', identifier, verified: true, createdAt: now } }
  }

  /**
   * Removes a sign-in method after confirming the owner (a stolen session cannot remove the
   * owner's password). MOBILEPAY sign-ins and the last proven method cannot be removed (the user
   * would be locked out); a password reset unlinks Vipps instead. The account's address is told.
   */
  async deleteAuthMethod(actor: Actor, id: string, currentPassword: string | undefined, clientIp: string): Promise<void> {
    const methods = await this.deps.auth.methods.of(actor.userId)
    const method = methods.find((m) => m.id === id)
    if (!method) throw notFound()
    if (method.type === 'MOBILEPAY') throw ruleViolation(messages.mobilePayNotRemovable.id)
    if (method.verifiedAt && methods.filter((m) => m.verifiedAt).length <= 1) throw ruleViolation(messages.lastAuthMethod.id)
    await this.deps.identity.confirmOwner(actor, currentPassword, clientIp)
    await this.deps.auth.methods.delete(id)
    await this.deps.identity.mailMethodRemoved(actor.userId, method.identifier)
  }

  /**
   * Users by e-mail prefix, for adding staff (docs/decisions/0033-privacy-between-associations.md). The super admin finds everyone; company
   * staff find only the staff of their own companies, and see only those companies, so the
   * search reveals nothing about other associations or the platform's this.deps.users. Someone outside is
   * added by typing their exact e-mail in the invitation form instead.
   */
  async searchUsers(actor: Actor, email: string): Promise<UserSearchResult[]> {
    assertCan(actor, 'users:search')
    const all = isSuperAdmin(actor)
    const own = actor.companies.map((c) => c.id)
    const found = await this.deps.users.searchByEmailPrefixAmong(email.toLowerCase(), all ? 'all' : own)
    const results: UserSearchResult[] = []
    for (const u of found)
      results.push({
        id: u.id,
        fullName: u.fullName,
        emailAddress: u.emailAddress,
        mobileNumber: u.mobileNumber,
        companies: (await this.deps.users.memberships(u.id)).filter((c) => all || own.includes(c.id)).map((c) => ({ id: c.id, name: c.name })),
      })
    return results
  }
}

export const createAccountService = (deps: AccountServiceDeps) => new AccountService(deps)
