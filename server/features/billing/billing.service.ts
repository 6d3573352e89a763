import { and, eq, inArray, sum } from 'drizzle-orm'
import type { Logger } from 'pino'
import type { Database_ } from '../../db/client'
import { charges as chargesTable, agreements as agreementsTable, providerOutbox } from '../../db/schema/agreements'
import { invoices, invoiceLines } from '../../db/schema/invoices'
import { users } from '../../db/schema/users'
import { DomainError, conflict, forbidden, invalidState, notFound, ruleViolation, validation } from '../../errors'
import { todayInCopenhagen, type Clock } from '../../lib/clock'
import { newBulkId, newId } from '../../lib/ids'
import type { WriteLock } from '../../lib/write-lock'
import {
  retryBlockerMessages,
  type Debtor,
  type DebtorPage,
  type MarkPaidRequest,
  type OneTimeChargeRequest,
  type Refund,
  type RefundRequest,
  type RetryBlocker,
  type RetryRequest,
  type WriteOffRequest,
} from '../../../shared/contract/billing'
import type { Charge } from '../../../shared/contract/agreements'
import { localeOf } from '../../../shared/contract/common'
import { formatKroner } from '../../../shared/domain/money'
import { translate } from '../../i18n/i18n'
import type { PartType, VatRate } from '../../../shared/domain/agreement-parts'
import type { ChargeStatus } from '../../../shared/domain/agreement-status'
import { anchorDayOf, daysBetween, nextPaymentDate, plusDays } from '../../../shared/domain/billing-period'
import { copenhagenDateOf } from '../../../shared/domain/copenhagen'
import { articleNumberOf, invoiceDueDate, invoiceStatusOfCharge, invoiceTotals, lineAmounts, lineShares, openAmountOf, type InvoiceSettlement } from '../../../shared/domain/invoice'
import { isCompanyAdminStaff } from '../../../shared/domain/roles'
import { regularChargeAllowed } from '../../../shared/domain/termination'
import { creditShares } from '../../../shared/domain/invoice'
import { messages } from '../../../shared/i18n-messages'
import type { Actor } from '../access/actor'
import { assertAgreementAdmin, canReadAgreement, isSuperAdmin, roleIn } from '../access/policy'
import { assertCompanyInScope } from '../access/company-scope'
import type { AgreementsService } from '../agreements/agreements.service'
import type { ChargeRow } from '../agreements/agreements.repository'
import type { CompaniesService } from '../companies/companies.service'
import { billingStatements, type CompanySnapshot, type MemberSnapshot } from './billing.repository'
import { debtorStatements } from './debtors.repository'

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

/** Page cache of a large billing run, in KiB (negative: SQLite's unit for KiB). */
const BIG_RUN_CACHE_KIB = -65536
/** WAL pages between automatic checkpoints during a large run (SQLite's default is 1,000). */
const BIG_RUN_CHECKPOINT_PAGES = 20_000

const UNIT_OF_PERIOD = { DAILY: 'DAY', WEEKLY: 'WEEK', MONTHLY: 'MONTH', YEARLY: 'YEAR' } as const

interface LineSource {
  type: PartType
  description: string
  grossOre: number
  vatRate: VatRate
  unit: string
  /** A credit note's line: the invoice line it credits (position and article number). */
  credits?: { position: number; articleNumber: string }
}

type InvoiceRow = typeof invoices.$inferSelect

export type BillingService = ReturnType<typeof createBillingService>

/**
 * The billing engine (issue #8, DOMAIN.md "Billing rules"):
 * - `run()` creates every due REGULAR charge `leadDays` before it is due, with its invoice and
 *   its provider-outbox row, and advances the agreement's next payment date, catching up missed
 *   periods. One transaction per batch of agreements; each agreement is read again inside it and
 *   the unique (agreement, due) index stops a second charge, so a crash, a re-run or a second
 *   process never bills twice, and invoice numbers (taken in the same transaction) never skip.
 * - one-time charges and refunds (a refund issues a credit note) are recorded and queued for Vipps;
 * - invoices follow their charge's status; a FAILED charge starts the overdue steps.
 */
export function createBillingService(deps: {
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
  companies: CompaniesService
  config?: Partial<BillingConfig>
  /** Tests: called at named points of a billing run to simulate a crash there. */
  faultPoint?: (point: 'charge' | 'invoice' | 'outbox' | 'agreement') => void
}) {
  const { database, clock, lock, log, agreements, companies } = deps
  const { db, sqlite } = database
  const config = { ...defaultBillingConfig, ...deps.config }
  const st = billingStatements(sqlite)
  const nowIso = () => clock.now().toISOString()
  const sendNow = () => (deps.sendClock ?? clock).now().toISOString()
  const fault = deps.faultPoint ?? (() => {})

  // ---- invoices

  function issue(input: {
    kind: 'INVOICE' | 'CREDIT_NOTE'
    id?: string
    agreement: { id: string; companyId: string; memberUserId: string }
    chargeId: string
    description: string
    lines: LineSource[]
    company: CompanySnapshot
    member: MemberSnapshot
    paymentType: string
    creditedInvoiceId?: string | null
    refundId?: string | null
    /** An invoice: its charge's due date, which becomes the invoice's (one rule, `invoiceDueDate`). */
    chargeDue: string
    status?: 'CREATED'
    now: string
    today: string
  }): { id: string; number: number } {
    const id = input.id ?? newBulkId()
    const number = st.nextInvoiceNumber(input.agreement.companyId)
    fault('invoice')
    const totals = invoiceTotals(input.lines)
    st.insertInvoice({
      id,
      companyId: input.agreement.companyId,
      kind: input.kind,
      number,
      agreementId: input.agreement.id,
      chargeId: input.chargeId,
      memberUserId: input.agreement.memberUserId,
      creditedInvoiceId: input.creditedInvoiceId ?? null,
      refundId: input.refundId ?? null,
      issueDate: input.today,
      dueDate: invoiceDueDate({ kind: input.kind, chargeDue: input.chargeDue, issueDate: input.today }),
      status: 'CREATED',
      description: input.description,
      company: input.company,
      member: input.member,
      ...totals,
      paymentType: input.paymentType,
      now: input.now,
    })
    input.lines.forEach((l, position) => {
      const a = lineAmounts(l)
      st.insertLine({
        invoiceId: id, position, id: `${id}:${position}`, articleNumber: l.credits?.articleNumber ?? articleNumberOf(position), type: l.type, description: l.description,
        unit: l.unit, vatRate: l.vatRate, ...a, creditedPosition: l.credits?.position ?? null,
      })
    })
    st.recordChange('invoice', id, input.agreement.companyId, input.agreement.memberUserId, input.now)
    return { id, number }
  }

  const partLines = (agreementId: string, unit: string): LineSource[] =>
    st.parts(agreementId).map((p) => ({ type: p.type, description: p.description, grossOre: p.price_ore, vatRate: p.vat_rate as VatRate, unit }))

  function snapshots(agreement: { id: string; companyId: string; memberUserId: string }) {
    const company = st.company(agreement.companyId)
    const member = st.member(agreement.memberUserId, agreement.id)
    if (!company || !member) throw new Error(`billing: agreement ${agreement.id} lacks its company or member`)
    return { company, member }
  }

  /** The invoice of a charge made elsewhere (a FINAL charge of a termination), in its transaction. */
  function issueForCharge(charge: ChargeRow) {
    if (charge.invoiceId) return
    const a = agreements.rowOf(charge.agreementId)!
    const lines: LineSource[] =
      charge.kind === 'ONE_TIME'
        ? [{ type: 'OTHER', description: charge.description, grossOre: charge.amountOre, vatRate: 0, unit: 'PIECE' }]
        : partLines(a.id, UNIT_OF_PERIOD[a.paymentPeriod])
    // A last payment for part of a period (or several) spreads its amount over the parts in proportion.
    const partsTotal = lines.reduce((sum, l) => sum + l.grossOre, 0)
    if (charge.kind === 'FINAL' && partsTotal !== charge.amountOre && partsTotal > 0) {
      const shares = creditShares(lines.map((l) => l.grossOre), charge.amountOre)
      lines.forEach((l, i) => (l.grossOre = shares[i]!))
    }
    const agreement = { id: a.id, companyId: a.companyId, memberUserId: a.memberUserId }
    const now = nowIso()
    const invoice = issue({ kind: 'INVOICE', agreement, chargeId: charge.id, description: charge.description, lines, ...snapshots(agreement), paymentType: charge.kind, chargeDue: charge.due, now, today: todayInCopenhagen(clock) })
    db.update(chargesTable).set({ invoiceId: invoice.id }).where(eq(chargesTable.id, charge.id)).run()
  }

  // ---- the billing run

  const descriptionOf = (company: CompanySnapshot, externalSeq: number, due: string) => `${company.acronym} ${externalSeq} ${due}`.slice(0, 45)

  /** Bills one agreement inside the batch transaction; returns the number of charges created. */
  function billAgreement(id: string, horizon: string, today: string, now: string, companyCache: Map<string, CompanySnapshot | undefined>): number {
    const a = st.dueAgreement(id, horizon)
    if (!a) return 0
    let company = companyCache.get(a.company_id)
    if (!companyCache.has(a.company_id)) {
      company = st.company(a.company_id)
      companyCache.set(a.company_id, company)
    }
    const member = st.memberOf(a)
    if (!company || !member) return 0
    // No regular charge on or after the termination date, nor for the days a termination's last
    // payment covers: it takes the place of the last period's charge (shared/domain/termination.ts).
    const termination = { terminationDate: a.termination_date, finalPaymentRequired: a.final_payment_required === 1 }
    const anchor = anchorDayOf(a.start_payment_date, a.next_regular_payment_date)
    const agreement = { id: a.id, companyId: a.company_id, memberUserId: a.member_user_id }
    let lines: LineSource[] | undefined
    let next = a.next_regular_payment_date
    // Catch-up is for periods missed while the agreement existed (downtime), never for a start
    // before it (issue #15): the API refuses a past start date, and a row imported with one is
    // billed from its first period date on or after the day it was created.
    if (next < today) {
      const createdOn = copenhagenDateOf(new Date(a.created_at))
      while (next < createdOn) next = nextPaymentDate(next, a.payment_period, anchor)
    }
    let created = 0
    for (let i = 0; next <= horizon && i < config.maxCatchUpPeriods; i++) {
      if (termination.terminationDate && !regularChargeAllowed(next, nextPaymentDate(next, a.payment_period, anchor), termination)) break
      const chargeId = newBulkId()
      const invoiceId = newBulkId()
      const description = descriptionOf(company, a.external_seq, next)
      if (st.insertRegularCharge({ id: chargeId, agreementId: a.id, companyId: a.company_id, amountOre: a.price_ore, description, due: next, invoiceId, now })) {
        fault('charge')
        lines ??= partLines(a.id, UNIT_OF_PERIOD[a.payment_period])
        issue({ kind: 'INVOICE', id: invoiceId, agreement, chargeId, description, lines, company, member, paymentType: 'REGULAR', chargeDue: next, now, today })
        st.insertOutbox({ id: newBulkId(), providerId: a.payment_provider_id, agreementId: a.id, chargeId, kind: 'CREATE_CHARGE', payload: {}, now: sendNow() })
        fault('outbox')
        st.recordChange('charge', chargeId, a.company_id, a.member_user_id, now)
        created++
      }
      next = nextPaymentDate(next, a.payment_period, anchor)
    }
    if (next !== a.next_regular_payment_date) {
      st.advanceAgreement(a.id, next, now)
      st.recordChange('agreement', a.id, a.company_id, a.member_user_id, now)
      fault('agreement')
    }
    return created
  }

  /**
   * One billing run: every due agreement, in batches of `batchSize`, each batch one write
   * transaction under the write lock (requests wait at most one batch).
   */
  async function run(): Promise<{ agreements: number; charges: number }> {
    const today = todayInCopenhagen(clock)
    const horizon = plusDays(today, config.leadDays)
    const ids = await lock.run(() => st.dueIds(horizon))
    const companyCache = new Map<string, CompanySnapshot | undefined>()
    let chargesCreated = 0
    let billed = 0
    const batch = sqlite.transaction((slice: string[]) => {
      const now = nowIso()
      for (const id of slice) {
        const n = billAgreement(id, horizon, today, now, companyCache)
        chargesCreated += n
        if (n > 0) billed++
      }
    })
    // A bigger page cache while the run writes (charges, invoices, lines, outbox and change-log
    // indexes all grow at once); given back afterwards.
    // Checkpoints less often too: every page the run touches is then copied back once, not many times.
    const cacheSize = sqlite.pragma('cache_size', { simple: true }) as number
    const autoCheckpoint = sqlite.pragma('wal_autocheckpoint', { simple: true }) as number
    if (ids.length > config.batchSize) {
      sqlite.pragma(`cache_size = ${BIG_RUN_CACHE_KIB}`)
      sqlite.pragma(`wal_autocheckpoint = ${BIG_RUN_CHECKPOINT_PAGES}`)
    }
    try {
      for (let i = 0; i < ids.length; i += config.batchSize) {
        const slice = ids.slice(i, i + config.batchSize)
        const before = { chargesCreated, billed }
        try {
          await lock.run(() => batch.immediate(slice))
        } catch (err) {
          chargesCreated = before.chargesCreated
          billed = before.billed
          throw err
        }
      }
    } finally {
      sqlite.pragma(`cache_size = ${cacheSize}`)
      sqlite.pragma(`wal_autocheckpoint = ${autoCheckpoint}`)
    }
    if (chargesCreated) log.info({ agreements: billed, charges: chargesCreated }, 'billing run')
    return { agreements: billed, charges: chargesCreated }
  }

  // ---- charges follow Vipps: invoice status, overdue

  function staffOf(companyId: string): string[] {
    return sqlite
      .prepare<[string], { user_id: string }>("SELECT user_id FROM company_members WHERE company_id = ? AND role IN ('CHAIRMAN', 'ADMINISTRATOR', 'ACCOUNTANT')")
      .all(companyId)
      .map((r) => r.user_id)
  }

  /**
   * The invoice follows its charge. A retry (a later charge on an earlier invoice, issue #16) moves
   * the invoice only when it collected the money: a retry that fails or is cancelled leaves the
   * invoice unpaid, as it was.
   */
  function followCharge(charge: ChargeRow, previous: ChargeStatus) {
    const now = nowIso()
    const today = todayInCopenhagen(clock)
    const invoice = charge.invoiceId
      ? db.select().from(invoices).where(and(eq(invoices.id, charge.invoiceId), eq(invoices.kind, 'INVOICE'))).get()
      : db.select().from(invoices).where(and(eq(invoices.chargeId, charge.id), eq(invoices.kind, 'INVOICE'))).get()
    const retry = invoice !== undefined && invoice.chargeId !== charge.id
    if (invoice && (!retry || charge.status === 'EXECUTED')) {
      db.update(invoices)
        .set({
          status: invoiceStatusOfCharge(charge.status),
          paymentStatus: charge.status,
          paymentDate: charge.status === 'EXECUTED' ? today : invoice.paymentDate,
          version: invoice.version + 1,
          updatedAt: now,
        })
        .where(eq(invoices.id, invoice.id))
        .run()
      agreements.recordInvoiceChange(invoice.id, invoice.companyId, invoice.memberUserId)
    }
    if ((charge.status === 'FAILED' || charge.status === 'DECLINED') && previous !== 'FAILED' && previous !== 'DECLINED') {
      db.update(chargesTable).set({ failedOn: today, overdueStep: 0 }).where(eq(chargesTable.id, charge.id)).run()
      const a = agreements.rowOf(charge.agreementId)!
      const values = { externalId: String(a.externalSeq), due: charge.due }
      agreements.tell(a.memberUserId, {
        type: 'error',
        title: /*i18n*/ { id: 'A payment failed' },
        message: /*i18n*/ { id: 'The payment due {due} for agreement {externalId} could not be collected. Please make sure it can be paid in Vipps MobilePay.' },
        values,
        actionUrl: `/agreements/${a.id}`,
        actionText: /*i18n*/ { id: 'Open agreement' },
      })
      for (const userId of staffOf(a.companyId))
        if (userId !== a.memberUserId)
          agreements.tell(userId, {
            type: 'warning',
            title: /*i18n*/ { id: 'Agreement {externalId} is overdue' },
            message: /*i18n*/ { id: 'The payment due {due} for agreement {externalId} failed.' },
            values,
            actionUrl: `/agreements/${a.id}`,
            actionText: /*i18n*/ { id: 'Open agreement' },
          })
    }
  }

  /**
   * Overdue steps: reminders on the configured days after a charge failed, then the flag for debt
   * collection. While the charge's invoice is unpaid (issue #16: a later month collected does not
   * settle it; a retry that collected, paid outside Vipps or a write-off does); each step once per
   * failed charge, counted from the invoice's own charge (a failed retry starts no second series).
   */
  function overdueSteps(): number {
    const today = todayInCopenhagen(clock)
    const steps = [...config.reminderDays].sort((x, y) => x - y)
    const candidates = sqlite
      .prepare<[number], { id: string }>(
        `SELECT c.id FROM charges c JOIN invoices i ON i.id = c.invoice_id AND i.charge_id = c.id AND i.kind = 'INVOICE'
         WHERE c.status IN ('FAILED', 'DECLINED') AND c.failed_on IS NOT NULL AND c.overdue_step <= ?
           AND i.settlement IS NULL AND i.status <> 'EXECUTED'`,
      )
      .all(steps.length)
    let taken = 0
    for (const { id } of candidates) {
      const charge = agreements.chargeRow(id)!
      const a = agreements.rowOf(charge.agreementId)
      if (!a) continue
      const days = daysBetween(charge.failedOn!, today)
      let step = charge.overdueStep
      let reminder = 0
      while (step < steps.length && days >= steps[step]!) reminder = ++step
      const collect = days >= config.debtCollectionDays && step <= steps.length && a.debtCollectionSince === null
      if (reminder === charge.overdueStep && !collect) continue
      const values = { externalId: String(a.externalSeq), due: charge.due, days: String(days) }
      if (reminder > charge.overdueStep)
        agreements.tell(a.memberUserId, {
          type: 'warning',
          title: /*i18n*/ { id: 'Reminder: payment for agreement {externalId} is overdue' },
          message: /*i18n*/ { id: 'The payment due {due} for agreement {externalId} is still not paid ({days} days). Please contact the association or make sure it can be paid in Vipps MobilePay.' },
          values,
          actionUrl: `/agreements/${a.id}`,
          actionText: /*i18n*/ { id: 'Open agreement' },
        })
      if (collect) {
        step = steps.length + 1
        db.update(agreementsTable).set({ debtCollectionSince: nowIso(), version: a.version + 1, updatedAt: nowIso() }).where(eq(agreementsTable.id, a.id)).run()
        agreements.changed(a)
        for (const userId of [a.memberUserId, ...staffOf(a.companyId).filter((u) => u !== a.memberUserId)])
          agreements.tell(userId, {
            type: 'error',
            title: /*i18n*/ { id: 'Agreement {externalId} goes to debt collection' },
            message: /*i18n*/ { id: 'The payment due {due} for agreement {externalId} is {days} days overdue and has been handed to the association\'s debt-collection process.' },
            values,
            actionUrl: `/agreements/${a.id}`,
            actionText: /*i18n*/ { id: 'Open agreement' },
          })
      }
      db.update(chargesTable).set({ overdueStep: step }).where(eq(chargesTable.id, charge.id)).run()
      taken++
    }
    return taken
  }

  // ---- one-time charges and refunds

  function staffAgreement(actor: Actor, agreementId: string) {
    const a = agreements.rowOf(agreementId)
    if (!a || !canReadAgreement(actor, a)) throw notFound(messages.agreementNotFound.id)
    assertAgreementAdmin(actor, a.companyId, { ownAgreement: a.memberUserId === actor.userId })
    companies.assertWritable(a.companyId)
    return a
  }

  function refundView(outboxId: string): Refund {
    const note = db.select().from(invoices).where(eq(invoices.refundId, outboxId)).get()!
    return {
      id: outboxId,
      agreementId: note.agreementId,
      chargeId: note.chargeId,
      amount: note.totalOre,
      currency: 'DKK',
      description: note.description,
      status: note.status === 'EXECUTED' ? 'EXECUTED' : note.status === 'FAILED' ? 'FAILED' : 'PENDING',
      creditNote: { id: note.id, invoiceNumber: String(note.number) },
      createdAt: note.createdAt,
    }
  }

  const moneyText = (actor: Actor, ore: number) => formatKroner(ore, localeOf(actor.language))

  /**
   * The one path of a ONE_TIME charge (UNSCHEDULED, due tomorrow: Vipps needs a day): the charge,
   * its invoice (unless it is a new attempt on an existing invoice, `invoiceId`), its provider-
   * outbox row (sent to Vipps with the row id as Idempotency-Key) and the change-log rows, in the
   * caller's transaction.
   */
  function createOneTimeCharge(a: NonNullable<ReturnType<AgreementsService['rowOf']>>, input: { id?: string; amount: number; description: string; invoiceId?: string }): Charge {
    const now = nowIso()
    const id = input.id ?? newId()
    db.insert(chargesTable)
      .values({
        id, agreementId: a.id, companyId: a.companyId, kind: 'ONE_TIME', type: 'UNSCHEDULED', amountOre: input.amount, description: input.description,
        due: plusDays(todayInCopenhagen(clock), 1), invoiceId: input.invoiceId ?? null, createdAt: now, updatedAt: now,
      })
      .run()
    issueForCharge(agreements.chargeRow(id)!)
    agreements.enqueue(a, 'CREATE_CHARGE', {}, id)
    const charge = agreements.chargeRow(id)!
    agreements.chargeChanged(charge, a)
    return agreements.chargeViews([charge])[0]!
  }

  /** What is left to credit on each line of an invoice: its total less the credit notes' lines that credit it. */
  function linesLeft(invoiceId: string) {
    const lines = db.select().from(invoiceLines).where(eq(invoiceLines.invoiceId, invoiceId)).orderBy(invoiceLines.position).all()
    const notes = db.select({ id: invoices.id }).from(invoices).where(and(eq(invoices.creditedInvoiceId, invoiceId), eq(invoices.kind, 'CREDIT_NOTE'))).all()
    const credited = new Map<number, number>()
    if (notes.length)
      for (const l of db.select().from(invoiceLines).where(inArray(invoiceLines.invoiceId, notes.map((n) => n.id))).all())
        if (l.creditedPosition !== null) credited.set(l.creditedPosition, (credited.get(l.creditedPosition) ?? 0) + l.totalInclVatOre)
    return lines.map((l) => ({ line: l, left: Math.max(0, l.totalInclVatOre - (credited.get(l.position) ?? 0)) }))
  }

  /** A credit note's lines: `shares` of the invoice's lines, each with the description of the line it credits. */
  const creditNoteLines = (left: ReturnType<typeof linesLeft>, shares: number[]): LineSource[] =>
    left
      .map(({ line }, i) => ({
        type: line.type,
        description: line.description,
        grossOre: shares[i]!,
        vatRate: line.vatRate as VatRate,
        unit: line.unit,
        credits: { position: line.position, articleNumber: line.articleNumber },
      }))
      .filter((l) => l.grossOre > 0)

  // ---- debtors (issue #16): unpaid invoices and what admin staff do about them

  /**
   * The invoice of a debtor action: 404 unless the actor may read it (its company's staff, its
   * member, the super admin), 403 unless they are company admin staff there or the super admin.
   */
  function staffInvoice(actor: Actor, invoiceId: string): InvoiceRow {
    const row = db.select().from(invoices).where(eq(invoices.id, invoiceId)).get()
    if (!row || !canReadAgreement(actor, row)) throw notFound(messages.invoiceNotFound.id)
    if (!isSuperAdmin(actor)) {
      const role = roleIn(actor, row.companyId)
      if (!role || !isCompanyAdminStaff(role)) throw forbidden()
    }
    companies.assertWritable(row.companyId)
    return row
  }

  const creditedOf = (invoiceId: string): number =>
    Number(db.select({ n: sum(invoices.totalOre) }).from(invoices).where(and(eq(invoices.creditedInvoiceId, invoiceId), eq(invoices.kind, 'CREDIT_NOTE'))).get()?.n ?? 0)

  /** The charges still trying to collect an invoice: its own and any retry, CREATED or RESERVED. */
  const openChargesOf = (invoice: InvoiceRow) =>
    agreements.chargeRowsOf(invoice.agreementId).filter((c) => (c.id === invoice.chargeId || c.invoiceId === invoice.id) && (c.status === 'CREATED' || c.status === 'RESERVED'))

  /** An unpaid invoice (the debtor rule) with what is still owed on it; 409 otherwise. */
  function unpaid(invoice: InvoiceRow): { open: number } {
    const today = todayInCopenhagen(clock)
    const open = openAmountOf(invoiceInput(invoice), creditedOf(invoice.id), today)
    if (open <= 0) throw invalidState(messages.invoiceNotUnpaid.id)
    return { open }
  }

  function retryBlocker(invoice: InvoiceRow, a: ReturnType<AgreementsService['rowOf']>): RetryBlocker | null {
    const retries = agreements.chargeRowsOf(invoice.agreementId).filter((c) => c.invoiceId === invoice.id && c.id !== invoice.chargeId)
    if (retries.some((c) => c.status === 'CREATED' || c.status === 'RESERVED')) return 'UNDER_WAY'
    if (invoice.status !== 'FAILED') return 'COLLECTING'
    if (!a || a.status !== 'ACCEPTED' || !a.vippsAgreementId) return 'AGREEMENT_INACTIVE'
    return null
  }

  /**
   * Stops what still tries to collect a settled invoice: a charge at Vipps is cancelled there
   * (CANCEL_CHARGE through the provider outbox); one not sent yet is never sent and is CANCELED.
   */
  function stopCollecting(invoice: InvoiceRow) {
    const a = agreements.rowOf(invoice.agreementId)
    if (!a) return
    for (const charge of openChargesOf(invoice)) {
      if (charge.vippsChargeId) {
        agreements.enqueue(a, 'CANCEL_CHARGE', {}, charge.id)
        continue
      }
      db.update(providerOutbox)
        .set({ status: 'failed', lastError: 'Not sent: the invoice was settled outside Vipps MobilePay' })
        .where(and(eq(providerOutbox.chargeId, charge.id), eq(providerOutbox.kind, 'CREATE_CHARGE'), eq(providerOutbox.status, 'pending')))
        .run()
      db.update(chargesTable).set({ status: 'CANCELED', version: charge.version + 1, updatedAt: nowIso() }).where(eq(chargesTable.id, charge.id)).run()
      const updated = agreements.chargeRow(charge.id)!
      agreements.chargeChanged(updated, a)
      followCharge(updated, charge.status)
    }
  }

  function settle(invoice: InvoiceRow, actor: Actor, kind: InvoiceSettlement, note: string) {
    db.update(invoices)
      .set({ settlement: kind, settledOn: todayInCopenhagen(clock), settlementNote: note, settledByUserId: actor.userId, settledByName: actor.fullName, version: invoice.version + 1, updatedAt: nowIso() })
      .where(eq(invoices.id, invoice.id))
      .run()
    agreements.recordInvoiceChange(invoice.id, invoice.companyId, invoice.memberUserId)
  }

  const service = {
    config,
    run,
    overdueSteps,
    issueForCharge,
    followCharge,

    /** The job: bill what is due, then take the overdue steps. */
    async tick(): Promise<void> {
      await run()
      await lock.run(() => db.transaction(() => overdueSteps()))
    },

    /**
     * An extra charge on an ACCEPTED agreement (spec §2, DOMAIN.md: UNSCHEDULED), due tomorrow
     * (Vipps needs a day), with its invoice, queued for Vipps.
     */
    requestOneTimeCharge(actor: Actor, agreementId: string, input: OneTimeChargeRequest): Charge {
      const a = staffAgreement(actor, agreementId)
      if (input.id) {
        const existing = agreements.chargeRow(input.id)
        if (existing) {
          if (existing.agreementId === a.id && existing.kind === 'ONE_TIME' && existing.amountOre === input.amount && existing.description === input.description)
            return agreements.chargeViews([existing])[0]!
          throw conflict(messages.billingRecordExists.id)
        }
      }
      if (a.status !== 'ACCEPTED' || !a.vippsAgreementId || a.terminationDate) throw invalidState(messages.oneTimeChargeNeedsAccepted.id)
      return createOneTimeCharge(a, { id: input.id, amount: input.amount, description: input.description })
    },

    /**
     * A refund of (part of) a collected charge (spec §2/§5, DOMAIN.md): at most what was captured
     * minus the refunds already requested. Issues a credit note referencing the charge's invoice
     * and queues the refund for Vipps with the refund's id as Idempotency-Key. The amount goes to
     * the invoice lines the treasurer chose (issue #16; none chosen: every line), in proportion to
     * what is left on each, never more than a line has left; each credit-note line carries the
     * description of the line it credits.
     */
    refund(actor: Actor, agreementId: string, input: RefundRequest): Refund {
      const a = staffAgreement(actor, agreementId)
      if (input.id) {
        const existing = db.select().from(invoices).where(eq(invoices.refundId, input.id)).get()
        if (existing) {
          if (existing.chargeId === input.chargeId && existing.totalOre === input.amount && existing.description === input.description) return refundView(input.id)
          throw conflict(messages.billingRecordExists.id)
        }
      }
      const charge = agreements.chargeRow(input.chargeId)
      if (!charge || charge.agreementId !== a.id) throw notFound(messages.chargeNotFound.id)
      if (charge.status !== 'EXECUTED' || charge.capturedOre <= 0 || !charge.invoiceId) throw ruleViolation(messages.refundNeedsExecuted.id, 'chargeId')
      const requested =
        Number(db.select({ n: sum(invoices.totalOre) }).from(invoices).where(and(eq(invoices.chargeId, charge.id), eq(invoices.kind, 'CREDIT_NOTE'))).get()?.n ?? 0)
      const left = Math.max(0, charge.capturedOre - Math.max(requested, charge.refundedOre))
      if (input.amount > left) throw new DomainError('BUSINESS_RULE', messages.refundTooLarge.id, { values: { amount: moneyText(actor, left) } })
      const original = db.select().from(invoices).where(eq(invoices.id, charge.invoiceId)).get()!
      const perLine = linesLeft(original.id)
      const chosen = input.lines?.map((articleId) => perLine.findIndex(({ line }) => line.id === articleId))
      if (chosen?.some((i) => i < 0)) throw validation([{ path: 'lines', message: messages.refundLineInvalid.id }])
      const shares = perLine.length ? lineShares(perLine.map((l) => l.left), input.amount, chosen) : []
      if (!shares) {
        const picked = chosen?.length ? chosen : perLine.map((_, i) => i)
        const available = picked.reduce((s, i) => s + perLine[i]!.left, 0)
        throw new DomainError('BUSINESS_RULE', messages.refundTooLargeForLines.id, { values: { amount: moneyText(actor, available) }, issues: [{ path: 'amount', message: messages.refundTooLargeForLines.id, values: { amount: moneyText(actor, available) } }] })
      }
      const lines: LineSource[] = perLine.length
        ? creditNoteLines(perLine, shares)
        : [{ type: 'OTHER', description: input.description, grossOre: input.amount, vatRate: 0, unit: 'PIECE' }]
      const now = nowIso()
      const today = todayInCopenhagen(clock)
      const refundId = input.id ?? newId()
      const agreement = { id: a.id, companyId: a.companyId, memberUserId: a.memberUserId }
      issue({
        kind: 'CREDIT_NOTE', agreement, chargeId: charge.id, description: input.description, lines,
        company: { id: original.companyId, name: original.companyName, acronym: '', cvr: original.companyCvr, address: original.companyAddress },
        member: { name: original.consumerName, email: original.consumerEmailAddress, phone: original.consumerPhoneNumber, address: original.consumerAddress, language: 'EN' },
        paymentType: 'REFUND', creditedInvoiceId: original.id, refundId, chargeDue: today, now, today,
      })
      st.insertOutbox({ id: refundId, providerId: a.paymentProviderId, agreementId: a.id, chargeId: charge.id, kind: 'REFUND_CHARGE', payload: { amount: input.amount, description: input.description }, now: sendNow() })
      return refundView(refundId)
    },

    /** The refund reached Vipps (or Vipps refused it): its credit note says so. */
    refundSent({ outboxId, ok }: { outboxId: string; ok: boolean }) {
      const note = db.select().from(invoices).where(eq(invoices.refundId, outboxId)).get()
      if (!note) return
      const status = ok ? 'EXECUTED' : 'FAILED'
      db.update(invoices)
        .set({ status, paymentStatus: status, paymentDate: ok ? todayInCopenhagen(clock) : null, version: note.version + 1, updatedAt: nowIso() })
        .where(eq(invoices.id, note.id))
        .run()
      agreements.recordInvoiceChange(note.id, note.companyId, note.memberUserId)
    },

    /**
     * The debtor overview (issue #16): the company's unpaid invoices (`isUnpaid`), oldest due date
     * first, a page at a time, each with what is owed, days overdue, the overdue steps taken and
     * whether a retry is possible. Company admin staff and the super admin; a board member 403;
     * a company the caller has nothing to do with 404.
     */
    debtors(actor: Actor, query: ReturnType<typeof parseDebtorQuery>): DebtorPage {
      assertCompanyInScope(db, actor, query.companyId)
      if (!isSuperAdmin(actor)) {
        const role = roleIn(actor, query.companyId)
        if (!role || !isCompanyAdminStaff(role)) throw forbidden()
      }
      const today = todayInCopenhagen(clock)
      const [afterDue, afterId] = query.after ?? ['', '']
      const base = { companyId: query.companyId, today, agreementId: query.agreementId ?? null }
      const ds = debtorStatements(sqlite)
      const rows = ds.page({ ...base, afterDue, afterId, limit: query.limit + 1 })
      const page = rows.slice(0, query.limit)
      const steps = config.reminderDays.length
      const items: Debtor[] = page.map((r) => {
        const step = r.overdue_step ?? 0
        const retryBlocked: RetryBlocker | null =
          r.retry_pending ? 'UNDER_WAY'
          : r.status !== 'FAILED' ? 'COLLECTING'
          : r.agreement_status !== 'ACCEPTED' || !r.vipps_agreement_id ? 'AGREEMENT_INACTIVE'
          : null
        return {
          invoiceId: r.id,
          invoiceNumber: String(r.number),
          name: r.name,
          agreementId: r.agreement_id,
          agreementExternalId: r.external_seq === null ? null : String(r.external_seq),
          memberUserId: r.member_user_id,
          memberName: r.consumer_name,
          address: r.consumer_address,
          dueDate: r.due_date,
          daysOverdue: Math.max(0, daysBetween(r.due_date, today)),
          amount: Math.max(0, r.total_ore - r.credited_ore),
          status: r.status,
          remindersSent: Math.min(step, steps),
          debtCollection: r.debt_collection_since !== null || step > steps,
          retryPending: r.retry_pending === 1,
          retryBlocked,
        }
      })
      const last = page.at(-1)
      return {
        items,
        nextCursor: rows.length > query.limit && last ? encodeCursor(last.due_date, last.id) : null,
        total: ds.totals(base),
        reminderDays: [...config.reminderDays].sort((x, y) => x - y),
        debtCollectionDays: config.debtCollectionDays,
      }
    },

    /**
     * Retry an unpaid invoice (issue #16): a new ONE_TIME charge for what is owed, through the
     * one-time charge path and the provider outbox, as a new attempt on the same invoice (no second
     * invoice). Only once the invoice's charge has failed, with nothing else under way, on an
     * agreement Vipps can charge. A client-made `id` makes a repeated request answer the same
     * charge; the Idempotency-Key replays a lost answer.
     */
    retry(actor: Actor, invoiceId: string, input: RetryRequest): Charge {
      const invoice = staffInvoice(actor, invoiceId)
      if (input.id) {
        const existing = agreements.chargeRow(input.id)
        if (existing) {
          if (existing.invoiceId === invoice.id && existing.id !== invoice.chargeId && existing.kind === 'ONE_TIME') return agreements.chargeViews([existing])[0]!
          throw conflict(messages.billingRecordExists.id)
        }
      }
      const { open } = unpaid(invoice)
      const a = agreements.rowOf(invoice.agreementId)
      const blocked = retryBlocker(invoice, a)
      if (blocked) throw invalidState(retryBlockerMessages[blocked].id)
      return createOneTimeCharge(a!, { id: input.id, amount: open, description: invoice.description.slice(0, 45), invoiceId: invoice.id })
    },

    /**
     * The member paid an unpaid invoice another way (issue #16): the invoice records it with the
     * note, the date and who; anything still trying to collect it at Vipps is cancelled. The
     * invoice's status keeps following Vipps, so statistics count only what Vipps collected.
     */
    markPaidOutside(actor: Actor, invoiceId: string, input: MarkPaidRequest): InvoiceRow {
      const invoice = staffInvoice(actor, invoiceId)
      if (invoice.settlement === 'PAID_OUTSIDE' && invoice.settlementNote === input.note) return invoice
      unpaid(invoice)
      stopCollecting(invoice)
      settle(db.select().from(invoices).where(eq(invoices.id, invoice.id)).get()!, actor, 'PAID_OUTSIDE', input.note)
      return db.select().from(invoices).where(eq(invoices.id, invoice.id)).get()!
    },

    /**
     * Write off an unpaid invoice (issue #16): a credit note for what is owed, over the invoice's
     * lines in proportion (each with its line's description), titled in the member's language; no
     * money moves, so the credit note is not EXECUTED and statistics do not count it. Both
     * documents carry the settlement WRITTEN_OFF with the note; collection at Vipps is stopped.
     */
    writeOff(actor: Actor, invoiceId: string, input: WriteOffRequest): InvoiceRow {
      const invoice = staffInvoice(actor, invoiceId)
      if (input.id) {
        const existing = db.select().from(invoices).where(eq(invoices.id, input.id)).get()
        if (existing) {
          if (existing.creditedInvoiceId === invoice.id && existing.settlement === 'WRITTEN_OFF') return existing
          throw conflict(messages.billingRecordExists.id)
        }
      }
      const { open } = unpaid(invoice)
      stopCollecting(invoice)
      const perLine = linesLeft(invoice.id)
      const shares = lineShares(perLine.map((l) => l.left), open)
      const lines: LineSource[] = shares && perLine.length ? creditNoteLines(perLine, shares) : [{ type: 'OTHER', description: invoice.description, grossOre: open, vatRate: 0, unit: 'PIECE' }]
      const language = localeOf(db.select({ language: users.language }).from(users).where(eq(users.id, invoice.memberUserId)).get()?.language)
      const now = nowIso()
      const today = todayInCopenhagen(clock)
      const id = input.id ?? newId()
      issue({
        kind: 'CREDIT_NOTE', id, agreement: { id: invoice.agreementId, companyId: invoice.companyId, memberUserId: invoice.memberUserId }, chargeId: invoice.chargeId,
        description: translate(language, /*i18n*/ { id: 'Write-off of invoice {number}' }, { number: String(invoice.number) }).slice(0, 200),
        lines,
        company: { id: invoice.companyId, name: invoice.companyName, acronym: '', cvr: invoice.companyCvr, address: invoice.companyAddress },
        member: { name: invoice.consumerName, email: invoice.consumerEmailAddress, phone: invoice.consumerPhoneNumber, address: invoice.consumerAddress, language: 'EN' },
        paymentType: 'WRITE_OFF', creditedInvoiceId: invoice.id, chargeDue: today, now, today,
      })
      const note = db.select().from(invoices).where(eq(invoices.id, id)).get()!
      // No money moves: the credit note has no payment (status stays CREATED, payment null).
      db.update(invoices).set({ paymentStatus: null }).where(eq(invoices.id, id)).run()
      settle(note, actor, 'WRITTEN_OFF', input.note)
      settle(db.select().from(invoices).where(eq(invoices.id, invoice.id)).get()!, actor, 'WRITTEN_OFF', input.note)
      return db.select().from(invoices).where(eq(invoices.id, id)).get()!
    },
  }
  return service
}

/** An invoice row as the shared debtor rules read it. */
const invoiceInput = (r: InvoiceRow) => ({ kind: r.kind, status: r.status, dueDate: r.dueDate, totalAmount: r.totalOre, settlement: r.settlement ? { kind: r.settlement } : null })

/** The page cursor: the last row's (due date, id), opaque to the client. */
const encodeCursor = (due: string, id: string) => Buffer.from(JSON.stringify([due, id])).toString('base64url')

/** The list query with its cursor decoded; a cursor that is not one of ours answers 400. */
export function parseDebtorQuery(query: { companyId: string; agreementId?: string; cursor?: string; limit: number }) {
  let after: [string, string] | undefined
  if (query.cursor) {
    try {
      const parsed: unknown = JSON.parse(Buffer.from(query.cursor, 'base64url').toString('utf8'))
      if (Array.isArray(parsed) && parsed.length === 2 && parsed.every((x) => typeof x === 'string')) after = parsed as [string, string]
    } catch {
      // answered below
    }
    if (!after) throw validation([{ path: 'cursor', message: messages.valueInvalid.id }])
  }
  return { companyId: query.companyId, agreementId: query.agreementId, limit: query.limit, after }
}
