import { snapshot, transaction, type Db } from '../../db/client'
import { DomainError, forbidden, invalidState, notFound, ruleViolation, versionConflict } from '../../errors'
import { isoNow, todayInCopenhagen, type Clock } from '../../lib/clock'
import { newId } from '../../lib/ids'
import { decodeCursor, pageOf } from '../../http/paging'
import type {
  DepositSettleRequest,
  ItemLoansQuery,
  Loan,
  LoanHandoverRequest,
  LoanRequest,
  LoanReturnRequest,
  LoanTermsRequest,
  MyLoansQuery,
} from '../../../shared/contract/lending'
import { handoverFrom, mayTake, partiesFor, spanProblem, take, type LoanAction, type LoanParty, type SpanProblem } from '../../../shared/domain/lending'
import { messages as m } from '../../../shared/i18n-messages'
import type { Actor } from '../../access/actor'
import { roleIn } from '../../access/policy'
import { isCompanyAdminStaff } from '../../../shared/domain/roles'
import type { CompaniesService } from '../companies'
import type { Residency } from '../agreements'
import type { NoticesService } from '../notifications'
import { recordChange } from '../sync'
import type { SyncedEntity } from '../sync'
import type { DepositDesk } from './deposit-desk'
import { lendingAccess } from './lending-access'
import { lendingRepository as repo, type ItemRow, type LoanRow } from './lending.repository'
import { dayText, loanNotices } from './loan-notices'
import { planReminders } from './loan-reminders'

const spanMessage: Record<SpanProblem, string> = {
  fromInPast: m.lendingFromInPast.id,
  toBeforeFrom: m.lendingToBeforeFrom.id,
  tooLong: m.lendingTooLong.id,
  tooFarAhead: m.lendingTooFarAhead.id,
}

/** What a member who is not the party a step belongs to is told (403). */
const notYourStep: Record<LoanAction, string> = {
  accept: m.loanOnlyLenderAccepts.id,
  decline: m.loanOnlyLenderDeclines.id,
  cancel: m.loanOnlyBorrowerCancels.id,
  terms: m.loanOnlyLenderTerms.id,
  confirm: m.forbidden.id,
  handover: m.loanOnlyLenderHandover.id,
  return: m.loanOnlyLenderReturn.id,
}

export interface LoansServiceDeps {
  db: Db
  clock: Clock
  companies: CompaniesService
  residency: Residency
  notices: NoticesService
  deposits: DepositDesk
}

/**
 * Loans (docs/PRODUCT.md "Lending", decision 0064): a member requests dates, the lender
 * accepts (overlapping open requests are declined with it) or declines, the borrower may cancel
 * before the handover; both confirm the contract (a change of its terms starts the confirmations
 * over); the lender records the handover and the return. Each step is the pure rule of
 * shared/domain/lending.ts applied by a conditional update on the loan's version, so a double
 * click or a second device cannot apply it twice: the same step again answers the loan as it is.
 */
export class LoansService {
  readonly access

  private readonly tell

  constructor(private readonly deps: LoansServiceDeps) {
    this.access = lendingAccess(this.deps.db, this.deps.residency)
    this.tell = loanNotices(this.deps.db, this.deps.notices)
  }

  private now() {
    return isoNow(this.deps.clock)
  }

  private async views(actor: Actor, rows: readonly LoanRow[]): Promise<Loan[]> {
    const items = await repo.itemsOf(
      this.deps.db,
      rows.map((r) => r.itemId),
    )
    const states = await this.deps.deposits.states(rows)
    return rows.map((r) => {
      const item = items.get(r.itemId)!
      const parties = this.access.partiesIn(actor, r, item)
      const full = this.access.seesContract(actor, r, item)
      return {
        id: r.id,
        companyId: r.companyId,
        itemId: r.itemId,
        borrower: { id: r.borrowerUserId, fullName: r.borrowerName },
        lenderUserId: r.lenderUserId,
        mine:
          parties.includes('borrower') ? 'borrower'
          : parties.includes('lender') ? 'lender'
          : null,
        fromDate: r.fromDate,
        toDate: r.toDate,
        status: r.status,
        message: full ? r.message : '',
        conditionOut: full ? r.conditionOut : '',
        handoverCondition: full ? r.handoverCondition : null,
        conditionBack: full ? r.conditionBack : null,
        damageNote: full ? r.damageNote : null,
        // The deposit is part of the contract: others see neither its amount nor its state.
        depositOre: full ? r.depositOre : null,
        deposit: full ? (states.get(r.id) ?? 'NONE') : 'NONE',
        lenderConfirmedAt: r.lenderConfirmedAt,
        lenderConfirmedBy: full ? r.lenderConfirmedBy : null,
        borrowerConfirmedAt: r.borrowerConfirmedAt,
        handedOverAt: r.handedOverAt,
        returnedAt: r.returnedAt,
        createdAt: r.createdAt,
        updatedAt: r.updatedAt,
        version: r.version,
      }
    })
  }

  private async viewOne(actor: Actor, row: LoanRow) {
    return (await this.views(actor, [row]))[0]!
  }

  /**
   * The change for sync: one row the company's staff and residents read (decision 0073; others see
   * who has it when, the contract only its parties).
   */
  private async changed(...rows: Pick<LoanRow, 'id' | 'companyId'>[]) {
    for (const row of rows) await recordChange(this.deps.db, this.deps.clock, 'loan', row.id, 'upsert', { companyId: row.companyId, members: true })
  }

  private assertSpan(span: { fromDate: string; toDate: string }) {
    const problem = spanProblem(span, todayInCopenhagen(this.deps.clock))
    if (problem) throw ruleViolation(spanMessage[problem], problem === 'toBeforeFrom' ? 'toDate' : 'fromDate')
  }

  /** Accepting or confirming a loan whose first day has passed is refused (the lender changes the dates first). */
  private assertNotStarted(loan: Pick<LoanRow, 'fromDate'>) {
    if (loan.fromDate < todayInCopenhagen(this.deps.clock)) throw ruleViolation(m.lendingFromInPast.id, 'fromDate')
  }

  private async assertFree(itemId: string, span: { fromDate: string; toDate: string }, exceptId?: string) {
    if ((await repo.bookedOverlapping(this.deps.db, itemId, span.fromDate, span.toDate, exceptId)).length)
      throw new DomainError('CONFLICT', m.lendingOverlap.id, { issues: [{ path: 'fromDate', message: m.lendingOverlap.id }] })
  }

  // Who may act (decision 0064), also the routes' `act` checks (server/access/scope.ts): decided before the body.

  /** A loan and the actor's parts in it, if one of them takes `action`: 403 for a member who is no party, or not the party whose step it is. */
  async stepper(actor: Actor, id: string, action: LoanAction): Promise<{ loan: LoanRow; item: ItemRow; parties: LoanParty[] }> {
    const { loan, item } = await this.access.readableLoan(actor, id)
    const parties = this.access.partiesIn(actor, loan, item)
    if (!parties.length) throw forbidden()
    if (!parties.some((p) => partiesFor(action).includes(p))) throw forbidden(notYourStep[action])
    return { loan, item, parties }
  }

  /** An item the actor may ask to borrow: 403 for one who reads it but is no member of its association (the super admin). */
  async borrowable(actor: Actor, itemId: string): Promise<ItemRow> {
    const item = await this.access.readableItem(actor, itemId)
    await this.assertMember(actor, item.companyId)
    return item
  }

  private async assertMember(actor: Actor, companyId: string): Promise<void> {
    if (!(await this.access.isMember(actor, companyId))) throw forbidden(m.lendingNotMember.id)
  }

  /** A loan whose held deposit the actor may settle: the association's admin staff, not a party of the loan. */
  async settleable(actor: Actor, id: string): Promise<{ loan: LoanRow; item: ItemRow }> {
    const { loan, item } = await this.access.readableLoan(actor, id)
    const role = roleIn(actor, loan.companyId)
    if (!(role && isCompanyAdminStaff(role))) throw forbidden()
    // A party of the loan (the borrower, or the member who lends the item) does not settle it.
    if (loan.borrowerUserId === actor.userId || (item.lenderKind === 'MEMBER' && loan.lenderUserId === actor.userId)) throw forbidden(m.loanSettleOwnDeposit.id)
    return { loan, item }
  }

  /**
   * One step of a loan by the actor. `already` says the step was taken (the same step again answers
   * the loan as it is, whatever `version` says); otherwise the rule must allow it for one of the
   * actor's parts, `version` (If-Match) must be current, and the conditional update must win.
   */
  private async step(
    actor: Actor,
    id: string,
    action: LoanAction,
    version: number | undefined,
    already: (loan: LoanRow, parties: LoanParty[]) => boolean,
    apply: (loan: LoanRow, item: ItemRow, party: LoanParty, at: string) => Promise<Partial<LoanRow>>,
    after?: (loan: LoanRow, item: ItemRow, party: LoanParty) => Promise<void>,
    whyNot?: (loan: LoanRow) => Promise<string | undefined>,
  ): Promise<Loan> {
    const { loan, item, parties } = await this.stepper(actor, id, action)
    if (already(loan, parties)) return await this.viewOne(actor, loan)
    const party = parties.find((p) => mayTake(loan, action, p))
    if (!party) throw invalidState((await whyNot?.(loan)) ?? m.loanStepNotAllowed.id)
    if (version !== undefined && version !== loan.version) throw versionConflict(await this.viewOne(actor, loan))
    await this.deps.companies.assertWritable(loan.companyId)
    const at = this.now()
    const fields = await apply(loan, item, party, at)
    if (!(await repo.stepLoan(this.deps.db, id, loan.version, { ...fields, updatedAt: at })))
      throw versionConflict(await this.viewOne(actor, (await repo.loan(this.deps.db, id))!))
    const updated = (await repo.loan(this.deps.db, id))!
    await this.changed(updated)
    await after?.(updated, item, party)
    return await this.viewOne(actor, updated)
  }

  async view(actor: Actor, id: string): Promise<Loan> {
    return await this.viewOne(actor, (await this.access.readableLoan(actor, id)).loan)
  }

  /** An item's loans, newest first: its calendar and history (members see who had it when). */
  async ofItem(actor: Actor, itemId: string, query: ItemLoansQuery): Promise<{ items: Loan[]; next: string | null }> {
    const after = decodeCursor(query.cursor, ['string', 'string'])
    return await snapshot(this.deps.db, async () => {
      await this.access.readableItem(actor, itemId)
      const page = pageOf(await repo.itemLoanPage(this.deps.db, itemId, after, query.limit + 1), query.limit, (r) => [r.createdAt, r.id])
      return { items: await this.views(actor, page.rows), next: page.next }
    })
  }

  /** The actor's loans as borrower, or as lender (their items, and the association's for its administration). */
  async mine(actor: Actor, query: MyLoansQuery): Promise<{ items: Loan[]; next: string | null }> {
    const after = decodeCursor(query.cursor, ['string', 'string'])
    const lendsFor = actor.companies.filter((c) => isCompanyAdminStaff(c.role)).map((c) => c.id)
    return await snapshot(this.deps.db, async () => {
      const rows = await repo.myLoanPage(this.deps.db, { userId: actor.userId, role: query.role, lendsFor }, after, query.limit + 1)
      const page = pageOf(rows, query.limit, (r) => [r.createdAt, r.id])
      return { items: await this.views(actor, page.rows), next: page.next }
    })
  }

  /** A member asks to borrow an item for some days; refused when a booked loan overlaps them. */
  async request(actor: Actor, itemId: string, input: LoanRequest): Promise<Loan> {
    const item = await this.access.readableItem(actor, itemId)
    if (input.id) {
      const existing = await repo.loan(this.deps.db, input.id)
      if (existing) {
        // The same request sent again (a retry from the outbox) answers the stored one.
        if (existing.itemId === itemId && existing.borrowerUserId === actor.userId && existing.fromDate === input.fromDate && existing.toDate === input.toDate)
          return await this.viewOne(actor, existing)
        // Another association's loan is not revealed (404), whatever id the client sent.
        if (existing.companyId !== item.companyId) throw notFound(m.loanNotFound.id)
        throw new DomainError('CONFLICT', m.billingRecordExists.id)
      }
    }
    await this.assertMember(actor, item.companyId)
    if (item.archivedAt) throw ruleViolation(m.lendingItemArchived.id)
    if (this.access.isLender(actor, item)) throw ruleViolation(m.lendingOwnItem.id)
    await this.deps.companies.assertWritable(item.companyId)
    const span = { fromDate: input.fromDate, toDate: input.toDate }
    this.assertSpan(span)
    await this.assertFree(itemId, span)
    // The same borrower asking again for these days (a double click without an Idempotency-Key): refused
    // in the request's transaction, so two parallel requests cannot both pass.
    if (await repo.openRequestOverlapping(this.deps.db, itemId, actor.userId, span.fromDate, span.toDate))
      throw new DomainError('CONFLICT', m.lendingAlreadyRequested.id, { issues: [{ path: 'fromDate', message: m.lendingAlreadyRequested.id }] })
    const at = this.now()
    const row = {
      id: input.id ?? newId(),
      companyId: item.companyId,
      itemId,
      borrowerUserId: actor.userId,
      borrowerName: actor.fullName,
      lenderUserId: item.lenderUserId,
      ...span,
      message: (input.message ?? '').trim(),
      status: 'REQUESTED' as const,
      conditionOut: '',
      depositOre: item.depositOre,
      createdAt: at,
      updatedAt: at,
    }
    await repo.insertLoan(this.deps.db, row)
    await this.changed(row)
    const loan = (await repo.loan(this.deps.db, row.id))!
    await this.tell.requested(loan, item)
    return await this.viewOne(actor, loan)
  }

  /** The lender accepts; open requests overlapping it are declined (their borrowers are told). */
  async accept(actor: Actor, id: string, version?: number) {
    return await this.step(
      actor,
      id,
      'accept',
      version,
      (l) => l.status !== 'REQUESTED' && l.status !== 'DECLINED' && l.status !== 'CANCELLED',
      async (loan) => {
        this.assertNotStarted(loan)
        await this.assertFree(loan.itemId, loan, loan.id)
        return { status: 'ACCEPTED' }
      },
      async (loan, item) => {
        const declined: LoanRow[] = []
        for (const other of await repo.requestedOverlapping(this.deps.db, loan.itemId, loan.fromDate, loan.toDate, loan.id))
          if (await repo.stepLoan(this.deps.db, other.id, other.version, { status: 'DECLINED', updatedAt: this.now() })) declined.push(other)
        await this.changed(...declined)
        for (const other of declined) await this.tell.step({ ...other, status: 'DECLINED', version: other.version + 1 }, item, 'decline')
        await this.tell.step(loan, item, 'accept')
      },
      // A lender who still sees the request open (another screen, offline) learns why it closed:
      // accepting an overlapping request declined it.
      async (loan) =>
        loan.status === 'DECLINED' && (await repo.bookedOverlapping(this.deps.db, loan.itemId, loan.fromDate, loan.toDate, loan.id)).length ?
          m.loanDeclinedForOverlap.id
        : undefined,
    )
  }

  async decline(actor: Actor, id: string, version?: number) {
    return await this.step(
      actor,
      id,
      'decline',
      version,
      (l) => l.status === 'DECLINED',
      async () => ({ status: 'DECLINED' }),
      async (loan, item) => await this.tell.step(loan, item, 'decline'),
    )
  }

  /** The borrower calls it off before the handover; a deposit already asked for is given back. */
  async cancel(actor: Actor, id: string, version?: number) {
    return await this.step(
      actor,
      id,
      'cancel',
      version,
      (l) => l.status === 'CANCELLED',
      async (loan, item) => ({
        status: 'CANCELLED',
        ...(loan.depositChargeId ? { depositRefundId: await this.deps.deposits.release(loan, item.title) } : {}),
      }),
      async (loan, item) => await this.tell.step(loan, item, 'cancel'),
    )
  }

  /** The lender changes the contract (dates, condition on handover); both confirm again. */
  async terms(actor: Actor, id: string, input: LoanTermsRequest, version?: number) {
    return await this.step(
      actor,
      id,
      'terms',
      version,
      // The same terms again (a replay) change nothing, so they do not start the confirmations over.
      (l) =>
        l.status === 'ACCEPTED' &&
        (input.fromDate ?? l.fromDate) === l.fromDate &&
        (input.toDate ?? l.toDate) === l.toDate &&
        (input.conditionOut === undefined || input.conditionOut.trim() === l.conditionOut),
      async (loan) => {
        const span = { fromDate: input.fromDate ?? loan.fromDate, toDate: input.toDate ?? loan.toDate }
        if (span.fromDate !== loan.fromDate || span.toDate !== loan.toDate) {
          this.assertSpan(span)
          await this.assertFree(loan.itemId, span, loan.id)
        }
        return {
          ...span,
          ...(input.conditionOut !== undefined ? { conditionOut: input.conditionOut.trim() } : {}),
          lenderConfirmedAt: null,
          borrowerConfirmedAt: null,
          lenderConfirmedBy: null,
        }
      },
      async (loan, item) => await this.tell.step(loan, item, 'terms'),
    )
  }

  /**
   * One party confirms the contract; the second confirmation makes it CONFIRMED and, when the item
   * has a deposit, asks for it on the borrower's agreement in the same transaction.
   */
  async confirm(actor: Actor, id: string, version?: number) {
    return await this.step(
      actor,
      id,
      'confirm',
      version,
      (l, parties) =>
        parties.every((p) => (p === 'lender' ? l.lenderConfirmedAt : l.borrowerConfirmedAt) !== null) ||
        ['CONFIRMED', 'HANDED_OVER', 'RETURNED'].includes(l.status),
      async (loan, item, party, at) => {
        this.assertNotStarted(loan)
        if (party === 'borrower' && loan.depositOre && !(await this.deps.deposits.canCollect(actor.userId, loan.companyId)))
          throw ruleViolation(m.loanDepositNeedsAgreement.id)
        const next = take(loan, 'confirm', party, at)!
        const fields: Partial<LoanRow> = {
          status: next.status,
          lenderConfirmedAt: next.lenderConfirmedAt,
          borrowerConfirmedAt: next.borrowerConfirmedAt,
          ...(party === 'lender' ? { lenderConfirmedBy: actor.fullName } : {}),
        }
        if (next.status === 'CONFIRMED' && loan.depositOre) {
          if (!loan.borrowerUserId || !(await this.deps.deposits.canCollect(loan.borrowerUserId, loan.companyId)))
            throw ruleViolation(m.loanDepositNeedsAgreement.id)
          fields.depositChargeId = await this.deps.deposits.collect(loan, item.title)
        }
        return fields
      },
      async (loan, item, party) => await this.tell.confirmed(loan, item, party),
    )
  }

  /** The lender records the handover and, optionally, the condition it left in (beside the contract's). */
  async handover(actor: Actor, id: string, input: LoanHandoverRequest, version?: number) {
    return await this.step(
      actor,
      id,
      'handover',
      version,
      (l) => l.status === 'HANDED_OVER' || l.status === 'RETURNED',
      async (loan, _item, _party, at) => {
        // From the day before the first day (Copenhagen): not weeks ahead.
        const from = handoverFrom(loan.fromDate)
        if (todayInCopenhagen(this.deps.clock) < from) throw new DomainError('BUSINESS_RULE', m.loanHandoverTooEarly.id, { values: { date: dayText(from) } })
        await planReminders(this.deps.db, loan.id, loan.toDate, at)
        // Recorded beside the contract's condition, which both confirmed and which stays as it was.
        return { status: 'HANDED_OVER', handedOverAt: at, handoverCondition: input.condition?.trim() || null }
      },
      async (loan, item) => await this.tell.step(loan, item, 'handover'),
    )
  }

  /**
   * The lender records the return and its condition. Without damage the deposit goes back in full
   * (refunded if collected, cancelled if not yet); with damage it waits for the administration.
   */
  async return(actor: Actor, id: string, input: LoanReturnRequest, version?: number) {
    return await this.step(
      actor,
      id,
      'return',
      version,
      (l) => l.status === 'RETURNED',
      async (loan, item, _party, at) => {
        const damage = input.damage?.trim() || null
        return {
          status: 'RETURNED',
          returnedAt: at,
          conditionBack: input.condition.trim(),
          damageNote: damage,
          ...(loan.depositChargeId && !damage ? { depositRefundId: await this.deps.deposits.release(loan, item.title) } : {}),
        }
      },
      async (loan, item) => await this.tell.step(loan, item, 'return'),
    )
  }

  /** The association's administration settles a deposit held for damage: refunds part or all of it (at most the deposit). */
  async settleDeposit(actor: Actor, id: string, input: DepositSettleRequest, version?: number): Promise<Loan> {
    const { loan, item } = await this.settleable(actor, id)
    if (loan.status !== 'RETURNED' || !loan.damageNote || !loan.depositChargeId || loan.depositRefundId) throw invalidState(m.loanDepositNotHeld.id)
    // Only a collected deposit is settled: one still queued or failed would be recorded as kept and never given back.
    if ((await this.deps.deposits.states([loan])).get(loan.id) !== 'HELD') throw ruleViolation(m.loanDepositNotCollected.id)
    if (version !== undefined && version !== loan.version) throw versionConflict(await this.viewOne(actor, loan))
    if (input.refundOre > (loan.depositOre ?? 0)) throw ruleViolation(m.loanRefundTooLarge.id, 'refundOre')
    await this.deps.companies.assertWritable(loan.companyId)
    // KEPT: nothing refunded (0 asked for, or nothing left of the charge after ordinary refunds).
    const refundId = input.refundOre === 0 ? 'KEPT' : ((await this.deps.deposits.refundPart(loan, input.refundOre, item.title)) ?? 'KEPT')
    if (!(await repo.stepLoan(this.deps.db, id, loan.version, { depositRefundId: refundId, updatedAt: this.now() })))
      throw versionConflict(await this.viewOne(actor, (await repo.loan(this.deps.db, id))!))
    const updated = (await repo.loan(this.deps.db, id))!
    await this.changed(updated)
    return await this.viewOne(actor, updated)
  }

  /**
   * The `lending` job's deposit sweep (server/main.ts): a deposit collected although its loan ended
   * without damage (the cancel came too late or Vipps refused it) is refunded in full, each loan in
   * its own transaction; the refund's id is made from the loan's, so it is issued once. When
   * ordinary refunds already gave all of it back, the loan records that (BILLING) instead.
   */
  async sweepDeposits(limit = 100): Promise<number> {
    let refunded = 0
    for (const found of await repo.depositsToGiveBack(this.deps.db, limit))
      await transaction(this.deps.db, async () => {
        const loan = await repo.loan(this.deps.db, found.id)
        if (!loan || loan.depositRefundId) return
        const item = (await repo.item(this.deps.db, loan.itemId))!
        const refundId = (await this.deps.deposits.release(loan, item.title)) ?? 'BILLING'
        if (!(await repo.stepLoan(this.deps.db, loan.id, loan.version, { depositRefundId: refundId, updatedAt: this.now() }))) return
        await this.changed((await repo.loan(this.deps.db, loan.id))!)
        refunded += 1
      })
    return refunded
  }

  /** Whether the borrower-to-be can pay the item's deposit (the screen says why not beforehand). */
  async canPayDeposit(actor: Actor, companyId: string) {
    return await this.deps.deposits.canCollect(actor.userId, companyId)
  }

  /** Sync: the loans of the associations the actor is a member of (others' without their contract). */
  syncEntity(): SyncedEntity {
    const synced = async (actor: Actor, rows: LoanRow[]) =>
      (await this.views(actor, rows)).map((l) => ({ id: l.id, version: l.version, data: l as unknown as Record<string, unknown> }))
    return {
      name: 'loan',
      snapshot: async (db, actor, afterId, limit) => await synced(actor, await repo.loanSyncPage(db, await this.access.scopeOf(actor), afterId, limit)),
      load: async (db, actor, ids) => await synced(actor, await repo.loansByIds(db, await this.access.scopeOf(actor), ids)),
    }
  }
}

export const createLoansService = (deps: LoansServiceDeps) => new LoansService(deps)
