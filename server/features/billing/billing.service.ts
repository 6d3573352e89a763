import type { Logger } from 'pino'
import type { Database_ } from '../../db/client'
import { DomainError, conflict, invalidState, notFound, ruleViolation, validation } from '../../errors'
import { todayInCopenhagen, type Clock } from '../../lib/clock'
import { newBulkId, newId } from '../../lib/ids'
import type { WriteLock } from '../../lib/write-lock'
import type { DebtorPage, MarkPaidRequest, OneTimeChargeRequest, Refund, RefundRequest, RetryRequest, WriteOffRequest } from '../../../shared/contract/billing'
import type { Charge } from '../../../shared/contract/agreements'
import { localeOf } from '../../../shared/contract/common'
import { formatKroner } from '../../../shared/domain/money'
import { anchorDayOf, daysBetween, nextPaymentDate, plusDays } from '../../../shared/domain/billing-period'
import { copenhagenDateOf } from '../../../shared/domain/copenhagen'
import { lineShares } from '../../../shared/domain/invoice'
import { regularChargeAllowed } from '../../../shared/domain/termination'
import { messages } from '../../../shared/i18n-messages'
import type { Actor } from '../../access/actor'
import { assertAgreementAdmin, canReadAgreement } from '../../access/policy'
import type { AgreementsService } from '../agreements'
import type { CompaniesService } from '../companies'
import type { NoticesService } from '../notifications'
import type { UsersService } from '../users'
import { billingRepository as st, type CompanySnapshot, type DueAgreement, type DueCursor } from './billing.repository'
import { chargesRepository } from './charges.repository'
import type { ChargesService } from './charges.service'
import { invoicesRepository, type InvoiceRow } from './invoices.repository'
import { creditNoteLines, linesLeft } from './credit-lines'
import { DebtorActions, type parseDebtorQuery } from './debtors.service'
import { createOneTimeCharges, type OneTimeCharges } from './one-time-charge'
import { UNIT_OF_PERIOD, type FaultPoint, type Invoicing, type LineSource } from './invoicing'
import { transaction } from '../../db/client'
import { queueProviderCall } from '../../integrations/vipps/provider-outbox'
import { writeChange } from '../sync'
import { assertMoneyDate } from '../bookkeeping'

export interface BillingConfig {
  /** Regular charges are created this many days before they are due (Vipps needs at least 1). */
  leadDays: number
  /** Days after a charge failed on which the member gets a reminder (default 3 and 10). */
  reminderDays: number[]
  /** Days after a charge failed on which the agreement is flagged for debt collection. */
  debtCollectionDays: number
  /** Agreements per transaction in a billing run. */
  batchSize: number
  /** At most this many periods are caught up per agreement in one run (a DAILY agreement after a long outage). */
  maxCatchUpPeriods: number
}

export const defaultBillingConfig: BillingConfig = { leadDays: 3, reminderDays: [3, 10], debtCollectionDays: 30, batchSize: 500, maxCatchUpPeriods: 400 }

/**
 * Page cache of a large billing run, in KiB (negative: SQLite's unit for KiB). 32 MiB: at 300,000
 * agreements the run took the same CPU time with 16, 32 or 64 MiB (bench/billing.ts), and the
 * cache is most of what the run adds to the process's memory.
 */
const BIG_RUN_CACHE_KIB = -32768
/** WAL pages between automatic checkpoints during a large run (SQLite's default is 1,000). */
const BIG_RUN_CHECKPOINT_PAGES = 20_000
/** PostgreSQL: how long a batch waits (plus up to as much again) while another process's batch has the turn. */
const TURN_WAIT_MS = 50

type AgreementRow = NonNullable<Awaited<ReturnType<AgreementsService['rowOf']>>>
type Locale = ReturnType<typeof localeOf>

export interface BillingServiceDeps {
  database: Database_
  clock: Clock
  /**
   * The clock of the provider-outbox sender (the server's own). Billing may follow another
   * (the built-in emulator's business clock, moved in demos); outbox rows are due by this one.
   */
  sendClock?: Clock
  lock: WriteLock
  log: Logger
  agreements: AgreementsService
  charges: ChargesService
  invoicing: Invoicing
  companies: CompaniesService
  users: UsersService
  notices: NoticesService
  config?: Partial<BillingConfig>
  /** Tests: called at named points of a billing run to simulate a crash there. */
  faultPoint?: FaultPoint
}

/** What one billing run knows across its batches. */
interface RunState {
  today: string
  horizon: string
  companyCache: Map<string, CompanySnapshot | undefined>
  /** Agreements whose catch-up stopped early: skipped when met again in the same run. */
  seen: Set<string>
}

/** What one committed batch of a billing run did. */
interface BatchResult {
  read: number
  created: number
  agreementsBilled: number
  stillDue: string[]
  next: DueCursor
}

/** One agreement as a billing period of it is billed. */
interface AgreementToBill {
  a: DueAgreement
  company: CompanySnapshot
  member: NonNullable<ReturnType<typeof st.memberOf>>
  today: string
  now: string
  /** The invoice lines of one period, read at the first charge created. */
  lines?: LineSource[]
}

const descriptionOf = (company: CompanySnapshot, externalSeq: number, due: string) => `${company.acronym} ${externalSeq} ${due}`.slice(0, 45)

const moneyText = (locale: Locale, ore: number) => formatKroner(ore, locale)

/**
 * The billing engine (docs/DOMAIN.md "Billing rules"):
 * - `run()` creates every due REGULAR charge `leadDays` before it is due, with its invoice and
 *   its provider-outbox row, and advances the agreement's next payment date, catching up missed
 *   periods. One transaction per batch of agreements; each agreement is read again inside it and
 *   the unique (agreement, due) index stops a second charge, so a crash, a re-run or a second
 *   process never bills twice, and invoice numbers (taken in the same transaction) never skip.
 * - one-time charges and refunds (a refund issues a credit note) are recorded and queued for Vipps;
 * - a FAILED charge's invoice goes through the overdue steps (reminders, debt collection).
 * Invoices are issued and follow their charge in invoicing.ts; charges are charges.service.ts's.
 */
export class BillingService {
  readonly config: BillingConfig
  private readonly db: Database_['db']
  private readonly oneTime: OneTimeCharges
  private readonly debtorActions: DebtorActions

  constructor(private readonly deps: BillingServiceDeps) {
    this.db = deps.database.db
    this.config = { ...defaultBillingConfig, ...deps.config }
    this.oneTime = createOneTimeCharges({ clock: deps.clock, charges: deps.charges })
    this.debtorActions = new DebtorActions({
      database: deps.database,
      clock: deps.clock,
      sendClock: deps.sendClock ?? deps.clock,
      agreements: deps.agreements,
      charges: deps.charges,
      invoicing: deps.invoicing,
      companies: deps.companies,
      users: deps.users,
      oneTime: this.oneTime,
      config: this.config,
    })
  }

  private nowIso() {
    return this.deps.clock.now().toISOString()
  }

  private sendNow() {
    return (this.deps.sendClock ?? this.deps.clock).now().toISOString()
  }

  private fault(point: Parameters<FaultPoint>[0]) {
    this.deps.faultPoint?.(point)
  }

  // ---- the billing run

  /** The agreement's company, read once per run. */
  private async companyOf(companyId: string, companyCache: Map<string, CompanySnapshot | undefined>) {
    if (!companyCache.has(companyId)) companyCache.set(companyId, await st.company(this.db, companyId))
    return companyCache.get(companyId)
  }

  /**
   * Bills one agreement (its row read in the batch's transaction); returns the number of charges
   * created and whether its next payment date is still within the horizon (the catch-up stopped at
   * `maxCatchUpPeriods`, or at the termination).
   */
  private async billAgreement(
    a: DueAgreement,
    horizon: string,
    today: string,
    now: string,
    companyCache: Map<string, CompanySnapshot | undefined>,
  ): Promise<{ created: number; stillDue: boolean }> {
    const company = await this.companyOf(a.company_id, companyCache)
    const member = st.memberOf(a)
    if (!company || !member) return { created: 0, stillDue: false }
    // No regular charge on or after the termination date, nor for the days a termination's last
    // payment covers: it takes the place of the last period's charge (shared/domain/termination.ts).
    const termination = { terminationDate: a.termination_date, finalPaymentRequired: Boolean(a.final_payment_required) }
    const anchor = anchorDayOf(a.start_payment_date, a.next_regular_payment_date)
    const bill: AgreementToBill = { a, company, member, today, now }
    let next = firstPeriodToBill(a, today, anchor)
    let created = 0
    for (let i = 0; next <= horizon && i < this.config.maxCatchUpPeriods; i++) {
      if (termination.terminationDate && !regularChargeAllowed(next, nextPaymentDate(next, a.payment_period, anchor), termination)) break
      if (await this.billPeriod(bill, next)) created++
      next = nextPaymentDate(next, a.payment_period, anchor)
    }
    if (next !== a.next_regular_payment_date) {
      await st.advanceAgreement(this.db, a.id, next, now)
      await writeChange(this.db, 'agreement', a.id, 'upsert', { companyId: a.company_id, userId: a.member_user_id }, now)
      this.fault('agreement')
    }
    return { created, stillDue: next <= horizon }
  }

  /**
   * The REGULAR charge of one period due `due`, with its invoice, its provider-outbox row and its
   * change-log row; false when the agreement already has a charge due that day.
   */
  private async billPeriod(bill: AgreementToBill, due: string): Promise<boolean> {
    const { a, company, member, today, now } = bill
    const { db } = this
    const chargeId = newBulkId()
    const invoiceId = newBulkId()
    const description = descriptionOf(company, a.external_seq, due)
    const inserted = await st.insertRegularCharge(db, {
      id: chargeId,
      agreementId: a.id,
      companyId: a.company_id,
      amountOre: a.price_ore,
      description,
      due,
      invoiceId,
      now,
    })
    if (!inserted) return false
    this.fault('charge')
    bill.lines ??= await this.deps.invoicing.partLines(a.id, UNIT_OF_PERIOD[a.payment_period])
    await this.deps.invoicing.issue({
      kind: 'INVOICE',
      id: invoiceId,
      agreement: { id: a.id, companyId: a.company_id, memberUserId: a.member_user_id },
      chargeId,
      description,
      lines: bill.lines,
      company,
      member,
      paymentType: 'REGULAR',
      chargeDue: due,
      now,
      today,
    })
    await queueProviderCall(db, {
      id: newBulkId(),
      providerId: a.payment_provider_id,
      agreementId: a.id,
      chargeId,
      kind: 'CREATE_CHARGE',
      payload: {},
      at: this.sendNow(),
    })
    this.fault('outbox')
    await writeChange(db, 'charge', chargeId, 'upsert', { companyId: a.company_id, userId: a.member_user_id }, now)
    return true
  }

  /**
   * One batch; returns the number of agreements read (fewer than `batchSize`: the run is done), or
   * undefined when another process's batch has the turn (PostgreSQL). It may run twice (a
   * SERIALIZABLE transaction PostgreSQL gave up on runs again), so what it learns is returned and
   * kept only once it has committed.
   */
  private batch(state: RunState, after: DueCursor): Promise<BatchResult | undefined> {
    const { db } = this
    return transaction(db, async () => {
      if (!(await st.takeBatchTurn(db))) return undefined
      const now = this.nowIso()
      const rows = await st.dueBatch(db, state.horizon, after, this.config.batchSize)
      let created = 0
      let agreementsBilled = 0
      const stillDue: string[] = []
      for (const a of rows) {
        if (state.seen.has(a.id)) continue
        const n = await this.billAgreement(a, state.horizon, state.today, now, state.companyCache)
        created += n.created
        if (n.created > 0) agreementsBilled++
        if (n.stillDue) stillDue.push(a.id)
      }
      const last = rows.at(-1)
      return {
        read: rows.length,
        created,
        agreementsBilled,
        stillDue,
        next: last ? { date: last.next_regular_payment_date, id: last.id } : after,
      }
    })
  }

  /**
   * One billing run: every due agreement, in batches of `batchSize`, each batch one write
   * transaction under the write lock (requests wait at most one batch). Each batch reads its
   * agreements inside its transaction, from where the previous one stopped (a keyset on next
   * payment date and id), so the run holds one batch in memory whatever the number due, and
   * what another process billed meanwhile is no longer due when read. A billed agreement moves
   * past the horizon, behind the keyset; one whose catch-up stopped early (`maxCatchUpPeriods`, a
   * termination) may move ahead of it and is skipped when met again, so the cap holds per run.
   */
  async run(): Promise<{ agreements: number; charges: number }> {
    const today = todayInCopenhagen(this.deps.clock)
    const state: RunState = { today, horizon: plusDays(today, this.config.leadDays), companyCache: new Map(), seen: new Set() }
    let chargesCreated = 0
    let billed = 0
    let cursor: DueCursor = { date: '', id: '' }
    // A bigger page cache once a run turns out large (charges, invoices, lines, outbox and
    // change-log indexes all grow at once); given back afterwards. Checkpoints less often too:
    // every page the run touches is then copied back once, not many times. SQLite's own settings
    // (PostgreSQL's are the server's).
    const sqlite = this.deps.database.sqlite
    const cacheSize = sqlite?.pragma('cache_size', { simple: true }) as number
    const autoCheckpoint = sqlite?.pragma('wal_autocheckpoint', { simple: true }) as number
    try {
      for (let full = 0; ;) {
        // Counted only once the batch has committed: a failed batch rolls back all it wrote.
        const done = await this.deps.lock.run(() => this.batch(state, cursor))
        if (!done) {
          // Another process's batch runs: try again shortly, from the same place.
          await new Promise((resolve) => setTimeout(resolve, TURN_WAIT_MS * (1 + Math.random())))
          continue
        }
        for (const id of done.stillDue) state.seen.add(id)
        chargesCreated += done.created
        billed += done.agreementsBilled
        cursor = done.next
        if (done.read < this.config.batchSize) break
        if (++full === 1 && sqlite) {
          sqlite.pragma(`cache_size = ${BIG_RUN_CACHE_KIB}`)
          sqlite.pragma(`wal_autocheckpoint = ${BIG_RUN_CHECKPOINT_PAGES}`)
        }
      }
    } finally {
      if (sqlite) {
        sqlite.pragma(`cache_size = ${cacheSize}`)
        sqlite.pragma(`wal_autocheckpoint = ${autoCheckpoint}`)
      }
    }
    if (chargesCreated) this.deps.log.info({ agreements: billed, charges: chargesCreated }, 'billing run')
    return { agreements: billed, charges: chargesCreated }
  }

  // ---- charges follow Vipps: invoice status, overdue

  /**
   * Overdue steps: reminders on the configured days after a charge failed, then the flag for debt
   * collection. While the charge's invoice is unpaid (decision 0042: a later month collected does not
   * settle it; a retry that collected, paid outside Vipps or a write-off does); each step once per
   * failed charge, counted from the invoice's own charge (a failed retry starts no second series).
   */
  async overdueSteps(): Promise<number> {
    const { db, config } = this
    const { charges, agreements } = this.deps
    const today = todayInCopenhagen(this.deps.clock)
    const steps = [...config.reminderDays].sort((x, y) => x - y)
    let taken = 0
    const due = await st.overdueCandidates(
      db,
      steps.map((d) => plusDays(today, -d)),
      plusDays(today, -config.debtCollectionDays),
    )
    for (const id of due) {
      const charge = (await charges.row(id))!
      const a = await agreements.rowOf(charge.agreementId)
      if (!a) continue
      const days = daysBetween(charge.failedOn!, today)
      let step = charge.overdueStep
      let reminder = 0
      while (step < steps.length && days >= steps[step]!) reminder = ++step
      const collect = days >= config.debtCollectionDays && step <= steps.length && a.debtCollectionSince === null
      if (reminder === charge.overdueStep && !collect) continue
      const values = { externalId: String(a.externalSeq), due: charge.due, days: String(days) }
      if (reminder > charge.overdueStep) await this.remind(a, values)
      if (collect) {
        step = steps.length + 1
        await this.toDebtCollection(a, values)
      }
      await chargesRepository.update(db, charge.id, { overdueStep: step })
      taken++
    }
    return taken
  }

  /** The overdue step's reminder to the member. */
  private async remind(a: AgreementRow, values: Record<string, string>) {
    await this.deps.notices.tell(a.memberUserId, {
      type: 'warning',
      title: /*i18n*/ { id: 'Reminder: payment for agreement {externalId} is overdue' },
      message: /*i18n*/ {
        id: 'The payment due {due} for agreement {externalId} is still not paid ({days} days). Please contact the association or make sure it can be paid in Vipps MobilePay.',
      },
      values,
      actionUrl: `/agreements/${a.id}`,
      actionText: /*i18n*/ { id: 'Open agreement' },
    })
  }

  /** The last overdue step: the agreement is flagged for debt collection, told to the member and the company's admin staff. */
  private async toDebtCollection(a: AgreementRow, values: Record<string, string>) {
    await this.deps.agreements.flagDebtCollection(a)
    for (const userId of [a.memberUserId, ...(await st.adminStaffOf(this.db, a.companyId)).filter((u) => u !== a.memberUserId)])
      await this.deps.notices.tell(userId, {
        type: 'error',
        title: /*i18n*/ { id: 'Agreement {externalId} goes to debt collection' },
        message: /*i18n*/ {
          id: "The payment due {due} for agreement {externalId} is {days} days overdue and has been handed to the association's debt-collection process.",
        },
        values,
        actionUrl: `/agreements/${a.id}`,
        actionText: /*i18n*/ { id: 'Open agreement' },
      })
  }

  /** The job: bill what is due, then take the overdue steps. */
  async tick(): Promise<void> {
    await this.run()
    await this.deps.lock.run(() => transaction(this.db, async () => this.overdueSteps()))
  }

  // ---- one-time charges and refunds

  private async staffAgreement(actor: Actor, agreementId: string) {
    const a = await this.deps.agreements.rowOf(agreementId)
    if (!a || !canReadAgreement(actor, a)) throw notFound(messages.agreementNotFound.id)
    assertAgreementAdmin(actor, a.companyId, { ownAgreement: a.memberUserId === actor.userId })
    await this.deps.companies.assertWritable(a.companyId)
    return a
  }

  private async refundView(outboxId: string): Promise<Refund> {
    const note = (await invoicesRepository.byRefundId(this.db, outboxId))!
    return {
      id: outboxId,
      agreementId: note.agreementId,
      chargeId: note.chargeId,
      amount: note.totalOre,
      currency: 'DKK',
      description: note.description,
      status:
        note.status === 'EXECUTED' ? 'EXECUTED'
        : note.status === 'FAILED' ? 'FAILED'
        : 'PENDING',
      creditNote: { id: note.id, invoiceNumber: String(note.number) },
      createdAt: note.createdAt,
    }
  }

  /**
   * An extra charge on an ACCEPTED agreement (docs/PRODUCT.md §2, docs/DOMAIN.md: UNSCHEDULED), due tomorrow
   * (Vipps needs a day), with its invoice, queued for Vipps.
   */
  async requestOneTimeCharge(actor: Actor, agreementId: string, input: OneTimeChargeRequest): Promise<Charge> {
    const a = await this.staffAgreement(actor, agreementId)
    if (input.id) {
      const existing = await this.deps.charges.row(input.id)
      if (existing) {
        if (existing.agreementId === a.id && existing.kind === 'ONE_TIME' && existing.amountOre === input.amount && existing.description === input.description)
          return (await this.deps.charges.views([existing]))[0]!
        throw conflict(messages.billingRecordExists.id)
      }
    }
    if (a.status !== 'ACCEPTED' || !a.vippsAgreementId || a.terminationDate) throw invalidState(messages.oneTimeChargeNeedsAccepted.id)
    return this.oneTime.create(a, { id: input.id, amount: input.amount, description: input.description })
  }

  /**
   * A refund of (part of) a collected charge (docs/PRODUCT.md §2/§5, docs/DOMAIN.md): at most what was captured
   * minus the refunds already requested. Issues a credit note referencing the charge's invoice
   * and queues the refund for Vipps with the refund's id as Idempotency-Key. The amount goes to
   * the invoice lines the treasurer chose (decision 0044; none chosen: every line), in proportion to
   * what is left on each, never more than a line has left; each credit-note line carries the
   * description of the line it credits.
   */
  async refund(actor: Actor, agreementId: string, input: RefundRequest): Promise<Refund> {
    const a = await this.staffAgreement(actor, agreementId)
    return await this.issueRefund(a, input, localeOf(actor.language))
  }

  /**
   * A refund of (part of) a collected charge of agreement `a` (docs/PRODUCT.md §2/§5, docs/DOMAIN.md): at most what
   * was captured minus the refunds already requested. Issues a credit note referencing the charge's
   * invoice and queues the refund for Vipps with the refund's id as Idempotency-Key. The amount goes
   * to the invoice lines chosen (decision 0044; none chosen: every line), in proportion to what is left
   * on each, never more than a line has left; each credit-note line carries the description of the
   * line it credits. No actor: the staff route checks who asks, a loan's deposit (lending) needs no
   * staff. `locale` writes the amounts in refusals. The same `id` again answers the stored refund.
   */
  async issueRefund(a: AgreementRow, input: RefundRequest, locale: Locale): Promise<Refund> {
    if (input.id && (await this.isStoredRefund(input.id, input))) return this.refundView(input.id)
    const charge = await this.deps.charges.row(input.chargeId)
    if (!charge || charge.agreementId !== a.id) throw notFound(messages.chargeNotFound.id)
    if (charge.status !== 'EXECUTED' || charge.capturedOre <= 0 || !charge.invoiceId) throw ruleViolation(messages.refundNeedsExecuted.id, 'chargeId')
    const requested = await invoicesRepository.creditedOfCharge(this.db, charge.id)
    const left = Math.max(0, charge.capturedOre - Math.max(requested, charge.refundedOre))
    if (input.amount > left) throw new DomainError('BUSINESS_RULE', messages.refundTooLarge.id, { values: { amount: moneyText(locale, left) } })
    const original = (await invoicesRepository.byId(this.db, charge.invoiceId))!
    const lines = await this.refundLines(original, input, locale)
    const now = this.nowIso()
    const today = todayInCopenhagen(this.deps.clock)
    // The credit note is a new voucher of today (decision 0079): in an open month, never before the invoice it credits.
    await assertMoneyDate(this.db, { companyId: original.companyId, issueDate: original.issueDate, paymentDate: null, settledOn: null }, today)
    const refundId = input.id ?? newId()
    await this.deps.invoicing.issue({
      kind: 'CREDIT_NOTE',
      agreement: { id: a.id, companyId: a.companyId, memberUserId: a.memberUserId },
      chargeId: charge.id,
      description: input.description,
      lines,
      company: { id: original.companyId, name: original.companyName, acronym: '', cvr: original.companyCvr, address: original.companyAddress },
      member: {
        name: original.consumerName,
        email: original.consumerEmailAddress,
        phone: original.consumerPhoneNumber,
        address: original.consumerAddress,
        language: 'EN',
      },
      paymentType: 'REFUND',
      creditedInvoiceId: original.id,
      refundId,
      chargeDue: today,
      now,
      today,
    })
    await queueProviderCall(this.db, {
      id: refundId,
      providerId: a.paymentProviderId,
      agreementId: a.id,
      chargeId: charge.id,
      kind: 'REFUND_CHARGE',
      payload: { amount: input.amount, description: input.description },
      at: this.sendNow(),
    })
    return this.refundView(refundId)
  }

  /** Whether the refund `id` is already stored as this request; 409 when stored as another. */
  private async isStoredRefund(id: string, input: RefundRequest): Promise<boolean> {
    const existing = await invoicesRepository.byRefundId(this.db, id)
    if (!existing) return false
    if (existing.chargeId === input.chargeId && existing.totalOre === input.amount && existing.description === input.description) return true
    throw conflict(messages.billingRecordExists.id)
  }

  /**
   * The credit-note lines of a refund: the amount over the invoice lines chosen, in proportion to
   * what is left on each (none chosen: every line); 400 for a line not on the invoice, a business
   * rule refusal when the lines have less left than the amount.
   */
  private async refundLines(original: InvoiceRow, input: RefundRequest, locale: Locale): Promise<LineSource[]> {
    const perLine = await linesLeft(this.db, original.id)
    const chosen = input.lines?.map((articleId) => perLine.findIndex(({ line }) => line.id === articleId))
    if (chosen?.some((i) => i < 0)) throw validation([{ path: 'lines', message: messages.refundLineInvalid.id }])
    const shares =
      perLine.length ?
        lineShares(
          perLine.map((l) => l.left),
          input.amount,
          chosen,
        )
      : []
    if (!shares) {
      const picked = chosen?.length ? chosen : perLine.map((_, i) => i)
      const available = picked.reduce((s, i) => s + perLine[i]!.left, 0)
      throw new DomainError('BUSINESS_RULE', messages.refundTooLargeForLines.id, {
        values: { amount: moneyText(locale, available) },
        issues: [{ path: 'amount', message: messages.refundTooLargeForLines.id, values: { amount: moneyText(locale, available) } }],
      })
    }
    return perLine.length ?
        creditNoteLines(perLine, shares)
      : [{ type: 'OTHER', description: input.description, grossOre: input.amount, vatRate: 0, unit: 'PIECE' }]
  }

  // ---- debtors (debtors.service.ts)

  /** The debtor overview: a company's unpaid invoices, a page at a time (DebtorActions.debtors). */
  async debtors(actor: Actor, query: ReturnType<typeof parseDebtorQuery>): Promise<DebtorPage> {
    return await this.debtorActions.debtors(actor, query)
  }

  /** Retry an unpaid invoice: a new ONE_TIME charge for what is owed (DebtorActions.retry). */
  async retry(actor: Actor, invoiceId: string, input: RetryRequest): Promise<Charge> {
    return await this.debtorActions.retry(actor, invoiceId, input)
  }

  /** The member paid an unpaid invoice another way (DebtorActions.markPaidOutside). */
  async markPaidOutside(actor: Actor, invoiceId: string, input: MarkPaidRequest): Promise<InvoiceRow> {
    return await this.debtorActions.markPaidOutside(actor, invoiceId, input)
  }

  /** Write off an unpaid invoice with a credit note for what is owed (DebtorActions.writeOff). */
  async writeOff(actor: Actor, invoiceId: string, input: WriteOffRequest): Promise<InvoiceRow> {
    return await this.debtorActions.writeOff(actor, invoiceId, input)
  }

  /** Writes off an unpaid invoice without the staff check (DebtorActions.writeOffInvoice; lending's loan deposits). */
  async writeOffInvoice(...args: Parameters<DebtorActions['writeOffInvoice']>): Promise<InvoiceRow> {
    return await this.debtorActions.writeOffInvoice(...args)
  }
}

export const createBillingService = (deps: BillingServiceDeps) => new BillingService(deps)

/**
 * The first period date to bill. Catch-up is for periods missed while the agreement existed
 * (downtime), never for a start before it (decision 0034): the API refuses a past start date, and
 * a row imported with one is billed from its first period date on or after the day it was created.
 */
function firstPeriodToBill(a: DueAgreement, today: string, anchor: ReturnType<typeof anchorDayOf>): string {
  let next = a.next_regular_payment_date
  if (next < today) {
    const createdOn = copenhagenDateOf(new Date(a.created_at))
    while (next < createdOn) next = nextPaymentDate(next, a.payment_period, anchor)
  }
  return next
}
