import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { and, eq, inArray, or, sql } from 'drizzle-orm'
import type { Db } from '../../db/client'
import { agreements } from '../../db/schema/agreements'
import { companies, companyMembers } from '../../db/schema/companies'
import { personalDataErasureRequests as requests } from '../../db/schema/erasures'
import { invoices } from '../../db/schema/invoices'
import { loans } from '../../db/schema/lending'
import { users } from '../../db/schema/users'
import { conflict, forbidden, invalidState, notFound, ruleViolation, validation } from '../../errors'
import type { Locale } from '../../i18n/i18n'
import { todayInCopenhagen, type Clock } from '../../lib/clock'
import { messages as m } from '../../../shared/i18n-messages'
import type { CompanyRole } from '../../../shared/domain/roles'
import type { ErasureRequest, FileErasureRequest, MyErasureRequests, PersonalDataExport, RecordErasureRequest } from '../../../shared/contract/personal-data'
import { newId } from '../../lib/ids'
import type { Actor } from '../../access/actor'
import { isSuperAdmin, roleIn } from '../../access/policy'
import { eraseAccount } from './personal-data.erase'
import { personalDataOf } from './personal-data.export'
import { personalDataHtml } from './personal-data.html'
import { assertErasable, assertNonePending, requestOf, requestsWhere } from './personal-data.requests'

/** Agreements that still run or wait for the member (docs/DOMAIN.md): terminate them first. */
const activeAgreement = ['CREATED', 'PENDING', 'ACCEPTED'] as const
/** Loans in progress: the item is promised, out, or not yet back. */
const openLoan = ['ACCEPTED', 'CONFIRMED', 'HANDED_OVER'] as const
/** Who sees an association's erasure requests and records one a member made outside the app: its staff (decision 0080). */
const STAFF: readonly CompanyRole[] = ['CHAIRMAN', 'ADMINISTRATOR', 'ACCOUNTANT', 'BOARDMEMBER']
/** Who approves or rejects one: its chairman or administrator (as decision 0069 gave the erase), or the super admin. */
const HANDLERS: readonly CompanyRole[] = ['CHAIRMAN', 'ADMINISTRATOR']
/** Which of the company's routes a caller reaches: staff's (the list, recording) or the handlers' (approve, reject). */
export type RequestAccess = 'staff' | 'handlers'

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
 * Personal data (decision 0069): a user downloads what the product holds about them. A member is
 * erased only on their own request (decision 0080): filed in the app or recorded by staff, and
 * approved by another of the association's chairman or administrator, or the super admin.
 */
export class PersonalDataService {
  constructor(private readonly deps: PersonalDataDeps) {}

  /** The companies a user belongs to: a role there, or an agreement in any state. */
  private async companiesOf(userId: string): Promise<Set<string>> {
    const roles = await this.deps.db.select({ id: companyMembers.companyId }).from(companyMembers).where(eq(companyMembers.userId, userId)).all()
    const residences = await this.deps.db.selectDistinct({ id: agreements.companyId }).from(agreements).where(eq(agreements.memberUserId, userId)).all()
    return new Set([...roles, ...residences].map((r) => r.id))
  }

  /** 404 unless the actor is staff of the company (`access`: its handlers only) or the super admin; 403 for its other members. */
  private async assertMayHandle(actor: Actor, companyId: string, access: RequestAccess): Promise<void> {
    if (isSuperAdmin(actor)) {
      if (!(await this.deps.db.select({ id: companies.id }).from(companies).where(eq(companies.id, companyId)).get())) throw notFound(m.companyNotFound.id)
      return
    }
    const role = roleIn(actor, companyId)
    if (role && (access === 'staff' ? STAFF : HANDLERS).includes(role)) return
    // Its other staff and its residents know the association exists: 403. Anyone else: 404.
    if (role !== undefined || (await this.companiesOf(actor.userId)).has(companyId)) throw forbidden()
    throw notFound()
  }

  /** The company's request, after the caller's access: 403/404 as `assertMayHandle`, 404 when it is not the company's. */
  private async reachableRequest(actor: Actor, companyId: string, requestId: string, access: RequestAccess) {
    await this.assertMayHandle(actor, companyId, access)
    const request = await requestOf(this.deps.db, companyId, requestId)
    if (!request) throw notFound(m.erasureRequestNotFound.id)
    return request
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

  /** Throws unless the actor may record a request for the association: its staff and the super admin; 403 for its residents, else 404 (the route's `act`). */
  async assertMayRecord(actor: Actor, companyId: string): Promise<void> {
    await this.assertMayHandle(actor, companyId, 'staff')
  }

  /**
   * The company's waiting or decided request if the actor may reject it (the route's `act`): its
   * chairman, administrator and the super admin; the staff member who recorded it may cancel it (a
   * mistake). 403 for its other members, 404 for anyone else or another association's request.
   */
  async rejectable(actor: Actor, companyId: string, requestId: string) {
    const request = await this.reachableRequest(actor, companyId, requestId, 'staff')
    if (request.channel === 'APP' || request.recordedByUserId !== actor.userId) await this.assertMayHandle(actor, companyId, 'handlers')
    return request
  }

  private async one(requestId: string): Promise<ErasureRequest> {
    return (await requestsWhere(this.deps.db, eq(requests.id, requestId)))[0]!
  }

  private async insertRequest(row: Omit<typeof requests.$inferInsert, 'id' | 'recordedAt' | 'status'>): Promise<ErasureRequest> {
    const id = newId()
    await this.deps.db
      .insert(requests)
      .values({ ...row, id, recordedAt: this.deps.clock.now().toISOString(), status: 'PENDING' })
      .run()
    return await this.one(id)
  }

  /** The signed-in member's requests, in every association, and the associations they may ask. */
  async myRequests(actor: Actor): Promise<MyErasureRequests> {
    const ids = [...(await this.companiesOf(actor.userId))]
    const named =
      ids.length ? await this.deps.db.select({ id: companies.id, name: companies.name }).from(companies).where(inArray(companies.id, ids)).all() : []
    return {
      companies: named.sort((a, b) => a.name.localeCompare(b.name, 'da')),
      requests: await requestsWhere(this.deps.db, eq(requests.userId, actor.userId)),
    }
  }

  /** The member asks one of their associations to erase their data: it waits for staff to approve. */
  async file(actor: Actor, input: FileErasureRequest): Promise<ErasureRequest> {
    if (!(await this.companiesOf(actor.userId)).has(input.companyId)) throw notFound(m.companyNotFound.id)
    await assertErasable(this.deps.db, actor.userId)
    await assertNonePending(this.deps.db, input.companyId, actor.userId)
    const today = todayInCopenhagen(this.deps.clock)
    return await this.insertRequest({ companyId: input.companyId, userId: actor.userId, channel: 'APP', requestedOn: today, recordedByUserId: actor.userId })
  }

  /** The member withdraws their own request while it waits. */
  async withdraw(actor: Actor, requestId: string): Promise<ErasureRequest> {
    const request = await this.deps.db.select().from(requests).where(eq(requests.id, requestId)).get()
    if (!request || request.userId !== actor.userId) throw notFound(m.erasureRequestNotFound.id)
    await this.decide(requestId, { status: 'WITHDRAWN', decidedByUserId: actor.userId })
    return await this.one(requestId)
  }

  /** The association's requests with their audit, newest first (its staff and the super admin). */
  async companyRequests(actor: Actor, companyId: string): Promise<ErasureRequest[]> {
    await this.assertMayHandle(actor, companyId, 'staff')
    return await requestsWhere(this.deps.db, eq(requests.companyId, companyId))
  }

  /** Staff record a request the member made by letter, e-mail, phone or in person. */
  async record(actor: Actor, companyId: string, input: RecordErasureRequest): Promise<ErasureRequest> {
    await this.assertMayRecord(actor, companyId)
    if (input.requestedOn > todayInCopenhagen(this.deps.clock)) throw validation([{ path: 'requestedOn', message: m.erasureDateInvalid.id }])
    const target = await this.deps.db.select({ id: users.id }).from(users).where(eq(users.id, input.userId)).get()
    if (!target || !(await this.companiesOf(input.userId)).has(companyId)) throw notFound(m.erasureMemberNotFound.id)
    await assertErasable(this.deps.db, input.userId)
    await assertNonePending(this.deps.db, companyId, input.userId)
    return await this.insertRequest({ companyId, userId: input.userId, channel: input.channel, requestedOn: input.requestedOn, recordedByUserId: actor.userId })
  }

  /**
   * Moves a waiting request to its decision, once: the update only matches while it waits, so of
   * two at once (a double click, a retry under another key) the second finds it decided (409).
   */
  private async decide(requestId: string, decision: { status: 'APPROVED' | 'REJECTED' | 'WITHDRAWN'; decidedByUserId: string; decisionNote?: string }) {
    const claimed = await this.deps.db
      .update(requests)
      .set({ ...decision, decidedAt: this.deps.clock.now().toISOString() })
      .where(and(eq(requests.id, requestId), eq(requests.status, 'PENDING')))
      .returning({ id: requests.id })
      .all()
    if (!claimed.length) throw invalidState(m.erasureRequestDecided.id)
  }

  /** Staff reject or cancel a waiting request, saying why: its chairman or administrator, the super admin, or whoever recorded it. */
  async reject(actor: Actor, companyId: string, requestId: string, note: string): Promise<ErasureRequest> {
    await this.rejectable(actor, companyId, requestId)
    await this.decide(requestId, { status: 'REJECTED', decidedByUserId: actor.userId, decisionNote: note })
    return await this.one(requestId)
  }

  /**
   * A second pair of eyes approves a waiting request, and the erasure runs (docs/PRIVACY.md): never
   * the person themself nor whoever recorded it. The refusals hold again, as things may have
   * changed since it was filed; the request is claimed before the erase, in the same transaction.
   */
  async approve(actor: Actor, companyId: string, requestId: string): Promise<ErasureRequest> {
    const { db, clock } = this.deps
    const request = await this.reachableRequest(actor, companyId, requestId, 'handlers')
    if (request.status !== 'PENDING') throw invalidState(m.erasureRequestDecided.id)
    if (request.userId === actor.userId) throw ruleViolation(m.erasureSelf.id)
    if (request.recordedByUserId === actor.userId) throw ruleViolation(m.erasureOwnRecording.id)
    await assertErasable(db, request.userId)
    if (!isSuperAdmin(actor) && [...(await this.companiesOf(request.userId))].some((id) => id !== companyId)) throw conflict(m.erasureOtherAssociation.id)
    await this.assertNothingOpen(request.userId)
    await this.decide(requestId, { status: 'APPROVED', decidedByUserId: actor.userId })
    const erasure = await eraseAccount(
      { db, clock },
      { reason: 'MEMBER_REQUEST', requestedOn: request.requestedOn, userId: request.userId, companyId, erasedByUserId: actor.userId },
    )
    await db.update(requests).set({ erasureId: erasure.id }).where(eq(requests.id, requestId)).run()
    this.deps.actorChanged(request.userId)
    // After the erase's writes. Should the request's transaction still roll back and run again, the retry finds the same rows and deletes them again.
    if (this.deps.mailFilesDir) for (const id of erasure.mailIds) rmSync(join(this.deps.mailFilesDir, `${id}.eml`), { force: true })
    return await this.one(requestId)
  }
}

export const createPersonalDataService = (deps: PersonalDataDeps) => new PersonalDataService(deps)
