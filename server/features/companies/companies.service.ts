import type { Db } from '../../db/client'
import { conflict, DomainError, notFound, ruleViolation, validation, versionConflict, type Issue } from '../../errors'
import { todayInCopenhagen, type Clock } from '../../lib/clock'
import { newId } from '../../lib/ids'
import { decodeCursor, pageOf } from '../../http/paging'
import type { PageQuery } from '../../../shared/contract/paging'
import { addressKey, DENMARK } from '../../../shared/domain/address'
import { isValidDayMonth } from '../../../shared/domain/day-month'
import { isWritable, nextStatus, type LifecycleAction } from '../../../shared/domain/company-status'
import type { CompanyRole } from '../../../shared/domain/roles'
import {
  companyFieldSchemas,
  type AddAddressRequest,
  type AddMemberRequest,
  type ChangeMemberRoleRequest,
  type Address,
  type Company,
  type CompanyField,
  type CompanyMember,
  type UpdateCompanyRequest,
} from '../../../shared/contract/companies'
import { CreateCompanyRequest as CreateCompanySchema } from '../../../shared/contract/companies'
import { issueMessage } from '../../../shared/contract/text'
import { messages } from '../../../shared/i18n-messages'
import type { Actor } from '../../access/actor'
import { assertCan, assertCompanyAdminStaff, assertCompanyVisible, isSuperAdmin } from '../../access/policy'
import { recordChange } from '../sync'
import type { SyncedEntity, SyncedRow } from '../sync'
import type { AuthService } from '../auth'
import type { UsersService } from '../users'
import { mobileKey } from '../../../shared/domain/mobile'
import { companiesRepository as repo, type AddressRow, type CompanyRow, type MemberRow } from './companies.repository'
import { transaction } from '../../db/client'

/**
 * What other features tell the companies feature: how many agreements and invoices a company has,
 * and whether an agreement uses an address. Every part is required and given when the service is
 * made (app.ts wires the agreements and invoices features), so a missing one is a type error
 * rather than a count that silently stays 0.
 */
export interface CompanyUsage {
  agreementsCount(db: Db, companyId: string): Promise<number>
  invoicesCount(db: Db, companyId: string): Promise<number>
  addressInUse(db: Db, addressId: string): Promise<boolean>
}

/** Roles that keep a company run; a company must keep at least one of them (docs/decisions/0015-who-does-what-in-a-company.md). */
const MANAGER_ROLES: readonly CompanyRole[] = ['CHAIRMAN', 'ADMINISTRATOR']
const HEATING_FIELDS = ['heatingWaterPeriodStartDate', 'heatingWaterPeriodEndDate'] as const

export const addressView = (row: AddressRow): Address => ({
  id: row.id,
  companyId: row.companyId,
  referenceId: row.referenceId,
  street: row.street,
  number: row.number,
  floor: row.floor,
  side: row.side,
  city: row.city,
  zip: row.zip,
  country: row.country,
  createdAt: row.createdAt,
})

export const memberView = (row: MemberRow): CompanyMember => ({
  id: row.id,
  companyId: row.companyId,
  userId: row.userId,
  name: row.name,
  email: row.email,
  phone: row.phone,
  role: row.role,
  version: row.version,
  createdAt: row.createdAt,
})

/** A company whose data may change: NEW or ACTIVE (suspended and deactivated ones are read-only). */
function writable(row: CompanyRow): CompanyRow {
  if (!isWritable(row.status)) throw new DomainError('INVALID_STATE', messages.companyReadOnly.id)
  return row
}

export interface CompaniesServiceDeps {
  db: Db
  clock: Clock
  auth: AuthService
  users: UsersService
  usage: CompanyUsage
}

/**
 * Companies (housing associations), their staff and their addresses (docs/PRODUCT.md §2 Companies and
 * Company view, docs/PRODUCT.md §3, §5, §7 Companies). Every change of a company, member or address is logged
 * for sync in the same transaction.
 */
export class CompaniesService {
  constructor(private readonly deps: CompaniesServiceDeps) {}

  private async view(row: CompanyRow): Promise<Company> {
    const { db, usage } = this.deps
    return {
      id: row.id,
      name: row.name,
      acronym: row.acronym,
      cvr: row.cvr,
      unionType: row.unionType,
      status: row.status,
      heatingWaterPeriodStartDate: row.heatingWaterPeriodStartDate,
      heatingWaterPeriodEndDate: row.heatingWaterPeriodEndDate,
      membersCount: await repo.memberCount(db, row.id),
      agreementsCount: await usage.agreementsCount(db, row.id),
      invoicesCount: await usage.invoicesCount(db, row.id),
      version: row.version,
      createdAt: row.createdAt,
      updatedAt: row.updatedAt,
    }
  }

  /** The company if the actor may see it; 404 otherwise (also for a deleted one, except to the super admin). */
  private async visible(actor: Actor, id: string): Promise<CompanyRow> {
    const { db } = this.deps
    assertCompanyVisible(actor, id)
    const row = await repo.byId(db, id)
    if (!row || (row.status === 'DELETED' && !isSuperAdmin(actor))) throw notFound(messages.companyNotFound.id)
    return row
  }

  /** Heating-water dates must be real dates in the current year (docs/PRODUCT.md §5), e.g. 29.02 only in a leap year. */
  private assertHeatingDates(changes: Partial<Record<(typeof HEATING_FIELDS)[number], string | null | undefined>>): void {
    const { clock } = this.deps
    const year = Number(todayInCopenhagen(clock).slice(0, 4))
    const issues: Issue[] = HEATING_FIELDS.filter((f) => typeof changes[f] === 'string' && !isValidDayMonth(changes[f]!, year)).map((path) => ({
      path,
      message: messages.heatingDateInvalid.id,
    }))
    if (issues.length) throw validation(issues)
  }

  private async assertCvrFree(cvr: string, companyId: string): Promise<void> {
    const { db } = this.deps
    const other = await repo.byCvr(db, cvr)
    if (other && other.id !== companyId) throw conflict(messages.cvrTaken.id, 'cvr')
  }

  private companyChanged(id: string) {
    const { db, clock } = this.deps
    return recordChange(db, clock, 'company', id, 'upsert', { companyId: id })
  }

  /**
   * The company if the actor may change `fields` of it: any staff member sets the heating-water
   * period; the other fields (and a change that names none) are the admin staff's. 404 outside it.
   * The routes' `act` too (server/access/scope.ts), so a board member hears 403 before the body.
   */
  async changeable(actor: Actor, id: string, fields: readonly string[]): Promise<CompanyRow> {
    const row = await this.visible(actor, id)
    const onlyHeating = fields.length > 0 && fields.every((k) => (HEATING_FIELDS as readonly string[]).includes(k))
    if (!onlyHeating) assertCompanyAdminStaff(actor, id)
    return row
  }

  private async applyChanges(actor: Actor, id: string, changes: UpdateCompanyRequest, ifMatch: number | undefined, checked?: CompanyRow): Promise<Company> {
    const { db, clock, users } = this.deps
    const row = checked ?? (await this.changeable(actor, id, Object.keys(changes)))
    writable(row)
    if (ifMatch !== undefined && ifMatch !== row.version) throw versionConflict(await this.view(row))
    this.assertHeatingDates(changes)
    if (changes.cvr !== undefined) await this.assertCvrFree(changes.cvr, id)
    const set = Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined))
    await repo.update(db, id, { ...set, version: row.version + 1, updatedAt: clock.now().toISOString() })
    // Actors carry their companies' names.
    if (changes.name !== undefined) users.actorsChanged()
    await this.companyChanged(id)
    return this.view((await repo.byId(db, id))!)
  }

  /** Whether `member` is the company's only chairman or administrator (a company keeps one). */
  private async isLastManager(companyId: string, member: MemberRow): Promise<boolean> {
    return MANAGER_ROLES.includes(member.role) && (await repo.members(this.deps.db, companyId)).filter((m) => MANAGER_ROLES.includes(m.role)).length <= 1
  }

  /** The member's user loses the MEMBER role with their last company, and a current company that is gone. */
  private async afterMembershipChange(userId: string, companyId: string): Promise<void> {
    const { db, clock, users } = this.deps
    const user = await users.byId(userId)
    if (!user) return
    const remaining = await repo.membersOfUser(db, userId)
    const changes: Parameters<UsersService['update']>[1] = {}
    if (user.systemRole === 'USER' && remaining.length > 0) changes.systemRole = 'MEMBER'
    if (user.systemRole === 'MEMBER' && remaining.length === 0) changes.systemRole = 'USER'
    if (user.currentCompanyId === null && remaining.length > 0) changes.currentCompanyId = companyId
    if (user.currentCompanyId === companyId && !remaining.some((m) => m.companyId === companyId)) changes.currentCompanyId = remaining[0]?.companyId ?? null
    if (Object.keys(changes).length) await users.update(userId, { ...changes, version: user.version + 1, updatedAt: clock.now().toISOString() })
  }

  /** Throws 409 INVALID_STATE unless the company's data may change (for other features' writes). */
  async assertWritable(companyId: string): Promise<void> {
    const { db } = this.deps
    const row = await repo.byId(db, companyId)
    if (!row) throw notFound(messages.companyNotFound.id)
    writable(row)
  }

  async byId(id: string): Promise<CompanyRow | undefined> {
    return await repo.byId(this.deps.db, id)
  }

  /** Super admin: every company (deleted ones too, with their status); staff: their own. */
  async list(actor: Actor): Promise<Company[]> {
    const { db } = this.deps
    return await Promise.all((await repo.list(db, isSuperAdmin(actor) ? undefined : actor.companies.map((c) => c.id))).map((r) => this.view(r)))
  }

  async get(actor: Actor, id: string): Promise<Company> {
    return await this.view(await this.visible(actor, id))
  }

  async create(actor: Actor, input: ReturnType<typeof CreateCompanySchema.parse>): Promise<{ id: string }> {
    const { db, clock } = this.deps
    assertCan(actor, 'companies:create')
    if (input.id) {
      const existing = await repo.byId(db, input.id)
      if (existing) {
        // A retried offline create: same data answers the same id, anything else is a conflict.
        const same = existing.name === input.name && existing.acronym === input.acronym && existing.cvr === input.cvr && existing.unionType === input.unionType
        if (same) return { id: existing.id }
        throw conflict(messages.versionConflict.id)
      }
    }
    this.assertHeatingDates(input)
    await this.assertCvrFree(input.cvr, '')
    const id = input.id ?? newId()
    const now = clock.now().toISOString()
    await repo.insert(db, {
      id,
      name: input.name,
      acronym: input.acronym,
      cvr: input.cvr,
      unionType: input.unionType,
      status: 'NEW',
      heatingWaterPeriodStartDate: input.heatingWaterPeriodStartDate ?? null,
      heatingWaterPeriodEndDate: input.heatingWaterPeriodEndDate ?? null,
      createdAt: now,
      updatedAt: now,
    })
    await this.companyChanged(id)
    return { id }
  }

  async update(actor: Actor, id: string, changes: UpdateCompanyRequest, ifMatch?: number): Promise<Company> {
    return await this.applyChanges(actor, id, changes, ifMatch)
  }

  /** One field of the Overview tab (allow-list in the contract), validated like the full form. */
  async patchField(actor: Actor, id: string, field: CompanyField, value: unknown, ifMatch?: number): Promise<Company> {
    // Access before the value is judged (docs/API.md "Refusals").
    const row = await this.changeable(actor, id, [field])
    const parsed = companyFieldSchemas[field].safeParse(value)
    if (!parsed.success) throw validation(parsed.error.issues.map((i) => ({ path: field, ...issueMessage(i) })))
    return await this.applyChanges(actor, id, { [field]: parsed.data } as UpdateCompanyRequest, ifMatch, row)
  }

  /** activate / suspend / deactivate / delete (shared/domain/company-status.ts has the table). */
  async transition(actor: Actor, id: string, action: LifecycleAction): Promise<Company> {
    const { db, clock, users } = this.deps
    const row = await this.visible(actor, id)
    assertCan(actor, 'companies:lifecycle')
    const to = nextStatus(row.status, action)
    if (!to) throw new DomainError('INVALID_STATE', messages.companyTransitionNotAllowed.id, { values: { status: row.status } })
    // Its own transaction too: the GET form of this call is not wrapped in one by the HTTP layer
    // (nested in a POST's transaction this becomes a savepoint).
    await transaction(db, async () => {
      await repo.update(db, id, { status: to, version: row.version + 1, updatedAt: clock.now().toISOString() })
      // A deleted company leaves its staff's actors; any status counts from the next request.
      users.actorsChanged()
      await this.companyChanged(id)
    })
    return await this.view((await repo.byId(db, id))!)
  }

  // ---- members

  /** A page of the company's staff by name (docs/API.md "Lists"): one statement for the page. */
  async members(actor: Actor, id: string, query: PageQuery): Promise<{ items: CompanyMember[]; next: string | null }> {
    const { db } = this.deps
    const after = decodeCursor(query.cursor, ['string', 'string'])
    await this.visible(actor, id)
    const page = pageOf(await repo.membersPage(db, id, after, query.limit + 1), query.limit, (m) => [m.name, m.id])
    return { items: page.rows.map(memberView), next: page.next }
  }

  /**
   * Adds an existing user (by id, or by the e-mail of `user`) or creates a new user, who gets an
   * invitation e-mail with a set-password link in their language. An existing user gets an
   * e-mail that they were added, and their own name and mobile stay as they are.
   *
   * Privacy between associations (docs/decisions/0033-privacy-between-associations.md): by id only someone the caller
   * already knows (staff of one of the caller's companies, or a resident here); any other id
   * answers like an unknown one. Someone outside is added by their exact e-mail, and the answer
   * is then made of what the caller typed, exactly as for a new user, so it tells nothing about
   * whether the address had an account or what that account holds.
   */
  async addMember(actor: Actor, id: string, input: AddMemberRequest): Promise<CompanyMember> {
    const { db, clock, auth, users } = this.deps
    const company = writable(await this.visible(actor, id))
    assertCompanyAdminStaff(actor, id)
    if (input.id && (await repo.memberById(db, input.id))) {
      const same = await repo.member(db, id, input.id)
      if (same && same.role === input.role) return memberView(same)
      throw conflict(messages.memberExists.id)
    }
    const now = clock.now().toISOString()
    const knows = async (userId: string) =>
      isSuperAdmin(actor) ||
      (await users.isStaffOfAny(
        userId,
        actor.companies.map((c) => c.id),
      )) ||
      (await users.hasAgreementWith(userId, id))
    let userId: string
    let invite = false
    let outsider = false
    if (input.userId) {
      const user = await users.byId(input.userId)
      if (!user || !(await knows(user.id))) throw validation([{ path: 'userId', message: messages.notFound.id }])
      userId = user.id
    } else {
      // Also someone who signs in with this address as a proven second e-mail: the invitation goes to them.
      const existing = await users.byAnyEmail(input.user!.email)
      if (existing) {
        userId = existing.id
        outsider = !(await knows(existing.id))
      } else {
        userId = newId()
        invite = true
        // Mobile numbers are unique; one typed by staff stays unverified until Vipps proves it.
        const phoneKey = input.user!.phone ? mobileKey(input.user!.phone) : null
        if (phoneKey && (await users.byMobileKey(phoneKey))) throw conflict(messages.mobileTaken.id, 'user.phone')
        await users.insert({
          id: userId,
          fullName: input.user!.name,
          emailAddress: input.user!.email,
          mobileNumber: input.user!.phone ?? null,
          mobileKey: phoneKey,
          // The invitee's language is unknown: the inviter's is the best guess; they can change it.
          language: input.user!.language ?? actor.language,
          systemRole: 'MEMBER',
          currentCompanyId: id,
          createdAt: now,
          updatedAt: now,
        })
      }
    }
    if (await repo.memberOfUser(db, id, userId)) throw conflict(messages.memberExists.id, input.userId ? 'userId' : 'user.email')
    const memberId = input.id ?? newId()
    await repo.insertMember(db, { id: memberId, companyId: id, userId, role: input.role, createdAt: now })
    users.actorChanged(userId)
    await this.afterMembershipChange(userId, id)
    const context = { companyName: company.name, inviterName: actor.fullName }
    if (invite) await auth.invite(userId, context)
    else await auth.notifyAddedToCompany(userId, context)
    await recordChange(db, clock, 'member', memberId, 'upsert', { companyId: id })
    await this.companyChanged(id)
    const added = memberView((await repo.member(db, id, memberId))!)
    return outsider ? { ...added, name: input.user!.name, email: input.user!.email, phone: input.user!.phone ?? null } : added
  }

  /**
   * Changes a member's role (docs/decisions/0038-companies-members-and-addresses.md). The last chairman or administrator cannot be given
   * another role (422, as for removing them); the new role counts from the next request.
   * The same role again changes nothing and answers the member as it is.
   */
  async changeMemberRole(actor: Actor, id: string, memberId: string, input: ChangeMemberRoleRequest, ifMatch?: number): Promise<CompanyMember> {
    const { db, clock, users } = this.deps
    writable(await this.visible(actor, id))
    assertCompanyAdminStaff(actor, id)
    const member = await repo.member(db, id, memberId)
    if (!member) throw notFound()
    if (member.role === input.role) return memberView(member)
    if (ifMatch !== undefined && ifMatch !== member.version) throw versionConflict(memberView(member))
    if (!MANAGER_ROLES.includes(input.role) && (await this.isLastManager(id, member))) throw ruleViolation(messages.lastManager.id, 'role')
    await repo.updateMember(db, memberId, { role: input.role, version: member.version + 1 })
    users.actorChanged(member.userId)
    await recordChange(db, clock, 'member', memberId, 'upsert', { companyId: id })
    return memberView((await repo.member(db, id, memberId))!)
  }

  /** Removes a member; their access ends with this transaction (the next sync pull resets). */
  async removeMember(actor: Actor, id: string, memberId: string): Promise<void> {
    const { db, clock, users } = this.deps
    writable(await this.visible(actor, id))
    assertCompanyAdminStaff(actor, id)
    const member = await repo.member(db, id, memberId)
    if (!member) throw notFound()
    if (await this.isLastManager(id, member)) throw ruleViolation(messages.lastManager.id)
    await repo.deleteMember(db, memberId)
    users.actorChanged(member.userId)
    await this.afterMembershipChange(member.userId, id)
    await recordChange(db, clock, 'member', memberId, 'delete', { companyId: id })
    await this.companyChanged(id)
  }

  // ---- addresses

  async addresses(actor: Actor, id: string): Promise<Address[]> {
    const { db } = this.deps
    await this.visible(actor, id)
    return (await repo.addresses(db, id)).map(addressView)
  }

  async addAddress(actor: Actor, id: string, input: AddAddressRequest): Promise<Address> {
    const { db, clock } = this.deps
    writable(await this.visible(actor, id))
    assertCompanyAdminStaff(actor, id)
    const fields = {
      referenceId: input.referenceId ?? null,
      street: input.street,
      number: input.number,
      floor: input.floor ?? null,
      side: input.side ?? null,
      city: input.city,
      zip: input.zip,
    }
    if (input.id) {
      const existing = await repo.addressById(db, input.id)
      if (existing) {
        const same = existing.companyId === id && Object.entries(fields).every(([k, v]) => existing[k as keyof typeof fields] === v)
        if (same) return addressView(existing)
        throw conflict(messages.versionConflict.id)
      }
    }
    // One address once per company (decision 0038): compared in one form, so "2." and "2", "Vestergade"
    // and "vestergade" are the same; the unique index on the key guards it too.
    const key = addressKey(fields)
    if ((await repo.addresses(db, id)).some((a) => addressKey(a) === key)) throw conflict(messages.addressExists.id, 'street')
    const addressId = input.id ?? newId()
    await repo.insertAddress(db, { id: addressId, companyId: id, ...fields, country: DENMARK, addressKey: key, createdAt: clock.now().toISOString() })
    await recordChange(db, clock, 'address', addressId, 'upsert', { companyId: id })
    return addressView((await repo.addressById(db, addressId))!)
  }

  /** Refused with 409 while an agreement uses the address (the agreements feature answers that). */
  async deleteAddress(actor: Actor, id: string, addressId: string): Promise<void> {
    const { db, clock, usage } = this.deps
    writable(await this.visible(actor, id))
    assertCompanyAdminStaff(actor, id)
    if (!(await repo.address(db, id, addressId))) throw notFound()
    if (await usage.addressInUse(db, addressId)) throw conflict(messages.addressInUse.id)
    await repo.deleteAddress(db, addressId)
    await recordChange(db, clock, 'address', addressId, 'delete', { companyId: id })
  }
}

export const createCompaniesService = (deps: CompaniesServiceDeps) => new CompaniesService(deps)

// ---- sync ----------------------------------------------------------------------------------

/** Company ids whose rows the actor keeps offline: all for the super admin, else their own. */
const scope = (actor: Actor): string[] | undefined => (isSuperAdmin(actor) ? undefined : actor.companies.map((c) => c.id))
const sees = (actor: Actor, companyId: string) => isSuperAdmin(actor) || actor.companies.some((c) => c.id === companyId)

/** Synced companies: what the Companies list and Overview tab read offline (counts included). */
export const companySync = (companies: CompaniesService): SyncedEntity => {
  const synced = async (actor: Actor, row: CompanyRow): Promise<SyncedRow> => ({
    id: row.id,
    version: row.version,
    data: (await companies.get(actor, row.id)) as unknown as Record<string, unknown>,
  })
  return {
    name: 'company',
    snapshot: async (db, actor, afterId, limit) => await Promise.all((await repo.page(db, scope(actor), afterId, limit)).map((r) => synced(actor, r))),
    load: async (db, actor, ids) =>
      await Promise.all(
        (await repo.byIds(db, ids)).filter((r) => sees(actor, r.id) && (r.status !== 'DELETED' || isSuperAdmin(actor))).map((r) => synced(actor, r)),
      ),
  }
}

export const memberSync: SyncedEntity = {
  name: 'member',
  snapshot: async (db, actor, afterId, limit) =>
    (await repo.memberPage(db, scope(actor), afterId, limit)).map((r) => ({
      id: r.id,
      version: r.version,
      data: memberView(r) as unknown as Record<string, unknown>,
    })),
  load: async (db, actor, ids) =>
    (await repo.membersByIds(db, ids))
      .filter((r) => sees(actor, r.companyId))
      .map((r) => ({ id: r.id, version: r.version, data: memberView(r) as unknown as Record<string, unknown> })),
}

export const addressSync: SyncedEntity = {
  name: 'address',
  snapshot: async (db, actor, afterId, limit) =>
    (await repo.addressPage(db, scope(actor), afterId, limit)).map((r) => ({
      id: r.id,
      version: 1,
      data: addressView(r) as unknown as Record<string, unknown>,
    })),
  load: async (db, actor, ids) =>
    (await repo.addressesByIds(db, ids))
      .filter((r) => sees(actor, r.companyId))
      .map((r) => ({ id: r.id, version: 1, data: addressView(r) as unknown as Record<string, unknown> })),
}
