import type { Logger } from 'pino'
import type { Database_ } from '../../db/client'
import { DomainError, conflict, invalidState, notFound, ruleViolation, validation } from '../../errors'
import { todayInCopenhagen, type Clock } from '../../lib/clock'
import { newBulkId, newId } from '../../lib/ids'
import type { WriteLock } from '../../lib/write-lock'
import type { OneTimeChargeRequest, Refund, RefundRequest } from '../../../shared/contract/billing'
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
import { invoicesRepository } from './invoices.repository'
import { creditNoteLines, linesLeft } from './credit-lines'
import { createDebtorActions } from './debtors.service'
import { createOneTimeCharges } from './one-time-charge'
import { UNIT_OF_PERIOD, type FaultPoint, type Invoicing, type LineSource } from './invoicing'
import { transaction } from '../../db/client'
import { queueProviderCall } from '../../integrations/vipps/provider-outbox'
import { writeChange } from '../sync'

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

export type BillingService = ReturnType<typeof createBillingService>

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
  const { db } = database
  const config = { ...defaultBillingConfig, ...deps.config }
  const nowIso = () => clock.now().toISOString()
  const sendNow = () => (deps.sendClock ?? clock).now().toISOString()
  const fault = deps.faultPoint ?? (() => {})
  const oneTime = createOneTimeCharges({ clock, charges })

  // ---- the billing run

  const descriptionOf = (company: CompanySnapshot, externalSeq: number, due: string) => `${company.acronym} ${externalSeq} ${due}`.slice(0, 45)

  /**
   * Bills one agreement (its row read in the batch's transaction); returns the number of charges
   * created and whether its next payment date is still within the horizon (the catch-up stopped at
   * `maxCatchUpPeriods`, or at the termination).
   */
  async function billAgreement(
    a: DueAgreement,
    horizon: string,
    today: string,
    now: string,
    companyCache: Map<string, CompanySnapshot | undefined>,
  ): Promise<{ created: number; stillDue: boolean }> {
    let company = companyCache.get(a.company_id)
    if (!companyCache.has(a.company_id)) {
      company = await st.company(db, a.company_id)
      companyCache.set(a.company_id, company)
    }
    const member = st.memberOf(a)
    if (!company || !member) return { created: 0, stillDue: false }
    // No regular charge on or after the termination date, nor for the days a termination's last
    // payment covers: it takes the place of the last period's charge (shared/domain/termination.ts).
    const termination = { terminationDate: a.termination_date, finalPaymentRequired: Boolean(a.final_payment_required) }
    const anchor = anchorDayOf(a.start_payment_date, a.next_regular_payment_date)
    const agreement = { id: a.id, companyId: a.company_id, memberUserId: a.member_user_id }
    const scope = { companyId: a.company_id, userId: a.member_user_id }
    let lines: LineSource[] | undefined
    let next = a.next_regular_payment_date
    // Catch-up is for periods missed while the agreement existed (downtime), never for a start
    // before it (decision 0034): the API refuses a past start date, and a row imported with one is
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
        await st.insertRegularCharge(db, {
          id: chargeId,
          agreementId: a.id,
          companyId: a.company_id,
          amountOre: a.price_ore,
          description,
          due: next,
          invoiceId,
          now,
        })
      ) {
        fault('charge')
        lines ??= await invoicing.partLines(a.id, UNIT_OF_PERIOD[a.payment_period])
        await invoicing.issue({
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
        await queueProviderCall(db, {
          id: newBulkId(),
          providerId: a.payment_provider_id,
          agreementId: a.id,
          chargeId,
          kind: 'CREATE_CHARGE',
          payload: {},
          at: sendNow(),
        })
        fault('outbox')
        await writeChange(db, 'charge', chargeId, 'upsert', scope, now)
        created++
      }
      next = nextPaymentDate(next, a.payment_period, anchor)
    }
    if (next !== a.next_regular_payment_date) {
      await st.advanceAgreement(db, a.id, next, now)
      await writeChange(db, 'agreement', a.id, 'upsert', scope, now)
      fault('agreement')
    }
    return { created, stillDue: next <= horizon }
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
  async function run(): Promise<{ agreements: number; charges: number }> {
    const today = todayInCopenhagen(clock)
    const horizon = plusDays(today, config.leadDays)
    const companyCache = new Map<string, CompanySnapshot | undefined>()
    const seen = new Set<string>()
    let chargesCreated = 0
    let billed = 0
    let cursor: DueCursor = { date: '', id: '' }
    /**
     * One batch; returns the number of agreements read (fewer than `batchSize`: the run is done), or
     * undefined when another process's batch has the turn (PostgreSQL). It may run twice (a
     * SERIALIZABLE transaction PostgreSQL gave up on runs again), so what it learns is returned and
     * kept only once it has committed.
     */
    const batch = (after: DueCursor) =>
      transaction(db, async () => {
        if (!(await st.takeBatchTurn(db))) return undefined
        const now = nowIso()
        const rows = await st.dueBatch(db, horizon, after, config.batchSize)
        let created = 0
        let agreementsBilled = 0
        const stillDue: string[] = []
        for (const a of rows) {
          if (seen.has(a.id)) continue
          const n = await billAgreement(a, horizon, today, now, companyCache)
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
    // A bigger page cache once a run turns out large (charges, invoices, lines, outbox and
    // change-log indexes all grow at once); given back afterwards. Checkpoints less often too:
    // every page the run touches is then copied back once, not many times. SQLite's own settings
    // (PostgreSQL's are the server's).
    const sqlite = database.sqlite
    const cacheSize = sqlite?.pragma('cache_size', { simple: true }) as number
    const autoCheckpoint = sqlite?.pragma('wal_autocheckpoint', { simple: true }) as number
    try {
      for (let full = 0; ;) {
        // Counted only once the batch has committed: a failed batch rolls back all it wrote.
        const done = await lock.run(() => batch(cursor))
        if (!done) {
          // Another process's batch runs: try again shortly, from the same place.
          await new Promise((resolve) => setTimeout(resolve, TURN_WAIT_MS * (1 + Math.random())))
          continue
        }
        for (const id of done.stillDue) seen.add(id)
        chargesCreated += done.created
        billed += done.agreementsBilled
        cursor = done.next
        if (done.read < config.batchSize) break
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
    if (chargesCreated) log.info({ agreements: billed, charges: chargesCreated }, 'billing run')
    return { agreements: billed, charges: chargesCreated }
  }

  // ---- charges follow Vipps: invoice status, overdue

  /**
   * Overdue steps: reminders on the configured days after a charge failed, then the flag for debt
   * collection. While the charge's invoice is unpaid (decision 0042: a later month collected does not
   * settle it; a retry that collected, paid outside Vipps or a write-off does); each step once per
   * failed charge, counted from the invoice's own charge (a failed retry starts no second series).
   */
  async function overdueSteps(): Promise<number> {
    const today = todayInCopenhagen(clock)
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
      if (reminder > charge.overdueStep)
        await notices.tell(a.memberUserId, {
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
        await agreements.flagDebtCollection(a)
        for (const userId of [a.memberUserId, ...(await st.adminStaffOf(db, a.companyId)).filter((u) => u !== a.memberUserId)])
          await notices.tell(userId, {
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
      await chargesRepository.update(db, charge.id, { overdueStep: step })
      taken++
    }
    return taken
  }

  // ---- one-time charges and refunds

  async function staffAgreement(actor: Actor, agreementId: string) {
    const a = await agreements.rowOf(agreementId)
    if (!a || !canReadAgreement(actor, a)) throw notFound(messages.agreementNotFound.id)
    assertAgreementAdmin(actor, a.companyId, { ownAgreement: a.memberUserId === actor.userId })
    await companies.assertWritable(a.companyId)
    return a
  }

  async function refundView(outboxId: string): Promise<Refund> {
    const note = (await invoicesRepository.byRefundId(db, outboxId))!
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

  const moneyText = (locale: ReturnType<typeof localeOf>, ore: number) => formatKroner(ore, locale)

  /**
   * A refund of (part of) a collected charge of agreement `a` (docs/PRODUCT.md §2/§5, docs/DOMAIN.md): at most what
   * was captured minus the refunds already requested. Issues a credit note referencing the charge's
   * invoice and queues the refund for Vipps with the refund's id as Idempotency-Key. The amount goes
   * to the invoice lines chosen (decision 0044; none chosen: every line), in proportion to what is left
   * on each, never more than a line has left; each credit-note line carries the description of the
   * line it credits. No actor: the staff route checks who asks, a loan's deposit (lending) needs no
   * staff. `locale` writes the amounts in refusals. The same `id` again answers the stored refund.
   */
  async function issueRefund(
    a: NonNullable<Awaited<ReturnType<AgreementsService['rowOf']>>>,
    input: RefundRequest,
    locale: ReturnType<typeof localeOf>,
  ): Promise<Refund> {
    if (input.id) {
      const existing = await invoicesRepository.byRefundId(db, input.id)
      if (existing) {
        if (existing.chargeId === input.chargeId && existing.totalOre === input.amount && existing.description === input.description)
          return refundView(input.id)
        throw conflict(messages.billingRecordExists.id)
      }
    }
    const charge = await charges.row(input.chargeId)
    if (!charge || charge.agreementId !== a.id) throw notFound(messages.chargeNotFound.id)
    if (charge.status !== 'EXECUTED' || charge.capturedOre <= 0 || !charge.invoiceId) throw ruleViolation(messages.refundNeedsExecuted.id, 'chargeId')
    const requested = await invoicesRepository.creditedOfCharge(db, charge.id)
    const left = Math.max(0, charge.capturedOre - Math.max(requested, charge.refundedOre))
    if (input.amount > left) throw new DomainError('BUSINESS_RULE', messages.refundTooLarge.id, { values: { amount: moneyText(locale, left) } })
    const original = (await invoicesRepository.byId(db, charge.invoiceId))!
    const perLine = await linesLeft(db, original.id)
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
    const lines: LineSource[] =
      perLine.length ? creditNoteLines(perLine, shares) : [{ type: 'OTHER', description: input.description, grossOre: input.amount, vatRate: 0, unit: 'PIECE' }]
    const now = nowIso()
    const today = todayInCopenhagen(clock)
    const refundId = input.id ?? newId()
    const agreement = { id: a.id, companyId: a.companyId, memberUserId: a.memberUserId }
    await invoicing.issue({
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
    await queueProviderCall(db, {
      id: refundId,
      providerId: a.paymentProviderId,
      agreementId: a.id,
      chargeId: charge.id,
      kind: 'REFUND_CHARGE',
      payload: { amount: input.amount, description: input.description },
      at: sendNow(),
    })
    return refundView(refundId)
  }

  const service = {
    config,
    run,
    overdueSteps,

    /** The job: bill what is due, then take the overdue steps. */
    async tick(): Promise<void> {
      await run()
      await lock.run(() => transaction(db, async () => overdueSteps()))
    },

    /**
     * An extra charge on an ACCEPTED agreement (docs/PRODUCT.md §2, docs/DOMAIN.md: UNSCHEDULED), due tomorrow
     * (Vipps needs a day), with its invoice, queued for Vipps.
     */
    async requestOneTimeCharge(actor: Actor, agreementId: string, input: OneTimeChargeRequest): Promise<Charge> {
      const a = await staffAgreement(actor, agreementId)
      if (input.id) {
        const existing = await charges.row(input.id)
        if (existing) {
          if (
            existing.agreementId === a.id &&
            existing.kind === 'ONE_TIME' &&
            existing.amountOre === input.amount &&
            existing.description === input.description
          )
            return (await charges.views([existing]))[0]!
          throw conflict(messages.billingRecordExists.id)
        }
      }
      if (a.status !== 'ACCEPTED' || !a.vippsAgreementId || a.terminationDate) throw invalidState(messages.oneTimeChargeNeedsAccepted.id)
      return oneTime.create(a, { id: input.id, amount: input.amount, description: input.description })
    },

    /**
     * A refund of (part of) a collected charge (docs/PRODUCT.md §2/§5, docs/DOMAIN.md): at most what was captured
     * minus the refunds already requested. Issues a credit note referencing the charge's invoice
     * and queues the refund for Vipps with the refund's id as Idempotency-Key. The amount goes to
     * the invoice lines the treasurer chose (decision 0044; none chosen: every line), in proportion to
     * what is left on each, never more than a line has left; each credit-note line carries the
     * description of the line it credits.
     */
    async refund(actor: Actor, agreementId: string, input: RefundRequest): Promise<Refund> {
      const a = await staffAgreement(actor, agreementId)
      return await issueRefund(a, input, localeOf(actor.language))
    },

    issueRefund,

    ...createDebtorActions({
      database,
      clock,
      sendClock: deps.sendClock ?? clock,
      agreements,
      charges,
      invoicing,
      companies,
      users,
      oneTime,
      config,
    }),
  }
  return service
}
