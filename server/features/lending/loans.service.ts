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
import type { Residency } from '../documents'
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

export type LoansService = ReturnType<typeof createLoansService>

/**
 * Loans (docs/PRODUCT.md "Lending", decision 0064): a member requests dates, the lender
 * accepts (overlapping open requests are declined with it) or declines, the borrower may cancel
 * before the handover; both confirm the contract (a change of its terms starts the confirmations
 * over); the lender records the handover and the return. Each step is the pure rule of
 * shared/domain/lending.ts applied by a conditional update on the loan's version, so a double
 * click or a second device cannot apply it twice: the same step again answers the loan as it is.
 */
export function createLoansService(deps: {
  db: Db
  clock: Clock
  companies: CompaniesService
  residency: Residency
  notices: NoticesService
  deposits: DepositDesk
}) {
  const { db, clock, companies, residency, deposits } = deps
  const access = lendingAccess(db, residency)
  const tell = loanNotices(db, deps.notices)
  const now = () => isoNow(clock)

  async function views(actor: Actor, rows: readonly LoanRow[]): Promise<Loan[]> {
    const items = await repo.itemsOf(
      db,
      rows.map((r) => r.itemId),
    )
    const states = await deposits.states(rows)
    return rows.map((r) => {
      const item = items.get(r.itemId)!
      const parties = access.partiesIn(actor, r, item)
      const full = access.seesContract(actor, r, item)
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
  const viewOne = async (actor: Actor, row: LoanRow) => (await views(actor, [row]))[0]!

  /**
   * The change for sync: one row the company's staff and residents read (decision 0073; others see
   * who has it when, the contract only its parties).
   */
  async function changed(...rows: Pick<LoanRow, 'id' | 'companyId'>[]) {
    for (const row of rows) await recordChange(db, clock, 'loan', row.id, 'upsert', { companyId: row.companyId, members: true })
  }

  function assertSpan(span: { fromDate: string; toDate: string }) {
    const problem = spanProblem(span, todayInCopenhagen(clock))
    if (problem) throw ruleViolation(spanMessage[problem], problem === 'toBeforeFrom' ? 'toDate' : 'fromDate')
  }
  /** Accepting or confirming a loan whose first day has passed is refused (the lender changes the dates first). */
  function assertNotStarted(loan: Pick<LoanRow, 'fromDate'>) {
    if (loan.fromDate < todayInCopenhagen(clock)) throw ruleViolation(m.lendingFromInPast.id, 'fromDate')
  }
  async function assertFree(itemId: string, span: { fromDate: string; toDate: string }, exceptId?: string) {
    if ((await repo.bookedOverlapping(db, itemId, span.fromDate, span.toDate, exceptId)).length)
      throw new DomainError('CONFLICT', m.lendingOverlap.id, { issues: [{ path: 'fromDate', message: m.lendingOverlap.id }] })
  }

  /**
   * One step of a loan by the actor. `already` says the step was taken (the same step again answers
   * the loan as it is, whatever `version` says); otherwise the rule must allow it for one of the
   * actor's parts, `version` (If-Match) must be current, and the conditional update must win.
   */
  async function step(
    actor: Actor,
    id: string,
    action: LoanAction,
    version: number | undefined,
    already: (loan: LoanRow, parties: LoanParty[]) => boolean,
    apply: (loan: LoanRow, item: ItemRow, party: LoanParty, at: string) => Promise<Partial<LoanRow>>,
    after?: (loan: LoanRow, item: ItemRow, party: LoanParty) => Promise<void>,
  ): Promise<Loan> {
    const { loan, item } = await access.readableLoan(actor, id)
    const parties = access.partiesIn(actor, loan, item)
    if (!parties.length) throw forbidden()
    if (!parties.some((p) => partiesFor(action).includes(p))) throw forbidden(notYourStep[action])
    if (already(loan, parties)) return await viewOne(actor, loan)
    const party = parties.find((p) => mayTake(loan, action, p))
    if (!party) throw invalidState(m.loanStepNotAllowed.id)
    if (version !== undefined && version !== loan.version) throw versionConflict(await viewOne(actor, loan))
    await companies.assertWritable(loan.companyId)
    const at = now()
    const fields = await apply(loan, item, party, at)
    if (!(await repo.stepLoan(db, id, loan.version, { ...fields, updatedAt: at }))) throw versionConflict(await viewOne(actor, (await repo.loan(db, id))!))
    const updated = (await repo.loan(db, id))!
    await changed(updated)
    await after?.(updated, item, party)
    return await viewOne(actor, updated)
  }

  return {
    access,

    async view(actor: Actor, id: string): Promise<Loan> {
      return await viewOne(actor, (await access.readableLoan(actor, id)).loan)
    },

    /** An item's loans, newest first: its calendar and history (members see who had it when). */
    async ofItem(actor: Actor, itemId: string, query: ItemLoansQuery): Promise<{ items: Loan[]; next: string | null }> {
      const after = decodeCursor(query.cursor, ['string', 'string'])
      return await snapshot(db, async () => {
        await access.readableItem(actor, itemId)
        const page = pageOf(await repo.itemLoanPage(db, itemId, after, query.limit + 1), query.limit, (r) => [r.createdAt, r.id])
        return { items: await views(actor, page.rows), next: page.next }
      })
    },

    /** The actor's loans as borrower, or as lender (their items, and the association's for its administration). */
    async mine(actor: Actor, query: MyLoansQuery): Promise<{ items: Loan[]; next: string | null }> {
      const after = decodeCursor(query.cursor, ['string', 'string'])
      const lendsFor = actor.companies.filter((c) => isCompanyAdminStaff(c.role)).map((c) => c.id)
      return await snapshot(db, async () => {
        const rows = await repo.myLoanPage(db, { userId: actor.userId, role: query.role, lendsFor }, after, query.limit + 1)
        const page = pageOf(rows, query.limit, (r) => [r.createdAt, r.id])
        return { items: await views(actor, page.rows), next: page.next }
      })
    },

    /** A member asks to borrow an item for some days; refused when a booked loan overlaps them. */
    async request(actor: Actor, itemId: string, input: LoanRequest): Promise<Loan> {
      const item = await access.readableItem(actor, itemId)
      if (input.id) {
        const existing = await repo.loan(db, input.id)
        if (existing) {
          // The same request sent again (a retry from the outbox) answers the stored one.
          if (
            existing.itemId === itemId &&
            existing.borrowerUserId === actor.userId &&
            existing.fromDate === input.fromDate &&
            existing.toDate === input.toDate
          )
            return await viewOne(actor, existing)
          // Another association's loan is not revealed (404), whatever id the client sent.
          if (existing.companyId !== item.companyId) throw notFound(m.loanNotFound.id)
          throw new DomainError('CONFLICT', m.billingRecordExists.id)
        }
      }
      if (!(await access.isMember(actor, item.companyId))) throw forbidden(m.lendingNotMember.id)
      if (item.archivedAt) throw ruleViolation(m.lendingItemArchived.id)
      if (access.isLender(actor, item)) throw ruleViolation(m.lendingOwnItem.id)
      await companies.assertWritable(item.companyId)
      const span = { fromDate: input.fromDate, toDate: input.toDate }
      assertSpan(span)
      await assertFree(itemId, span)
      // The same borrower asking again for these days (a double click without an Idempotency-Key): refused
      // in the request's transaction, so two parallel requests cannot both pass.
      if (await repo.openRequestOverlapping(db, itemId, actor.userId, span.fromDate, span.toDate))
        throw new DomainError('CONFLICT', m.lendingAlreadyRequested.id, { issues: [{ path: 'fromDate', message: m.lendingAlreadyRequested.id }] })
      const at = now()
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
      await repo.insertLoan(db, row)
      await changed(row)
      const loan = (await repo.loan(db, row.id))!
      await tell.requested(loan, item)
      return await viewOne(actor, loan)
    },

    /** The lender accepts; open requests overlapping it are declined (their borrowers are told). */
    accept: async (actor: Actor, id: string, version?: number) =>
      await step(
        actor,
        id,
        'accept',
        version,
        (l) => l.status !== 'REQUESTED' && l.status !== 'DECLINED' && l.status !== 'CANCELLED',
        async (loan) => {
          assertNotStarted(loan)
          await assertFree(loan.itemId, loan, loan.id)
          return { status: 'ACCEPTED' }
        },
        async (loan, item) => {
          const declined: LoanRow[] = []
          for (const other of await repo.requestedOverlapping(db, loan.itemId, loan.fromDate, loan.toDate, loan.id))
            if (await repo.stepLoan(db, other.id, other.version, { status: 'DECLINED', updatedAt: now() })) declined.push(other)
          await changed(...declined)
          for (const other of declined) await tell.step({ ...other, status: 'DECLINED', version: other.version + 1 }, item, 'decline')
          await tell.step(loan, item, 'accept')
        },
      ),

    decline: async (actor: Actor, id: string, version?: number) =>
      await step(
        actor,
        id,
        'decline',
        version,
        (l) => l.status === 'DECLINED',
        async () => ({ status: 'DECLINED' }),
        async (loan, item) => await tell.step(loan, item, 'decline'),
      ),

    /** The borrower calls it off before the handover; a deposit already asked for is given back. */
    cancel: async (actor: Actor, id: string, version?: number) =>
      await step(
        actor,
        id,
        'cancel',
        version,
        (l) => l.status === 'CANCELLED',
        async (loan, item) => ({
          status: 'CANCELLED',
          ...(loan.depositChargeId ? { depositRefundId: await deposits.release(loan, item.title) } : {}),
        }),
        async (loan, item) => await tell.step(loan, item, 'cancel'),
      ),

    /** The lender changes the contract (dates, condition on handover); both confirm again. */
    terms: async (actor: Actor, id: string, input: LoanTermsRequest, version?: number) =>
      await step(
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
            assertSpan(span)
            await assertFree(loan.itemId, span, loan.id)
          }
          return {
            ...span,
            ...(input.conditionOut !== undefined ? { conditionOut: input.conditionOut.trim() } : {}),
            lenderConfirmedAt: null,
            borrowerConfirmedAt: null,
            lenderConfirmedBy: null,
          }
        },
        async (loan, item) => await tell.step(loan, item, 'terms'),
      ),

    /**
     * One party confirms the contract; the second confirmation makes it CONFIRMED and, when the item
     * has a deposit, asks for it on the borrower's agreement in the same transaction.
     */
    confirm: async (actor: Actor, id: string, version?: number) =>
      await step(
        actor,
        id,
        'confirm',
        version,
        (l, parties) =>
          parties.every((p) => (p === 'lender' ? l.lenderConfirmedAt : l.borrowerConfirmedAt) !== null) ||
          ['CONFIRMED', 'HANDED_OVER', 'RETURNED'].includes(l.status),
        async (loan, item, party, at) => {
          assertNotStarted(loan)
          if (party === 'borrower' && loan.depositOre && !(await deposits.canCollect(actor.userId, loan.companyId)))
            throw ruleViolation(m.loanDepositNeedsAgreement.id)
          const next = take(loan, 'confirm', party, at)!
          const fields: Partial<LoanRow> = {
            status: next.status,
            lenderConfirmedAt: next.lenderConfirmedAt,
            borrowerConfirmedAt: next.borrowerConfirmedAt,
            ...(party === 'lender' ? { lenderConfirmedBy: actor.fullName } : {}),
          }
          if (next.status === 'CONFIRMED' && loan.depositOre) {
            if (!loan.borrowerUserId || !(await deposits.canCollect(loan.borrowerUserId, loan.companyId))) throw ruleViolation(m.loanDepositNeedsAgreement.id)
            fields.depositChargeId = await deposits.collect(loan, item.title)
          }
          return fields
        },
        async (loan, item, party) => await tell.confirmed(loan, item, party),
      ),

    /** The lender records the handover and, optionally, the condition it left in (beside the contract's). */
    handover: async (actor: Actor, id: string, input: LoanHandoverRequest, version?: number) =>
      await step(
        actor,
        id,
        'handover',
        version,
        (l) => l.status === 'HANDED_OVER' || l.status === 'RETURNED',
        async (loan, _item, _party, at) => {
          // From the day before the first day (Copenhagen): not weeks ahead.
          const from = handoverFrom(loan.fromDate)
          if (todayInCopenhagen(clock) < from) throw new DomainError('BUSINESS_RULE', m.loanHandoverTooEarly.id, { values: { date: dayText(from) } })
          await planReminders(db, loan.id, loan.toDate, at)
          // Recorded beside the contract's condition, which both confirmed and which stays as it was.
          return { status: 'HANDED_OVER', handedOverAt: at, handoverCondition: input.condition?.trim() || null }
        },
        async (loan, item) => await tell.step(loan, item, 'handover'),
      ),

    /**
     * The lender records the return and its condition. Without damage the deposit goes back in full
     * (refunded if collected, cancelled if not yet); with damage it waits for the administration.
     */
    return: async (actor: Actor, id: string, input: LoanReturnRequest, version?: number) =>
      await step(
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
            ...(loan.depositChargeId && !damage ? { depositRefundId: await deposits.release(loan, item.title) } : {}),
          }
        },
        async (loan, item) => await tell.step(loan, item, 'return'),
      ),

    /** The association's administration settles a deposit held for damage: refunds part or all of it (at most the deposit). */
    async settleDeposit(actor: Actor, id: string, input: DepositSettleRequest, version?: number): Promise<Loan> {
      const { loan, item } = await access.readableLoan(actor, id)
      const role = roleIn(actor, loan.companyId)
      if (!(role && isCompanyAdminStaff(role))) throw forbidden()
      // A party of the loan (the borrower, or the member who lends the item) does not settle it.
      if (loan.borrowerUserId === actor.userId || (item.lenderKind === 'MEMBER' && loan.lenderUserId === actor.userId))
        throw forbidden(m.loanSettleOwnDeposit.id)
      if (loan.status !== 'RETURNED' || !loan.damageNote || !loan.depositChargeId || loan.depositRefundId) throw invalidState(m.loanDepositNotHeld.id)
      // Only a collected deposit is settled: one still queued or failed would be recorded as kept and never given back.
      if ((await deposits.states([loan])).get(loan.id) !== 'HELD') throw ruleViolation(m.loanDepositNotCollected.id)
      if (version !== undefined && version !== loan.version) throw versionConflict(await viewOne(actor, loan))
      if (input.refundOre > (loan.depositOre ?? 0)) throw ruleViolation(m.loanRefundTooLarge.id, 'refundOre')
      await companies.assertWritable(loan.companyId)
      // KEPT: nothing refunded (0 asked for, or nothing left of the charge after ordinary refunds).
      const refundId = input.refundOre === 0 ? 'KEPT' : ((await deposits.refundPart(loan, input.refundOre, item.title)) ?? 'KEPT')
      if (!(await repo.stepLoan(db, id, loan.version, { depositRefundId: refundId, updatedAt: now() })))
        throw versionConflict(await viewOne(actor, (await repo.loan(db, id))!))
      const updated = (await repo.loan(db, id))!
      await changed(updated)
      return await viewOne(actor, updated)
    },

    /**
     * The `lending` job's deposit sweep (server/main.ts): a deposit collected although its loan ended
     * without damage (the cancel came too late or Vipps refused it) is refunded in full, each loan in
     * its own transaction; the refund's id is made from the loan's, so it is issued once. When
     * ordinary refunds already gave all of it back, the loan records that (BILLING) instead.
     */
    async sweepDeposits(limit = 100): Promise<number> {
      let refunded = 0
      for (const found of await repo.depositsToGiveBack(db, limit))
        await transaction(db, async () => {
          const loan = await repo.loan(db, found.id)
          if (!loan || loan.depositRefundId) return
          const item = (await repo.item(db, loan.itemId))!
          const refundId = (await deposits.release(loan, item.title)) ?? 'BILLING'
          if (!(await repo.stepLoan(db, loan.id, loan.version, { depositRefundId: refundId, updatedAt: now() }))) return
          await changed((await repo.loan(db, loan.id))!)
          refunded += 1
        })
      return refunded
    },

    /** Whether the borrower-to-be can pay the item's deposit (the screen says why not beforehand). */
    canPayDeposit: async (actor: Actor, companyId: string) => await deposits.canCollect(actor.userId, companyId),

    /** Sync: the loans of the associations the actor is a member of (others' without their contract). */
    syncEntity(): SyncedEntity {
      const synced = async (actor: Actor, rows: LoanRow[]) =>
        (await views(actor, rows)).map((l) => ({ id: l.id, version: l.version, data: l as unknown as Record<string, unknown> }))
      return {
        name: 'loan',
        snapshot: async (db, actor, afterId, limit) => await synced(actor, await repo.loanSyncPage(db, await access.scopeOf(actor), afterId, limit)),
        load: async (db, actor, ids) => await synced(actor, await repo.loansByIds(db, await access.scopeOf(actor), ids)),
      }
    },
  }
}
