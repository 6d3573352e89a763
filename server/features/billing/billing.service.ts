import { and, eq, isNotNull, sum } from 'drizzle-orm'
import type { Logger } from 'pino'
import type { Database_ } from '../../db/client'
import { charges as chargesTable, agreements as agreementsTable } from '../../db/schema/agreements'
import { invoices, invoiceLines } from '../../db/schema/invoices'
import { DomainError, conflict, invalidState, notFound, ruleViolation } from '../../errors'
import { todayInCopenhagen, type Clock } from '../../lib/clock'
import { newBulkId, newId } from '../../lib/ids'
import type { WriteLock } from '../../lib/write-lock'
import type { Refund, OneTimeChargeRequest, RefundRequest } from '../../../shared/contract/billing'
import type { Charge } from '../../../shared/contract/agreements'
import { localeOf } from '../../../shared/contract/common'
import type { PartType, VatRate } from '../../../shared/domain/agreement-parts'
import type { ChargeStatus } from '../../../shared/domain/agreement-status'
import { anchorDayOf, daysBetween, nextPaymentDate, plusDays } from '../../../shared/domain/billing-period'
import { copenhagenDateOf } from '../../../shared/domain/copenhagen'
import { INVOICE_PAYMENT_DAYS, articleNumberOf, creditShares, invoiceStatusOfCharge, invoiceTotals, lineAmounts } from '../../../shared/domain/invoice'
import { finalPaymentDue } from '../../../shared/domain/termination'
import { messages } from '../../../shared/i18n-messages'
import type { Actor } from '../access/actor'
import { assertAgreementAdmin, canReadAgreement } from '../access/policy'
import type { AgreementsService } from '../agreements/agreements.service'
import type { ChargeRow } from '../agreements/agreements.repository'
import type { CompaniesService } from '../companies/companies.service'
import { billingStatements, type CompanySnapshot, type MemberSnapshot } from './billing.repository'

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
}

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
      dueDate: plusDays(input.today, INVOICE_PAYMENT_DAYS),
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
      st.insertLine({ invoiceId: id, position, id: `${id}:${position}`, articleNumber: articleNumberOf(position), type: l.type, description: l.description, unit: l.unit, vatRate: l.vatRate, ...a })
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
    const agreement = { id: a.id, companyId: a.companyId, memberUserId: a.memberUserId }
    const now = nowIso()
    const invoice = issue({ kind: 'INVOICE', agreement, chargeId: charge.id, description: charge.description, lines, ...snapshots(agreement), paymentType: charge.kind, now, today: todayInCopenhagen(clock) })
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
    // No regular charge on or after the termination date, nor after a final payment's due date.
    const stopAt = a.termination_date ? (a.final_payment_required ? finalPaymentDue(a.termination_date) : a.termination_date) : null
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
      if (stopAt && next >= stopAt) break
      const chargeId = newBulkId()
      const invoiceId = newBulkId()
      const description = descriptionOf(company, a.external_seq, next)
      if (st.insertRegularCharge({ id: chargeId, agreementId: a.id, companyId: a.company_id, amountOre: a.price_ore, description, due: next, invoiceId, now })) {
        fault('charge')
        lines ??= partLines(a.id, UNIT_OF_PERIOD[a.payment_period])
        issue({ kind: 'INVOICE', id: invoiceId, agreement, chargeId, description, lines, company, member, paymentType: 'REGULAR', now, today })
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

  function followCharge(charge: ChargeRow, previous: ChargeStatus) {
    const now = nowIso()
    const today = todayInCopenhagen(clock)
    const invoice = db.select().from(invoices).where(and(eq(invoices.chargeId, charge.id), eq(invoices.kind, 'INVOICE'))).get()
    if (invoice) {
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
   * collection. Only while the agreement is still overdue; each step once per failed charge.
   */
  function overdueSteps(): number {
    const today = todayInCopenhagen(clock)
    const failed = db.select().from(chargesTable).where(and(eq(chargesTable.status, 'FAILED'), isNotNull(chargesTable.failedOn))).all()
    const declined = db.select().from(chargesTable).where(and(eq(chargesTable.status, 'DECLINED'), isNotNull(chargesTable.failedOn))).all()
    let taken = 0
    const steps = [...config.reminderDays].sort((x, y) => x - y)
    for (const charge of [...failed, ...declined]) {
      const a = agreements.rowOf(charge.agreementId)
      if (!a || !agreements.overdueOf(agreements.chargeRowsOf(a.id))) continue
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
      const now = nowIso()
      const id = input.id ?? newId()
      db.insert(chargesTable)
        .values({ id, agreementId: a.id, companyId: a.companyId, kind: 'ONE_TIME', type: 'UNSCHEDULED', amountOre: input.amount, description: input.description, due: plusDays(todayInCopenhagen(clock), 1), createdAt: now, updatedAt: now })
        .run()
      issueForCharge(agreements.chargeRow(id)!)
      agreements.enqueue(a, 'CREATE_CHARGE', {}, id)
      const charge = agreements.chargeRow(id)!
      agreements.chargeChanged(charge, a)
      return agreements.chargeViews([charge])[0]!
    },

    /**
     * A refund of (part of) a collected charge (spec §2/§5, DOMAIN.md): at most what was captured
     * minus the refunds already requested. Issues a credit note referencing the charge's invoice
     * and queues the refund for Vipps with the refund's id as Idempotency-Key.
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
      if (input.amount > left) {
        const member = agreements.memberOf(a)
        const amount = new Intl.NumberFormat(localeOf(actor.language ?? member?.language) === 'da' ? 'da-DK' : 'en-GB', { style: 'currency', currency: 'DKK' }).format(left / 100)
        throw new DomainError('BUSINESS_RULE', messages.refundTooLarge.id, { values: { amount } })
      }
      const original = db.select().from(invoices).where(eq(invoices.id, charge.invoiceId)).get()!
      const originalLines = db.select().from(invoiceLines).where(eq(invoiceLines.invoiceId, original.id)).orderBy(invoiceLines.position).all()
      const lines = creditLines(originalLines.map((l) => ({ type: l.type, grossOre: l.totalInclVatOre, vatRate: l.vatRate as VatRate })), input.amount, input.description)
      const now = nowIso()
      const refundId = input.id ?? newId()
      const agreement = { id: a.id, companyId: a.companyId, memberUserId: a.memberUserId }
      issue({
        kind: 'CREDIT_NOTE', agreement, chargeId: charge.id, description: input.description, lines,
        company: { id: original.companyId, name: original.companyName, acronym: '', cvr: original.companyCvr, address: original.companyAddress },
        member: { name: original.consumerName, email: original.consumerEmailAddress, phone: original.consumerPhoneNumber, address: original.consumerAddress, language: 'EN' },
        paymentType: 'REFUND', creditedInvoiceId: original.id, refundId, now, today: todayInCopenhagen(clock),
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
  }
  return service
}

/** The lines of a credit note of `amount` against an invoice's lines (shares from `creditShares`). */
export function creditLines(original: { type: PartType; grossOre: number; vatRate: VatRate }[], amount: number, description: string): LineSource[] {
  const source = original.length ? original : [{ type: 'OTHER' as const, grossOre: amount, vatRate: 0 as VatRate }]
  const shares = creditShares(source.map((l) => l.grossOre), amount)
  return source.map((l, i) => ({ type: l.type, description, grossOre: shares[i]!, vatRate: l.vatRate, unit: 'PIECE' })).filter((l) => l.grossOre > 0)
}
