import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { and, eq, inArray, or, sql } from 'drizzle-orm'
import type { Db } from '../../db/client'
import { agreements } from '../../db/schema/agreements'
import { companies, companyMembers } from '../../db/schema/companies'
import { personalDataErasures } from '../../db/schema/erasures'
import { invoices } from '../../db/schema/invoices'
import { loans } from '../../db/schema/lending'
import { users } from '../../db/schema/users'
import { conflict, forbidden, notFound, validation } from '../../errors'
import type { Locale } from '../../i18n/i18n'
import { todayInCopenhagen, type Clock } from '../../lib/clock'
import { messages as m } from '../../../shared/i18n-messages'
import type { EraseMemberRequest, Erasure, PersonalDataExport } from '../../../shared/contract/personal-data'
import type { Actor } from '../../access/actor'
import { isSuperAdmin, roleIn } from '../../access/policy'
import { eraseAccount } from './personal-data.erase'
import { personalDataOf } from './personal-data.export'
import { personalDataHtml } from './personal-data.html'

/** Agreements that still run or wait for the member (docs/DOMAIN.md): terminate them first. */
const activeAgreement = ['CREATED', 'PENDING', 'ACCEPTED'] as const
/** Loans in progress: the item is promised, out, or not yet back. */
const openLoan = ['ACCEPTED', 'CONFIRMED', 'HANDED_OVER'] as const

export interface PersonalDataDeps {
  db: Db
  clock: Clock
  /** Forgets the cached actor of a user whose sessions and name the erase changed. */
  actorChanged(userId: string): void
  /**
   * The folder the mail worker writes each sent mail into as `<mail id>.eml` when no SMTP server is
   * set (server/main.ts): copies of mail the product holds, deleted with the outbox rows.
   */
  mailFilesDir?: string
}

/**
 * Personal data (decision 0069): a user downloads what the product holds about them;
 * the chairman or administrator of an association (or the super admin) erases a member who asked.
 */
export class PersonalDataService {
  constructor(private readonly deps: PersonalDataDeps) {}

  /** The companies a user belongs to: a role there, or an agreement in any state. */
  private async companiesOf(userId: string): Promise<Set<string>> {
    const roles = await this.deps.db.select({ id: companyMembers.companyId }).from(companyMembers).where(eq(companyMembers.userId, userId)).all()
    const residences = await this.deps.db.selectDistinct({ id: agreements.companyId }).from(agreements).where(eq(agreements.memberUserId, userId)).all()
    return new Set([...roles, ...residences].map((r) => r.id))
  }

  /** 404 unless the actor may handle erase requests for the company; 403 for its other members. */
  private async assertMayErase(actor: Actor, companyId: string): Promise<void> {
    if (isSuperAdmin(actor)) {
      if (!(await this.deps.db.select({ id: companies.id }).from(companies).where(eq(companies.id, companyId)).get())) throw notFound(m.companyNotFound.id)
      return
    }
    const role = roleIn(actor, companyId)
    if (role === 'CHAIRMAN' || role === 'ADMINISTRATOR') return
    // Its other staff and its residents know the association exists: 403. Anyone else: 404.
    if (role !== undefined || (await this.companiesOf(actor.userId)).has(companyId)) throw forbidden()
    throw notFound()
  }

  /** The member to erase, after the caller's access: 403/404 as `assertMayErase`, 404 when they are not a member of the company. */
  private async reachableTarget(actor: Actor, companyId: string, userId: string) {
    await this.assertMayErase(actor, companyId)
    const target = await this.deps.db.select({ id: users.id, systemRole: users.systemRole }).from(users).where(eq(users.id, userId)).get()
    const theirs = target ? await this.companiesOf(userId) : new Set<string>()
    if (!target || !theirs.has(companyId)) throw notFound(m.erasureMemberNotFound.id)
    return { target, theirs }
  }

  /** Why the member cannot be erased yet (409 with the step to take first), or nothing. */
  private async assertNothingOpen(userId: string): Promise<void> {
    const agreement = await this.deps.db
      .select({ id: agreements.id })
      .from(agreements)
      .where(and(eq(agreements.memberUserId, userId), inArray(agreements.status, [...activeAgreement])))
      .get()
    if (agreement) throw conflict(m.erasureActiveAgreement.id)
    const credited = sql<number>`coalesce((SELECT sum(cn.total_ore) FROM invoices cn WHERE cn.credited_invoice_id = ${invoices.id} AND cn.kind = 'CREDIT_NOTE'), 0)`
    const unpaid = await this.deps.db
      .select({ id: invoices.id })
      .from(invoices)
      .where(
        and(
          eq(invoices.memberUserId, userId),
          eq(invoices.kind, 'INVOICE'),
          sql`${invoices.settlement} IS NULL`,
          inArray(invoices.status, ['CREATED', 'RESERVED', 'FAILED']),
          sql`${invoices.totalOre} > ${credited}`,
        ),
      )
      .get()
    if (unpaid) throw conflict(m.erasureUnpaidInvoices.id)
    const loan = await this.deps.db
      .select({ id: loans.id })
      .from(loans)
      .where(and(or(eq(loans.borrowerUserId, userId), eq(loans.lenderUserId, userId)), inArray(loans.status, [...openLoan])))
      .get()
    if (loan) throw conflict(m.erasureOpenLoans.id)
  }

  async export(actor: Actor): Promise<PersonalDataExport> {
    return await personalDataOf(this.deps.db, this.deps.clock, actor.userId)
  }

  async exportHtml(actor: Actor): Promise<{ page: string; exportedAt: string }> {
    const locale: Locale = actor.language === 'DA' ? 'da' : 'en'
    const data = await personalDataOf(this.deps.db, this.deps.clock, actor.userId)
    return { page: personalDataHtml(data, locale), exportedAt: data.exportedAt }
  }

  /**
   * The access checks of an erase, which the route runs before it reads the body: another
   * association's company, or someone who is not a member of this one, is 404 whatever is sent.
   */
  async assertMayReach(actor: Actor, companyId: string, userId: string): Promise<void> {
    await this.reachableTarget(actor, companyId, userId)
  }

  async erase(actor: Actor, companyId: string, userId: string, request: EraseMemberRequest): Promise<Erasure> {
    const { target, theirs } = await this.reachableTarget(actor, companyId, userId)
    if (request.requestedOn > todayInCopenhagen(this.deps.clock)) throw validation([{ path: 'requestedOn', message: m.erasureDateInvalid.id }])
    if (userId === actor.userId) throw conflict(m.erasureSelf.id)
    if (target.systemRole === 'SUPERADMIN') throw conflict(m.erasureSuperAdmin.id)
    const done = await this.deps.db.select({ id: personalDataErasures.id }).from(personalDataErasures).where(eq(personalDataErasures.userId, userId)).get()
    if (done) throw conflict(m.erasureAlreadyErased.id)
    if (!isSuperAdmin(actor) && [...theirs].some((id) => id !== companyId)) throw conflict(m.erasureOtherAssociation.id)
    await this.assertNothingOpen(userId)
    const erasure = await eraseAccount({ db: this.deps.db, clock: this.deps.clock }, { ...request, userId, companyId, erasedByUserId: actor.userId })
    this.deps.actorChanged(userId)
    // After the erase's writes. Should the request's transaction still roll back and run again, the retry finds the same rows and deletes them again.
    const { mailIds, ...logged } = erasure
    if (this.deps.mailFilesDir) for (const id of mailIds) rmSync(join(this.deps.mailFilesDir, `${id}.eml`), { force: true })
    return logged
  }
}

export const createPersonalDataService = (deps: PersonalDataDeps) => new PersonalDataService(deps)
