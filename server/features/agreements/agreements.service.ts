import { snapshot, transaction, type Db } from '../../db/client'
import { conflict, DomainError, forbidden, invalidState, notFound, validation, versionConflict, type Issue } from '../../errors'
import { todayInCopenhagen, type Clock } from '../../lib/clock'
import { newId } from '../../lib/ids'
import type { WriteLock } from '../../lib/write-lock'
import { translate } from '../../i18n/i18n'
import { decodeCursor, pageOf } from '../../http/paging'
import { VippsRejected } from '../../integrations/vipps/vipps.errors'
import { vippsKeys } from '../../integrations/vipps/idempotency-key'
import type {
  Agreement,
  AgreementListQuery,
  CancelAgreementRequest,
  Charge,
  CreateAgreementRequest,
  UpdateAgreementRequest,
} from '../../../shared/contract/agreements'
import { localeOf } from '../../../shared/contract/common'
import type { PageQuery } from '../../../shared/contract/paging'
import { initialsOf, MAX_PART_PRICE_ORE, priceOfParts, type PaymentPeriod } from '../../../shared/domain/agreement-parts'
import { lastPaymentOf, terminationProblem } from '../../../shared/domain/termination'
import { nextPaymentDateProblem, startPaymentDateProblem } from '../../../shared/domain/agreement-dates'
import { canEdit } from '../../../shared/domain/agreement-status'
import { messages } from '../../../shared/i18n-messages'
import type { Actor } from '../../access/actor'
import { assertAgreementAdmin, canReadAgreement, isSuperAdmin } from '../../access/policy'
import { assertCompanyInScope } from '../companies'
import type { AuthService } from '../auth'
import type { ChargesService } from '../billing'
import type { CompaniesService } from '../companies'
import type { NoticesService } from '../notifications'
import type { ProvidersService } from '../payment-providers'
import { recordChange, recordChangesOf } from '../sync'
import type { SyncedEntity } from '../sync'
import type { UsersService } from '../users'
import type { AgreementResponseV3 } from '../../integrations/vipps/vipps.schemas'
import { createAgreementLifecycle, notAllowed, transition, type AgreementLifecycle } from './agreements.lifecycle'
import { createAgreementNotices, type AgreementNotices } from './agreements.notices'
import { agreementsRepository as repo, type AgreementRow, type AgreementScope } from './agreements.repository'
import { agreementPage, agreementSyncPage } from './agreements.reads'
import { createAgreementViews, type AgreementViews } from './agreements.views'

export interface AgreementsServiceDeps {
  db: Db
  clock: Clock
  lock: WriteLock
  publicUrl: string
  companies: CompaniesService
  providers: ProvidersService
  auth: AuthService
  users: UsersService
  charges: ChargesService
  notices: NoticesService
}

/** A member of a new agreement: found by e-mail or invited, and whether the caller may see their own data. */
interface NewMember {
  id: string
  invite: boolean
  outsider: boolean
}

/**
 * Agreements (docs/PRODUCT.md §2–§7, docs/decisions/0024-agreements.md): staff create, edit and terminate them; the member accepts
 * (through Vipps MobilePay) or rejects. Every change is logged for sync in its transaction, with
 * the company's staff and the member as its audience. Vipps is called outside the write lock:
 * accepting calls it directly (the member waits for the confirmation URL); stopping, price
 * updates and final charges go through the provider outbox, sent by a job with the row id as
 * Idempotency-Key (server/jobs/provider-outbox.ts). Vipps' state comes back through webhooks and
 * a poll (vipps-observer.ts), and only moves an agreement forward (shared/domain/agreement-status.ts).
 * Charges are the billing feature's (charges.service.ts). The views, the notices and the life at
 * Vipps are modules of their own (agreements.views.ts, agreements.notices.ts, agreements.lifecycle.ts).
 */
export class AgreementsService {
  private readonly views: AgreementViews
  private readonly notices: AgreementNotices
  private readonly lifecycle: AgreementLifecycle

  constructor(private readonly deps: AgreementsServiceDeps) {
    this.views = createAgreementViews(deps)
    this.notices = createAgreementNotices(deps)
    this.lifecycle = createAgreementLifecycle({ ...deps, notices: this.notices })
  }

  private nowIso() {
    return this.deps.clock.now().toISOString()
  }

  // ---- access

  /** The agreement if the actor may read it (staff of its company, its member, the super admin); 404 otherwise. */
  private async visible(actor: Actor, id: string): Promise<AgreementRow> {
    const row = await repo.byId(this.deps.db, id)
    if (!row || !canReadAgreement(actor, row)) throw notFound(messages.agreementNotFound.id)
    return row
  }

  /** An agreement the actor may change as staff, of a company whose data may change. */
  private async manageable(actor: Actor, id: string): Promise<AgreementRow> {
    const row = await this.visible(actor, id)
    assertAgreementAdmin(actor, row.companyId, { ownAgreement: row.memberUserId === actor.userId })
    await this.deps.companies.assertWritable(row.companyId)
    return row
  }

  /** Only the member answers their agreement (docs/PRODUCT.md §6: accept or reject is the user role's). */
  private async asMember(actor: Actor, id: string): Promise<AgreementRow> {
    const row = await this.visible(actor, id)
    if (row.memberUserId !== actor.userId) throw forbidden(messages.agreementMemberOnly.id)
    return row
  }

  /** Scope of the agreements (and their charges) the actor sees. */
  scopeOf(actor: Actor): AgreementScope {
    return isSuperAdmin(actor) ? 'all' : { companyIds: actor.companies.map((c) => c.id), memberUserId: actor.userId }
  }

  // ---- views, and what other features read

  async view(row: AgreementRow): Promise<Agreement> {
    return await this.views.view(row)
  }

  /** The views of `rows` in a constant number of statements (agreements.views.ts); `on` is the handle to read with. */
  async viewsOf(rows: readonly AgreementRow[], on?: Db): Promise<Agreement[]> {
    return await this.views.viewsOf(rows, on)
  }

  async rowOf(id: string) {
    return await repo.byId(this.deps.db, id)
  }

  /** The overdue steps (billing): the agreement is flagged for debt collection. */
  async flagDebtCollection(row: AgreementRow) {
    await repo.update(this.deps.db, row.id, { debtCollectionSince: this.nowIso(), version: row.version + 1, updatedAt: this.nowIso() })
    await this.lifecycle.changed(row)
  }

  /** For the companies feature: agreement counts and addresses in use. */
  agreementsCount(companyId: string) {
    return repo.countOfCompany(this.deps.db, companyId)
  }

  addressInUse(addressId: string) {
    return repo.addressInUse(this.deps.db, addressId)
  }

  /** The agreements of these households (their addresses, docs/decisions/0090), newest first. */
  atAddresses(addressIds: string[]) {
    return repo.atAddresses(this.deps.db, addressIds)
  }

  // ---- the life at Vipps and in time (agreements.lifecycle.ts)

  /** A terminating agreement whose final charge settled: stop it at Vipps and end it. */
  async finishTermination(agreementId: string) {
    await this.lifecycle.finishTermination(agreementId)
  }

  /** Applies Vipps' current state of an agreement; a late or repeated observation changes nothing. */
  async observeAgreement(va: AgreementResponseV3) {
    await this.lifecycle.observeAgreement(va)
  }

  /** CANCELED agreements whose termination date has passed, with nothing open, become CLOSED. */
  async closeEnded() {
    await this.lifecycle.closeEnded()
  }

  /** PENDING agreements with a Vipps agreement (the poll re-reads them). */
  async pendingAtVipps() {
    return await this.lifecycle.pendingAtVipps()
  }

  /** Demo data: seeded ACCEPTED agreements get their Vipps agreement in the emulator; how many were connected. */
  async connectSeeded(ids: string[], approve: (vippsAgreementId: string) => Promise<void>): Promise<number> {
    return await this.lifecycle.connectSeeded(ids, approve)
  }

  // ---- reads

  /**
   * Staff (and the super admin) of a company see its agreements; everyone sees their own.
   * `companyId` narrows the list; a company where the caller is not staff gives only their own,
   * and one they have nothing to do with (or that does not exist) answers 404 (decision 0033).
   */
  async list(actor: Actor, query: AgreementListQuery): Promise<{ items: Agreement[]; next: string | null }> {
    const { db } = this.deps
    // Keyset paging (docs/API.md "Lists"): one statement for the page, a constant number for its views.
    const after = decodeCursor(query.cursor, ['string', 'number', 'string'])
    if (query.companyId !== undefined) await assertCompanyInScope(db, actor, query.companyId)
    // One read transaction: the rows and their members, parts and charges from the same snapshot.
    return snapshot(db, async () => {
      const rows = await agreementPage(db, this.scopeOf(actor), {
        companyId: query.companyId,
        status: query.status,
        search: query.search,
        after,
        limit: query.limit + 1,
      })
      const page = pageOf(rows, query.limit, (r) => [r.companyId, r.externalSeq, r.id])
      return { items: await this.viewsOf(page.rows), next: page.next }
    })
  }

  async get(actor: Actor, id: string): Promise<Agreement> {
    return await this.view(await this.visible(actor, id))
  }

  /** A page of the agreement's charges by due date (docs/API.md "Lists"): one statement for the rows, two for their views. */
  async charges(actor: Actor, id: string, query: PageQuery): Promise<{ items: Charge[]; next: string | null }> {
    const { charges } = this.deps
    const after = decodeCursor(query.cursor, ['string', 'string', 'string'])
    return await snapshot(this.deps.db, async () => {
      const row = await this.visible(actor, id)
      const page = pageOf(await charges.pageOf(row.id, after, query.limit + 1), query.limit, (c) => [c.due, c.createdAt, c.id])
      return { items: await charges.views(page.rows), next: page.next }
    })
  }

  // ---- create

  /** Creates an agreement in CREATED; the member (found or invited by e-mail) is asked to accept it. */
  async create(actor: Actor, input: CreateAgreementRequest): Promise<Agreement> {
    const { db, clock, companies, auth } = this.deps
    assertAgreementAdmin(actor, input.companyId)
    const company = await companies.byId(input.companyId)
    if (!company) throw notFound(messages.companyNotFound.id)
    await companies.assertWritable(input.companyId)
    const price = priceOfParts(input.parts)
    const addressIds = [...new Set(input.linkedAddress)]
    const retried = input.id ? await this.retriedCreate(actor, input, price, addressIds) : undefined
    if (retried) return retried
    await this.assertCreatable(input, addressIds)

    const now = this.nowIso()
    const member = await this.memberOfNew(actor, input, now)
    const row = await this.insertAgreement(actor, input, { memberUserId: member.id, price, addressIds, now })
    await this.lifecycle.changed(row)
    // The company's agreement count changed.
    await recordChange(db, clock, 'company', input.companyId, 'upsert', { companyId: input.companyId })
    if (member.invite) await auth.invite(member.id, { companyName: company.name, inviterName: actor.fullName })
    await this.notices.memberAwaiting(row)
    const created = await this.view(row)
    return member.outsider ? asTyped(created, input) : created
  }

  /**
   * Agreements in CREATED for many households at once (the household import, docs/decisions/0093):
   * one a household, for the member given, linked to the household's address, with its parts, the
   * provider, period and first payment date given. Nobody is invited or told (inviting is the
   * invitations' step, decision 0091). Agreements, parts, address links and the change-log entries
   * are written in multi-row statements, in the caller's transaction. The caller gives households
   * of the association with no running agreement; the provider and the date are checked here too.
   * Answers the new agreements' ids in the order given.
   */
  async createForHouseholds(
    actor: Actor,
    input: {
      companyId: string
      paymentProviderId: string
      startPaymentDate: string
      paymentPeriod: PaymentPeriod
      agreements: readonly { householdId: string; memberUserId: string; parts: readonly CreateAgreementRequest['parts'][number][] }[]
    },
  ): Promise<string[]> {
    const { db, clock } = this.deps
    assertAgreementAdmin(actor, input.companyId)
    if (!input.agreements.length) return []
    const issues: Issue[] = []
    const startProblem = startPaymentDateProblem(input.startPaymentDate, todayInCopenhagen(clock))
    if (startProblem) issues.push(startProblem)
    const provider = await this.deps.providers.byId(input.paymentProviderId)
    if (!provider || provider.companyId !== input.companyId || !provider.isActive)
      issues.push({ path: 'paymentProviderId', message: messages.providerInactive.id })
    // Each part's price as the agreement form allows it (shared/contract/agreements.ts): whole øre above 0, at most DKK 1,000,000.
    input.agreements.forEach((a, i) =>
      a.parts.forEach((p, j) => {
        if (!Number.isSafeInteger(p.price) || p.price <= 0 || p.price > MAX_PART_PRICE_ORE)
          issues.push({ path: `agreements.${i}.parts.${j}.price`, message: messages.partPriceTooHigh.id })
      }),
    )
    if (issues.length) throw validation(issues)
    const now = this.nowIso()
    const first = await repo.nextSeq(db, input.companyId)
    const made = input.agreements.map((a, i) => ({ ...a, id: newId(), seq: first + i }))
    await repo.insertMany(
      db,
      made.map((a) => ({
        id: a.id,
        companyId: input.companyId,
        externalSeq: a.seq,
        memberUserId: a.memberUserId,
        paymentProviderId: input.paymentProviderId,
        status: 'CREATED' as const,
        priceOre: priceOfParts(a.parts),
        paymentPeriod: input.paymentPeriod,
        startPaymentDate: input.startPaymentDate,
        nextRegularPaymentDate: input.startPaymentDate,
        createdByUserId: actor.userId,
        createdAt: now,
        updatedAt: now,
      })),
      made.flatMap((a) => partsOf(a.parts).map((p) => ({ ...p, agreementId: a.id }))),
      made.map((a) => ({ agreementId: a.id, addressId: a.householdId, position: 0 })),
    )
    await recordChangesOf(
      db,
      clock,
      'agreement',
      made.map((a) => ({ entityId: a.id, scope: { companyId: input.companyId, userId: a.memberUserId } })),
      'upsert',
    )
    // The company's agreement count changed.
    await recordChange(db, clock, 'company', input.companyId, 'upsert', { companyId: input.companyId })
    return made.map((a) => a.id)
  }

  /**
   * A retried offline create (an `id` that exists): the same agreement answers as before; other
   * data is a conflict. Undefined when there is no agreement of that id.
   */
  private async retriedCreate(actor: Actor, input: CreateAgreementRequest, price: number, addressIds: string[]): Promise<Agreement | undefined> {
    const { db } = this.deps
    const existing = await repo.byId(db, input.id!)
    if (!existing) return undefined
    const member = await repo.member(db, existing.memberUserId)
    const same =
      existing.companyId === input.companyId &&
      existing.paymentProviderId === input.paymentProviderId &&
      existing.startPaymentDate === input.startPaymentDate &&
      existing.paymentPeriod === input.paymentPeriod &&
      existing.priceOre === price &&
      member?.emailAddress === input.emailAddress &&
      (await repo.addressIds(db, existing.id)).join() === addressIds.join()
    if (same && canReadAgreement(actor, existing)) return await this.view(existing)
    throw conflict(messages.agreementExists.id)
  }

  /** The start date, the payment provider and the addresses of a new agreement; 400 with every problem. */
  private async assertCreatable(input: CreateAgreementRequest, addressIds: string[]) {
    const issues: Issue[] = []
    // Today or later, at most 5 years ahead (decision 0034): billing never catches up a backdated start.
    const startProblem = startPaymentDateProblem(input.startPaymentDate, todayInCopenhagen(this.deps.clock))
    if (startProblem) issues.push(startProblem)
    const provider = await this.deps.providers.byId(input.paymentProviderId)
    if (!provider || provider.companyId !== input.companyId) issues.push({ path: 'paymentProviderId', message: messages.paymentProviderRequired.id })
    else if (!provider.isActive) issues.push({ path: 'paymentProviderId', message: messages.providerInactive.id })
    const ofCompany = new Set(await repo.companyAddressIds(this.deps.db, input.companyId, addressIds))
    input.linkedAddress.forEach((a, i) => {
      if (!ofCompany.has(a)) issues.push({ path: `linkedAddress.${i}`, message: messages.addressNotOfCompany.id })
    })
    if (issues.length) throw validation(issues)
  }

  /** The member of a new agreement, found by e-mail or made a user to invite. */
  private async memberOfNew(actor: Actor, input: CreateAgreementRequest, now: string): Promise<NewMember> {
    const { users } = this.deps
    const found = await users.byEmail(input.emailAddress)
    const outsider = found !== undefined && (await this.isOutsider(actor, found.id, input.companyId))
    if (found) return { id: found.id, invite: false, outsider }
    await users.insert({
      id: newId(),
      fullName: input.memberName,
      emailAddress: input.emailAddress,
      // The resident's language is unknown: the staff member's is the best guess; they can change it.
      language: actor.language,
      systemRole: 'USER',
      currentCompanyId: null,
      createdAt: now,
      updatedAt: now,
    })
    return { id: (await users.byEmail(input.emailAddress))!.id, invite: true, outsider }
  }

  /**
   * Privacy between associations (decisions 0033 and 0037): someone the caller does not know (not staff
   * of the caller's companies, no agreement here yet) keeps their own data, and the answer is
   * made of what the caller typed, exactly as for a new user.
   */
  private async isOutsider(actor: Actor, userId: string, companyId: string): Promise<boolean> {
    const { users } = this.deps
    return (
      !isSuperAdmin(actor) &&
      !(await users.isStaffOfAny(
        userId,
        actor.companies.map((c) => c.id),
      )) &&
      !(await users.hasAgreementWith(userId, companyId))
    )
  }

  /** The new agreement's row in CREATED, with its parts and addresses. */
  private async insertAgreement(
    actor: Actor,
    input: CreateAgreementRequest,
    values: { memberUserId: string; price: number; addressIds: string[]; now: string },
  ): Promise<AgreementRow> {
    const { db } = this.deps
    const { memberUserId, price, addressIds, now } = values
    const id = input.id ?? newId()
    await repo.insert(db, {
      id,
      companyId: input.companyId,
      externalSeq: await repo.nextSeq(db, input.companyId),
      memberUserId,
      paymentProviderId: input.paymentProviderId,
      status: 'CREATED',
      priceOre: price,
      paymentPeriod: input.paymentPeriod,
      startPaymentDate: input.startPaymentDate,
      nextRegularPaymentDate: input.startPaymentDate,
      createdByUserId: actor.userId,
      createdAt: now,
      updatedAt: now,
    })
    await repo.replaceParts(db, id, partsOf(input.parts))
    await repo.linkAddresses(db, id, addressIds)
    return (await repo.byId(db, id))!
  }

  // ---- changes

  /** Next payment date, period and parts (docs/PRODUCT.md §2 edit). A new price of an ACCEPTED agreement is sent to Vipps. */
  async update(actor: Actor, id: string, input: UpdateAgreementRequest, ifMatch?: number): Promise<Agreement> {
    const { db, clock } = this.deps
    const row = await this.manageable(actor, id)
    if (ifMatch !== undefined && ifMatch !== row.version) throw versionConflict(await this.view(row))
    if (row.terminationDate) throw invalidState(messages.agreementTerminating.id)
    if (!canEdit(row)) throw notAllowed(row)
    if (input.nextRegularPaymentDate !== undefined) {
      const problem = nextPaymentDateProblem(input.nextRegularPaymentDate, row.nextRegularPaymentDate, todayInCopenhagen(clock))
      if (problem) throw validation([problem])
    }
    const price = input.parts ? priceOfParts(input.parts) : row.priceOre
    if (input.parts) await repo.replaceParts(db, id, partsOf(input.parts))
    await repo.update(db, id, {
      ...(input.nextRegularPaymentDate !== undefined && { nextRegularPaymentDate: input.nextRegularPaymentDate }),
      ...(input.paymentPeriod !== undefined && { paymentPeriod: input.paymentPeriod }),
      priceOre: price,
      version: row.version + 1,
      updatedAt: this.nowIso(),
    })
    if (row.status === 'ACCEPTED' && row.vippsAgreementId && price !== row.priceOre)
      await this.lifecycle.enqueue(row, 'UPDATE_AGREEMENT', { pricing: { amount: price } })
    await this.lifecycle.changed(row)
    return await this.view((await repo.byId(db, id))!)
  }

  /**
   * The member accepts: the Vipps agreement is created (outside the write lock; the
   * Idempotency-Key is the agreement id and version, so a retry after a lost answer gets the
   * same Vipps agreement), then the agreement moves to PENDING. Accepting again while PENDING
   * answers the same confirmation URL. If Vipps cannot be reached nothing changes (503).
   */
  async accept(actor: Actor, id: string): Promise<{ confirmationUrl: string }> {
    const { db, lock, companies, providers } = this.deps
    const prep = await lock.run(async () => {
      const row = await this.asMember(actor, id)
      if (row.status === 'PENDING' && row.vippsConfirmationUrl) return { ready: row.vippsConfirmationUrl }
      transition(row, 'accept')
      await companies.assertWritable(row.companyId)
      const provider = await providers.byId(row.paymentProviderId)
      if (!provider?.isActive) throw invalidState(messages.providerInactive.id)
      return { row, provider, draft: await this.lifecycle.draftFor(row) }
    })
    if (prep.ready !== undefined) return { confirmationUrl: prep.ready }
    const { row, provider, draft } = prep
    let created: { agreementId: string; vippsConfirmationUrl: string }
    try {
      created = await providers.vippsClient(provider).createAgreement(draft, vippsKeys.agreementDraft(row.id, row.version))
    } catch (err) {
      // The error mapper writes the cause to the system log with the request id.
      if (err instanceof VippsRejected) throw new DomainError('BUSINESS_RULE', messages.providerRefused.id, { values: { detail: err.message }, cause: err })
      throw new DomainError('PROVIDER_UNAVAILABLE', messages.providerUnavailable.id, { cause: err })
    }
    return lock.run(() =>
      transaction(db, async () => {
        const current = (await repo.byId(db, id))!
        if (current.status === 'PENDING' && current.vippsConfirmationUrl) return { confirmationUrl: current.vippsConfirmationUrl }
        const to = transition(current, 'accept')
        await repo.update(db, id, {
          status: to,
          vippsAgreementId: created.agreementId,
          vippsConfirmationUrl: created.vippsConfirmationUrl,
          pendingSince: this.nowIso(),
          version: current.version + 1,
          updatedAt: this.nowIso(),
        })
        await this.lifecycle.changed(current)
        return { confirmationUrl: created.vippsConfirmationUrl }
      }),
    )
  }

  async reject(actor: Actor, id: string): Promise<Agreement> {
    const { db } = this.deps
    // Its own transaction too: the GET form is not wrapped in one by the HTTP layer.
    return await transaction(db, async () => {
      const row = await this.asMember(actor, id)
      await repo.update(db, id, { status: transition(row, 'reject'), version: row.version + 1, updatedAt: this.nowIso() })
      await this.lifecycle.changed(row)
      await this.notices.staff(row, 'REJECTED')
      return await this.view((await repo.byId(db, id))!)
    })
  }

  /**
   * Termination (docs/PRODUCT.md §2/§4): sets the termination date. Without a final payment the agreement
   * is CANCELED at once and stopped at Vipps; with one, a FINAL charge is due 3 days before the
   * termination date and the agreement is stopped and CANCELED once that charge settles.
   */
  async cancel(actor: Actor, id: string, input: CancelAgreementRequest): Promise<Agreement> {
    const { db, clock } = this.deps
    const row = await this.manageable(actor, id)
    if (row.terminationDate) throw invalidState(messages.agreementTerminating.id)
    const to = transition(row, 'terminate')
    // The same rules as the terminate dialog (shared), so an offline termination fails only when the server's state differs.
    const problem = terminationProblem(input, todayInCopenhagen(clock), row.status, this.views.scheduleOf(row))
    if (problem?.message === messages.finalPaymentNeedsAccepted.id) throw invalidState(problem.message)
    if (problem) throw validation([problem])
    const now = this.nowIso()
    if (input.finalPaymentRequired) {
      await this.chargeLastPayment(row, input.terminationDate, now)
      await repo.update(db, id, { terminationDate: input.terminationDate, finalPaymentRequired: true, version: row.version + 1, updatedAt: now })
    } else {
      if (row.vippsAgreementId && (row.status === 'ACCEPTED' || row.status === 'PENDING')) await this.lifecycle.enqueue(row, 'STOP_AGREEMENT', {})
      await repo.update(db, id, { status: to, terminationDate: input.terminationDate, finalPaymentRequired: false, version: row.version + 1, updatedAt: now })
    }
    await this.lifecycle.changed(row)
    return await this.view((await repo.byId(db, id))!)
  }

  /** A termination's last payment: a FINAL charge for the days from the last regular one through the termination date. */
  private async chargeLastPayment(row: AgreementRow, terminationDate: string, now: string) {
    // Agreements brought over without a Vipps agreement cannot be charged a last time.
    if (!row.vippsAgreementId) throw invalidState(messages.finalPaymentNeedsAccepted.id)
    // It takes the place of the last period's regular charge (docs/decisions/0035-the-last-payment-of-a-termination-charges-each-day-once.md):
    // billing makes no regular charge for the days it covers.
    const last = lastPaymentOf(this.views.scheduleOf(row), terminationDate)!
    const member = (await repo.member(this.deps.db, row.memberUserId))!
    await this.deps.charges.create(row, {
      kind: 'FINAL',
      type: 'RECURRING',
      amountOre: last.amount,
      description: translate(
        localeOf(member.language),
        /*i18n*/ { id: 'Last payment {externalId}: {from}–{through}' },
        { externalId: String(row.externalSeq), from: last.from, through: last.through },
      ).slice(0, 45),
      due: last.due,
      now,
    })
  }
}

export const createAgreementsService = (deps: AgreementsServiceDeps) => new AgreementsService(deps)

/** The answer of a create for an outsider (AgreementsService.isOutsider): the member as the caller typed them. */
function asTyped(created: Agreement, input: CreateAgreementRequest): Agreement {
  return {
    ...created,
    member: {
      userId: created.member.userId,
      title: initialsOf(input.memberName),
      fullName: input.memberName,
      emailAddress: input.emailAddress,
      isVerified: false,
    },
  }
}

/** The parts of a create or update as rows: the client's part id is kept; a missing or repeated one gets a server id. */
function partsOf(parts: readonly CreateAgreementRequest['parts'][number][]) {
  const seen = new Set<string>()
  return parts.map((p, position) => {
    const id = p.id && !seen.has(p.id) ? p.id : newId()
    seen.add(id)
    return { id, position, type: p.type, description: p.description, priceOre: p.price, vatRate: p.vatRate }
  })
}

// ---- sync ----------------------------------------------------------------------------------

/** Agreements in the offline store: staff get their companies', a member their own (docs/API.md "Sync"); each page's views set-based. */
export const agreementSync = (agreements: AgreementsService): SyncedEntity => {
  const synced = async (db: Db, rows: AgreementRow[]) => {
    const views = await agreements.viewsOf(rows, db)
    return rows.map((r, i) => ({ id: r.id, version: r.version, data: views[i] as unknown as Record<string, unknown> }))
  }
  return {
    name: 'agreement',
    snapshot: async (db, actor, afterId, limit) => await synced(db, await agreementSyncPage(db, agreements.scopeOf(actor), afterId, limit)),
    load: async (db, actor, ids) =>
      await synced(
        db,
        (await repo.byIds(db, ids)).filter((r) => canReadAgreement(actor, r)),
      ),
  }
}
