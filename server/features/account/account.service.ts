import type { Db } from '../../db/client'
import { conflict, notFound, ruleViolation, validation, versionConflict } from '../../errors'
import type { Clock } from '../../lib/clock'
import { newId, randomToken, sha256 } from '../../lib/ids'
import type { z } from 'zod'
import type {
  AccountInfo,
  AddAuthMethodResponse,
  Profile,
  ProfileField,
  UpdateAccountRequest,
  UserSearchResult,
} from '../../../shared/contract/account'
import { AddAuthMethodRequest, profileFieldSchemas } from '../../../shared/contract/account'
import { messages } from '../../../shared/i18n-messages'
import type { Actor } from '../access/actor'
import { assertCan, isSuperAdmin } from '../access/policy'
import { authRepository, type AuthMethodRow } from '../auth/auth.repository'
import type { AuthService } from '../auth/auth.service'
import type { NotificationsService } from '../notifications/notifications.service'
import { hashPassword } from '../auth/passwords'
import { usersRepository, type UserRow } from '../users/users.repository'
import { issuesOf } from '../../http/error-mapper'

export type AccountService = ReturnType<typeof createAccountService>

const authMethodView = (m: AuthMethodRow) => ({ id: m.id, type: m.type, identifier: m.identifier, createdAt: m.createdAt })

/** The signed-in user's own account: info, profile fields, sign-in methods, current company. */
export function createAccountService(deps: { db: Db; clock: Clock; auth: AuthService; notifications: NotificationsService }) {
  const { db, clock } = deps

  function userOf(actor: Actor): UserRow {
    const user = usersRepository.byId(db, actor.userId)
    if (!user) throw notFound()
    return user
  }

  function info(actor: Actor): AccountInfo {
    const user = userOf(actor)
    const companies = usersRepository.memberships(db, user.id)
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
      notifications: deps.notifications.list(actor).slice(0, 20),
      version: user.version,
    }
  }

  /** A security notice, so a user notices a sign-in method they did not add themselves. */
  function notifyNewMethod(actor: Actor, identifier: string): void {
    deps.notifications.notify(actor.userId, {
      type: 'warning',
      title: /*i18n*/ { id: 'New sign-in method added' },
      message: /*i18n*/ { id: 'The sign-in method <strong>{identifier}</strong> was added to your account. If this was not you, remove it and change your password.' },
      values: { identifier },
      actionUrl: '/user',
      actionText: /*i18n*/ { id: 'Open profile' },
    })
  }

  function profile(actor: Actor): Profile {
    const { notifications: _unused, ...rest } = info(actor)
    return { ...rest, authMethods: authRepository.methodsOf(db, actor.userId).map(authMethodView) }
  }

  /** Applies profile changes with optimistic concurrency (If-Match on the user's version). */
  function applyChanges(actor: Actor, changes: UpdateAccountRequest, ifMatch: number | undefined): void {
    const user = userOf(actor)
    if (ifMatch !== undefined && ifMatch !== user.version) throw versionConflict(profile(actor))
    const { emailAddress } = changes
    if (emailAddress !== undefined && emailAddress !== user.emailAddress) {
      if (usersRepository.emailTakenByOther(db, emailAddress, user.id)) throw conflict(messages.emailTaken.id, 'emailAddress')
      // The e-mail sign-in follows the address, so the user signs in with the new one.
      const method = authRepository.methodByIdentifier(db, 'EMAIL_PASSWORD', user.emailAddress)
      if (method) {
        if (authRepository.methodByIdentifier(db, 'EMAIL_PASSWORD', emailAddress)) throw conflict(messages.emailTaken.id, 'emailAddress')
        authRepository.updateMethod(db, method.id, { identifier: emailAddress })
      }
    }
    usersRepository.update(db, user.id, { ...changes, version: user.version + 1, updatedAt: clock.now().toISOString() })
  }

  return {
    info,
    profile,

    /** PATCH /account/profile/{field}: validates the one field with the shared schema. */
    patchField(actor: Actor, field: ProfileField, value: unknown, ifMatch?: number): Profile {
      const parsed = profileFieldSchemas[field].safeParse(value)
      if (!parsed.success) throw validation(issuesOf(parsed.error).map((i) => ({ ...i, path: i.path ? `${field}.${i.path}` : field })))
      applyChanges(actor, { [field]: parsed.data }, ifMatch)
      return profile(actor)
    },

    updateInfo(actor: Actor, changes: UpdateAccountRequest, ifMatch?: number): AccountInfo {
      applyChanges(actor, changes, ifMatch)
      return info(actor)
    },

    /** Only a company the user belongs to can become current; others answer 404. */
    switchCompany(actor: Actor, companyId: string): AccountInfo {
      if (!actor.companies.some((c) => c.id === companyId)) throw notFound(messages.notMemberOfCompany.id)
      const user = userOf(actor)
      usersRepository.update(db, user.id, { currentCompanyId: companyId, version: user.version + 1, updatedAt: clock.now().toISOString() })
      return info(actor)
    },

    async addAuthMethod(actor: Actor, body: z.output<typeof AddAuthMethodRequest>): Promise<AddAuthMethodResponse> {
      const now = clock.now().toISOString()
      const id = newId()
      if (body.type === 'LOGIN_TOKEN') {
        const token = randomToken()
        const identifier = body.identifier || 'Login token'
        authRepository.insertMethod(db, { id, userId: actor.userId, type: 'LOGIN_TOKEN', identifier, lookupHash: sha256(token), createdAt: now })
        notifyNewMethod(actor, identifier)
        return { data: { id, type: 'LOGIN_TOKEN', identifier, createdAt: now, token } }
      }
      deps.auth.assertAcceptablePassword(body.secret!, 'secret')
      const identifier = body.type === 'EMAIL_PASSWORD' ? body.identifier.toLowerCase() : body.identifier.replace(/\s+/g, '')
      if (authRepository.methodByIdentifier(db, body.type, identifier)) throw conflict(messages.emailTaken.id, 'identifier')
      const secretHash = await hashPassword(body.secret!)
      authRepository.insertMethod(db, { id, userId: actor.userId, type: body.type, identifier, secretHash, createdAt: now })
      notifyNewMethod(actor, identifier)
      return { data: { id, type: body.type, identifier, createdAt: now } }
    },

    /** MOBILEPAY sign-ins and the last method cannot be removed (the user would be locked out). */
    deleteAuthMethod(actor: Actor, id: string): void {
      const methods = authRepository.methodsOf(db, actor.userId)
      const method = methods.find((m) => m.id === id)
      if (!method) throw notFound()
      if (method.type === 'MOBILEPAY') throw ruleViolation(messages.mobilePayNotRemovable.id)
      if (methods.length <= 1) throw ruleViolation(messages.lastAuthMethod.id)
      authRepository.deleteMethod(db, id)
    },

    /**
     * Users by e-mail prefix, for adding staff (issue #15). The super admin finds everyone; company
     * staff find only the staff of their own companies, and see only those companies, so the
     * search reveals nothing about other associations or the platform's users. Someone outside is
     * added by typing their exact e-mail in the invitation form instead.
     */
    searchUsers(actor: Actor, email: string): UserSearchResult[] {
      assertCan(actor, 'users:search')
      const all = isSuperAdmin(actor)
      const own = actor.companies.map((c) => c.id)
      return usersRepository.searchByEmailPrefixAmong(db, email.toLowerCase(), all ? 'all' : own).map((u) => ({
        id: u.id,
        fullName: u.fullName,
        emailAddress: u.emailAddress,
        mobileNumber: u.mobileNumber,
        companies: usersRepository
          .memberships(db, u.id)
          .filter((c) => all || own.includes(c.id))
          .map((c) => ({ id: c.id, name: c.name })),
      }))
    },
  }
}
