import type { Logger } from 'pino'
import type { Database_ } from '../../db/client'
import { DomainError, conflict, forbidden, invalidState, notFound, ruleViolation, validation } from '../../errors'
import { todayInCopenhagen, type Clock } from '../../lib/clock'
import { newBulkId, newId } from '../../lib/ids'
import type { WriteLock } from '../../lib/write-lock'
import { providerOutboxRepository, queueProviderCall } from '../../integrations/vipps/provider-outbox'
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
import type { VatRate } from '../../../shared/domain/agreement-parts'
import { anchorDayOf, daysBetween, nextPaymentDate, plusDays } from '../../../shared/domain/billing-period'
import { copenhagenDateOf } from '../../../shared/domain/copenhagen'
import { lineShares, openAmountOf, type InvoiceSettlement } from '../../../shared/domain/invoice'
import { isCompanyAdminStaff } from '../../../shared/domain/roles'
import { regularChargeAllowed } from '../../../shared/domain/termination'
import { messages } from '../../../shared/i18n-messages'
import type { Actor } from '../access/actor'
import { assertAgreementAdmin, canReadAgreement, isSuperAdmin, roleIn } from '../access/policy'
import { assertCompanyInScope } from '../access/company-scope'
import type { AgreementsService } from '../agreements/agreements.service'
import type { CompaniesService } from '../companies/companies.service'
import type { NoticesService } from '../notifications/notices'
import type { UsersService } from '../users/users.service'
import { billingStatements, type CompanySnapshot } from './billing.repository'
import { chargesRepository } from './charges.repository'
import type { ChargesService } from './charges.service'
import { debtorStatements } from './debtors.repository'
import { invoicesRepository, type InvoiceRow } from './invoices.repository'
import { UNIT_OF_PERIOD, type FaultPoint, type Invoicing, type LineSource } from './invoicing'

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

export type BillingService = ReturnType<typeof createBillingService>

/**
 * The billing engine (issue #8, docs/DOMAIN.md "Billing rules"):
 * - `run()` creates every due REGULAR charge `leadDays` before it is due, with its invoice and
 *   its provider-outbox row, and advances the agreement's next payment date, catching up missed
 *   periods. One transaction per batch of agreements; each agreement is read again inside it and
 *   the unique (agreement, due) index stops a second charge, so a crash, a re-run or a second
 *   process never bills twice, and invoice numbers (taken in the same transaction) never skip.
 * - one-time charges and refunds (a refund issues a credit note) are recorded and queued for Vipps;
 * - a FAILED charge's invoice goes through the overdue steps (reminders, debt collection).
 * Invoices are issued and follow their charge in invoicing.ts; charges are charges.service.ts's.
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
  charges: ChargesService
  invoicing: Invoicing
  companies: CompaniesService
  users: UsersService
  notices: NoticesService
  config?: Partial<BillingConfig>
  /** Tests: called at named points of a billing run to simulate a crash there. */
  faultPoint?: FaultPoint
}) {
  const { database, clock, lock, log, agreements, charges, invoicing, companies, users, notices } = deps
  const { db, sqlite } = database
  const config = { ...defaultBillingConfig, ...deps.config }
  const st = billingStatements(sqlite)
  const nowIso = () => clock.now().toISOString()
  const sendNow = () => (deps.sendClock ?? clock).now().toISOString()
  const fault = deps.faultPoint ?? (() => {})

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
      if (
        st.insertRegularCharge({ id: chargeId, agreementId: a.id, companyId: a.company_id, amountOre: a.price_ore, description, due: next, invoiceId, now })
      ) {
        fault('charge')
        lines ??= invoicing.partLines(a.id, UNIT_OF_PERIOD[a.payment_period])
        invoicing.issue({
          kind: 'INVOICE',
          id: invoiceId,
          agreement,
          chargeId,
          description,
          lines,
          company,
          member,
          paymentType: 'REGULAR',
          chargeDue: next,
          now,
          today,
        })
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

  /**
   * Overdue steps: reminders on the configured days after a charge failed, then the flag for debt
   * collection. While the charge's invoice is unpaid (issue #16: a later month collected does not
   * settle it; a retry that collected, paid outside Vipps or a write-off does); each step once per
   * failed charge, counted from the invoice's own charge (a failed retry starts no second series).
   */
  function overdueSteps(): number {
    const today = todayInCopenhagen(clock)
    const steps = [...config.reminderDays].sort((x, y) => x - y)
    let taken = 0
    for (const id of st.overdueCandidates(steps.length)) {
      const charge = charges.row(id)!
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
        notices.tell(a.memberUserId, {
          type: 'warning',
          title: /*i18n*/ { id: 'Reminder: payment for agreement {externalId} is overdue' },
          message: /*i18n*/ {
            id: 'The payment due {due} for agreement {externalId} is still not paid ({days} days). Please contact the association or make sure it can be paid in Vipps MobilePay.',
          },
          values,
          actionUrl: `/agreements/${a.id}`,
          actionText: /*i18n*/ { id: 'Open agreement' },
        })
      if (collect) {
        step = steps.length + 1
        agreements.flagDebtCollection(a)
        for (const userId of [a.memberUserId, ...st.adminStaffOf(a.companyId).filter((u) => u !== a.memberUserId)])
          notices.tell(userId, {
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
      chargesRepository.update(db, charge.id, { overdueStep: step })
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
    const note = invoicesRepository.byRefundId(db, outboxId)!
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

  const moneyText = (actor: Actor, ore: number) => formatKroner(ore, localeOf(actor.language))

  /**
   * The one path of a ONE_TIME charge (UNSCHEDULED, due tomorrow: Vipps needs a day): the charge,
   * its invoice (unless it is a new attempt on an existing invoice, `invoiceId`), its provider-
   * outbox row (sent to Vipps with the row id as Idempotency-Key) and the change-log rows, in the
   * caller's transaction.
   */
  function createOneTimeCharge(
    a: NonNullable<ReturnType<AgreementsService['rowOf']>>,
    input: { id?: string; amount: number; description: string; invoiceId?: string },
  ): Charge {
    const charge = charges.create(a, {
      id: input.id,
      kind: 'ONE_TIME',
      type: 'UNSCHEDULED',
      amountOre: input.amount,
      description: input.description,
      due: plusDays(todayInCopenhagen(clock), 1),
      invoiceId: input.invoiceId ?? null,
      now: nowIso(),
    })
    return charges.views([charge])[0]!
  }

  /** What is left to credit on each line of an invoice: its total less the credit notes' lines that credit it. */
  function linesLeft(invoiceId: string) {
    const lines = invoicesRepository.linesOf(db, invoiceId)
    const credited = new Map<number, number>()
    for (const l of invoicesRepository.linesOfAll(db, invoicesRepository.creditNoteIdsOf(db, invoiceId)))
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
    const row = invoicesRepository.byId(db, invoiceId)
    if (!row || !canReadAgreement(actor, row)) throw notFound(messages.invoiceNotFound.id)
    if (!isSuperAdmin(actor)) {
      const role = roleIn(actor, row.companyId)
      if (!role || !isCompanyAdminStaff(role)) throw forbidden()
    }
    companies.assertWritable(row.companyId)
    return row
  }

  const creditedOf = (invoiceId: string): number => invoicesRepository.creditedOfInvoice(db, invoiceId)

  /** The charges still trying to collect an invoice: its own and any retry, CREATED or RESERVED. */
  const openChargesOf = (invoice: InvoiceRow) =>
    charges
      .rowsOf(invoice.agreementId)
      .filter((c) => (c.id === invoice.chargeId || c.invoiceId === invoice.id) && (c.status === 'CREATED' || c.status === 'RESERVED'))

  /** An unpaid invoice (the debtor rule) with what is still owed on it; 409 otherwise. */
  function unpaid(invoice: InvoiceRow): { open: number } {
    const today = todayInCopenhagen(clock)
    const open = openAmountOf(invoiceInput(invoice), creditedOf(invoice.id), today)
    if (open <= 0) throw invalidState(messages.invoiceNotUnpaid.id)
    return { open }
  }

  function retryBlocker(invoice: InvoiceRow, a: ReturnType<AgreementsService['rowOf']>): RetryBlocker | null {
    const retries = charges.rowsOf(invoice.agreementId).filter((c) => c.invoiceId === invoice.id && c.id !== invoice.chargeId)
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
        queueProviderCall(db, {
          id: newId(),
          providerId: a.paymentProviderId,
          agreementId: a.id,
          chargeId: charge.id,
          kind: 'CANCEL_CHARGE',
          payload: {},
          at: sendNow(),
        })
        continue
      }
      providerOutboxRepository.abandonCreate(db, charge.id, 'Not sent: the invoice was settled outside Vipps MobilePay')
      chargesRepository.update(db, charge.id, { status: 'CANCELED', version: charge.version + 1, updatedAt: nowIso() })
      const updated = charges.row(charge.id)!
      charges.changed(updated, a)
      invoicing.followCharge(updated, charge.status)
    }
  }

  function settle(invoice: InvoiceRow, actor: Actor, kind: InvoiceSettlement, note: string) {
    invoicesRepository.update(db, invoice.id, {
      settlement: kind,
      settledOn: todayInCopenhagen(clock),
      settlementNote: note,
      settledByUserId: actor.userId,
      settledByName: actor.fullName,
      version: invoice.version + 1,
      updatedAt: nowIso(),
    })
    invoicing.invoiceChanged(invoice)
  }

  const service = {
    config,
    run,
    overdueSteps,

    /** The job: bill what is due, then take the overdue steps. */
    async tick(): Promise<void> {
      await run()
      await lock.run(() => db.transaction(() => overdueSteps()))
    },

    /**
     * An extra charge on an ACCEPTED agreement (docs/PRODUCT.md §2, docs/DOMAIN.md: UNSCHEDULED), due tomorrow
     * (Vipps needs a day), with its invoice, queued for Vipps.
     */
    requestOneTimeCharge(actor: Actor, agreementId: string, input: OneTimeChargeRequest): Charge {
      const a = staffAgreement(actor, agreementId)
      if (input.id) {
        const existing = charges.row(input.id)
        if (existing) {
          if (
            existing.agreementId === a.id &&
            existing.kind === 'ONE_TIME' &&
            existing.amountOre === input.amount &&
            existing.description === input.description
          )
            return charges.views([existing])[0]!
          throw conflict(messages.billingRecordExists.id)
        }
      }
      if (a.status !== 'ACCEPTED' || !a.vippsAgreementId || a.terminationDate) throw invalidState(messages.oneTimeChargeNeedsAccepted.id)
      return createOneTimeCharge(a, { id: input.id, amount: input.amount, description: input.description })
    },

    /**
     * A refund of (part of) a collected charge (docs/PRODUCT.md §2/§5, docs/DOMAIN.md): at most what was captured
     * minus the refunds already requested. Issues a credit note referencing the charge's invoice
     * and queues the refund for Vipps with the refund's id as Idempotency-Key. The amount goes to
     * the invoice lines the treasurer chose (issue #16; none chosen: every line), in proportion to
     * what is left on each, never more than a line has left; each credit-note line carries the
     * description of the line it credits.
     */
    refund(actor: Actor, agreementId: string, input: RefundRequest): Refund {
      const a = staffAgreement(actor, agreementId)
      if (input.id) {
        const existing = invoicesRepository.byRefundId(db, input.id)
        if (existing) {
          if (existing.chargeId === input.chargeId && existing.totalOre === input.amount && existing.description === input.description)
            return refundView(input.id)
          throw conflict(messages.billingRecordExists.id)
        }
      }
      const charge = charges.row(input.chargeId)
      if (!charge || charge.agreementId !== a.id) throw notFound(messages.chargeNotFound.id)
      if (charge.status !== 'EXECUTED' || charge.capturedOre <= 0 || !charge.invoiceId) throw ruleViolation(messages.refundNeedsExecuted.id, 'chargeId')
      const requested = invoicesRepository.creditedOfCharge(db, charge.id)
      const left = Math.max(0, charge.capturedOre - Math.max(requested, charge.refundedOre))
      if (input.amount > left) throw new DomainError('BUSINESS_RULE', messages.refundTooLarge.id, { values: { amount: moneyText(actor, left) } })
      const original = invoicesRepository.byId(db, charge.invoiceId)!
      const perLine = linesLeft(original.id)
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
          values: { amount: moneyText(actor, available) },
          issues: [{ path: 'amount', message: messages.refundTooLargeForLines.id, values: { amount: moneyText(actor, available) } }],
        })
      }
      const lines: LineSource[] =
        perLine.length ?
          creditNoteLines(perLine, shares)
        : [{ type: 'OTHER', description: input.description, grossOre: input.amount, vatRate: 0, unit: 'PIECE' }]
      const now = nowIso()
      const today = todayInCopenhagen(clock)
      const refundId = input.id ?? newId()
      const agreement = { id: a.id, companyId: a.companyId, memberUserId: a.memberUserId }
      invoicing.issue({
        kind: 'CREDIT_NOTE',
        agreement,
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
      st.insertOutbox({
        id: refundId,
        providerId: a.paymentProviderId,
        agreementId: a.id,
        chargeId: charge.id,
        kind: 'REFUND_CHARGE',
        payload: { amount: input.amount, description: input.description },
        now: sendNow(),
      })
      return refundView(refundId)
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
        const existing = charges.row(input.id)
        if (existing) {
          if (existing.invoiceId === invoice.id && existing.id !== invoice.chargeId && existing.kind === 'ONE_TIME') return charges.views([existing])[0]!
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
      settle(invoicesRepository.byId(db, invoice.id)!, actor, 'PAID_OUTSIDE', input.note)
      return invoicesRepository.byId(db, invoice.id)!
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
        const existing = invoicesRepository.byId(db, input.id)
        if (existing) {
          if (existing.creditedInvoiceId === invoice.id && existing.settlement === 'WRITTEN_OFF') return existing
          throw conflict(messages.billingRecordExists.id)
        }
      }
      const { open } = unpaid(invoice)
      stopCollecting(invoice)
      const perLine = linesLeft(invoice.id)
      const shares = lineShares(
        perLine.map((l) => l.left),
        open,
      )
      const lines: LineSource[] =
        shares && perLine.length ?
          creditNoteLines(perLine, shares)
        : [{ type: 'OTHER', description: invoice.description, grossOre: open, vatRate: 0, unit: 'PIECE' }]
      const language = localeOf(users.byId(invoice.memberUserId)?.language)
      const now = nowIso()
      const today = todayInCopenhagen(clock)
      const id = input.id ?? newId()
      invoicing.issue({
        kind: 'CREDIT_NOTE',
        id,
        agreement: { id: invoice.agreementId, companyId: invoice.companyId, memberUserId: invoice.memberUserId },
        chargeId: invoice.chargeId,
        description: translate(language, /*i18n*/ { id: 'Write-off of invoice {number}' }, { number: String(invoice.number) }).slice(0, 200),
        lines,
        company: { id: invoice.companyId, name: invoice.companyName, acronym: '', cvr: invoice.companyCvr, address: invoice.companyAddress },
        member: {
          name: invoice.consumerName,
          email: invoice.consumerEmailAddress,
          phone: invoice.consumerPhoneNumber,
          address: invoice.consumerAddress,
          language: 'EN',
        },
        paymentType: 'WRITE_OFF',
        creditedInvoiceId: invoice.id,
        chargeDue: today,
        now,
        today,
      })
      const note = invoicesRepository.byId(db, id)!
      // No money moves: the credit note has no payment (status stays CREATED, payment null).
      invoicesRepository.update(db, id, { paymentStatus: null })
      settle(note, actor, 'WRITTEN_OFF', input.note)
      settle(invoicesRepository.byId(db, invoice.id)!, actor, 'WRITTEN_OFF', input.note)
      return invoicesRepository.byId(db, id)!
    },
  }
  return service
}

/** An invoice row as the shared debtor rules read it. */
const invoiceInput = (r: InvoiceRow) => ({
  kind: r.kind,
  status: r.status,
  dueDate: r.dueDate,
  totalAmount: r.totalOre,
  settlement: r.settlement ? { kind: r.settlement } : null,
})

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
