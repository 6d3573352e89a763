import { and, asc, eq, isNull } from 'drizzle-orm'
import type { Logger } from 'pino'
import type { createApp } from '../app'
import { transaction, type Db } from './client'
import { agreements, charges } from './schema/agreements'
import { companies, companyMembers } from './schema/companies'
import { invoiceLines, invoices } from './schema/invoices'
import { todayInCopenhagen, type Clock } from '../lib/clock'
import type { WriteLock } from '../lib/write-lock'
import type { VippsEmulator } from '../integrations/vipps/emulator/emulator.app'
import { plusDays } from '../../shared/domain/billing-period'
import { DEMO_CVR, monthsBefore } from './seed'

type Services = ReturnType<typeof createApp>['services']

export interface DemoHistoryDeps {
  db: Db
  lock: WriteLock
  /** The server's own clock (the real time); the history moves only the emulator's business clock. */
  clock: Clock
  log: Logger
  /** The built-in Vipps emulator: its `/_control` levers (clock, processing run) and, for a declined card, its state. */
  emulator: Pick<VippsEmulator, 'app' | 'state'>
  services: Pick<Services, 'billing' | 'vippsSync' | 'users' | 'agreements'>
}

/** What the history made (for the log line and the tests). */
export interface DemoHistory {
  months: string[]
  charges: number
  failed: number
  refunds: number
  paidOutside: number
}

/** How many monthly due dates before the seeded next one the history covers. */
export const HISTORY_MONTHS = 3

/**
 * Claims the history, in one transaction: only on a demo whose seeded running agreements all have
 * their Vipps agreement and whose association has no charge at all yet (a fresh database). Their next
 * payment date moves back to the first month of the history (and their creation before it), which is
 * also the claim: a restart, or a second instance starting beside this one on PostgreSQL (its
 * SERIALIZABLE transaction runs again and finds it), sees charges or moved dates and leaves it.
 */
export async function claimDemoHistory(db: Db, today: string): Promise<{ dues: string[]; agreementIds: string[] } | undefined> {
  return await transaction(db, async () => {
    const company = await db.select({ id: companies.id }).from(companies).where(eq(companies.cvr, DEMO_CVR)).get()
    if (!company) return undefined
    const seeded = await db
      .select({ id: agreements.id, next: agreements.nextRegularPaymentDate, vipps: agreements.vippsAgreementId })
      .from(agreements)
      .where(and(eq(agreements.companyId, company.id), eq(agreements.status, 'ACCEPTED'), isNull(agreements.createdByUserId)))
      .orderBy(asc(agreements.externalSeq))
      .all()
    const next = seeded[0]?.next
    // The seed gives every running agreement the first of next month; anything else is no fresh demo.
    if (!next || next <= today || seeded.some((a) => !a.vipps || a.next !== next)) return undefined
    if (await db.select({ id: charges.id }).from(charges).where(eq(charges.companyId, company.id)).limit(1).get()) return undefined
    const dues = Array.from({ length: HISTORY_MONTHS }, (_, i) => monthsBefore(next, HISTORY_MONTHS - i))
    const createdAt = `${plusDays(dues[0]!, -20)}T09:00:00.000Z`
    for (const a of seeded) await db.update(agreements).set({ nextRegularPaymentDate: dues[0]!, createdAt }).where(eq(agreements.id, a.id)).run()
    return { dues, agreementIds: seeded.map((a) => a.id) }
  })
}

/**
 * A history of charges for the demo (docs/decisions/0070-a-demo-with-a-history-of-charges.md): on a
 * fresh demo with the built-in Vipps emulator, Solgården's last three months are billed by the
 * product's own engine, as the scheduled billing would have done on their dates. The emulator's
 * business clock (which billing follows) is set to each step's day in turn: the billing run three
 * days before each due date creates the invoices and queues the charges, the outbox sends them,
 * the emulator's processing run collects them on the due date and the poll brings their status
 * back. The first month one card is declined (a reminder follows, then the member pays by bank
 * transfer and the treasurer marks the invoice paid outside), the second month part of one heating
 * aconto is refunded (a credit note, the refund executed at Vipps), and the last month one card is
 * declined again and stays unpaid (a debtor; today's billing run sends its overdue reminders).
 * Afterwards the business clock is back at the real time. Nothing closes a month of the books.
 * Returns undefined when there is nothing to do (not a fresh demo).
 */
export async function seedDemoHistory(deps: DemoHistoryDeps): Promise<DemoHistory | undefined> {
  const { db, lock, clock, log, services } = deps
  const started = performance.now()
  const plan = await lock.run(() => claimDemoHistory(db, todayInCopenhagen(clock)))
  if (!plan) return undefined
  const history = new DemoHistoryRun(deps, plan, await demoTreasurer(deps))
  try {
    for (const [month, due] of plan.dues.entries()) await history.month(month, due)
  } finally {
    await history.backToRealTime()
  }
  // Today's run, as the billing job's first one would: the overdue steps of the last month's declined card.
  await services.billing.tick()
  log.info({ ...history.made, ms: Math.round(performance.now() - started) }, 'demo history of charges')
  return history.made
}

type Treasurer = NonNullable<Awaited<ReturnType<Services['users']['loadActor']>>>

async function demoTreasurer({ db, lock, services }: DemoHistoryDeps): Promise<Treasurer> {
  const treasurer = await lock.run(async () => {
    const row = await db
      .select({ userId: companyMembers.userId })
      .from(companyMembers)
      .innerJoin(companies, eq(companies.id, companyMembers.companyId))
      .where(and(eq(companies.cvr, DEMO_CVR), eq(companyMembers.role, 'ACCOUNTANT')))
      .get()
    return row && (await services.users.loadActor(row.userId, 'demo-history'))
  })
  if (!treasurer) throw new Error('the demo has no treasurer')
  return treasurer
}

/** One history run: the months in turn, moving the emulator's business clock step by step. */
class DemoHistoryRun {
  readonly made: DemoHistory

  constructor(
    private readonly deps: DemoHistoryDeps,
    private readonly plan: { dues: string[]; agreementIds: string[] },
    private readonly treasurer: Treasurer,
  ) {
    this.made = { months: plan.dues.map((d) => d.slice(0, 7)), charges: 0, failed: 0, refunds: 0, paidOutside: 0 }
  }

  /** One month: billed `leadDays` before the due date, collected on it, then that month's story. */
  async month(month: number, due: string): Promise<void> {
    const { services } = this.deps
    const { agreementIds, dues } = this.plan
    // The scheduled run `leadDays` before the due date: invoices issued, charges sent to Vipps.
    await this.at(`${plusDays(due, -services.billing.config.leadDays)}T07:00:00.000Z`)
    await services.billing.tick()
    await this.sync()
    // A declined card in the first month (the first agreement) and the last (another member).
    if (month === 0) await this.decline(agreementIds[0]!, due)
    if (month === dues.length - 1) await this.decline(agreementIds[Math.min(3, agreementIds.length - 1)]!, due)
    // Vipps collects on the due date; the poll reads the outcome back (invoices paid or failed).
    await this.at(`${due}T10:00:00.000Z`)
    await this.control('process-due')
    await this.sync()
    const rows = await this.invoicesDue(due)
    this.made.charges += rows.length
    this.made.failed += rows.filter((r) => r.status === 'FAILED').length
    const failed = rows.find((r) => r.status === 'FAILED')
    if (month === 0 && failed) await this.paidOutside(due, failed.invoiceId)
    const collected = rows.find((r) => r.status === 'EXECUTED')
    if (month === 1 && collected) await this.refund(due, collected)
  }

  /** Day 3: the reminder; day 9: the member paid by bank transfer, the treasurer marks it. */
  private async paidOutside(due: string, invoiceId: string): Promise<void> {
    const { db, lock, services } = this.deps
    await this.at(`${plusDays(due, 3)}T09:00:00.000Z`)
    await services.billing.tick()
    const paidOn = plusDays(due, 9)
    await this.at(`${paidOn}T09:00:00.000Z`)
    await lock.run(() => transaction(db, () => services.billing.markPaidOutside(this.treasurer, invoiceId, { note: 'Betalt via bankoverførsel', paidOn })))
    this.made.paidOutside++
  }

  /** Mid-month: part of one heating aconto is paid back (a credit note; the refund goes to Vipps). */
  private async refund(due: string, collected: { invoiceId: string; chargeId: string; agreementId: string }): Promise<void> {
    const { db, lock, services } = this.deps
    await this.at(`${plusDays(due, 13)}T09:00:00.000Z`)
    await lock.run(() =>
      transaction(db, async () => {
        const heat = await db
          .select({ id: invoiceLines.id })
          .from(invoiceLines)
          .where(and(eq(invoiceLines.invoiceId, collected.invoiceId), eq(invoiceLines.type, 'HEAT')))
          .get()
        const a = (await services.agreements.rowOf(collected.agreementId))!
        return await services.billing.issueRefund(
          a,
          { chargeId: collected.chargeId, amount: 15_000, description: 'For meget opkrævet aconto varme', lines: heat ? [heat.id] : undefined },
          'da',
        )
      }),
    )
    await this.sync()
    this.made.refunds++
  }

  /** The business clock back at the real time, whatever happened (the offset is kept in the emulator's state file). */
  async backToRealTime(): Promise<void> {
    const offset = (await (await this.deps.emulator.app.request('/_control/clock')).json()) as { offsetMs: number }
    if (offset.offsetMs !== 0) await this.control('clock', { advanceMs: -offset.offsetMs })
  }

  private async control(path: string, body: unknown = {}): Promise<Record<string, unknown>> {
    const res = await this.deps.emulator.app.request(`/_control/${path}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    })
    if (!res.ok) throw new Error(`the Vipps emulator refused ${path}: ${res.status} ${await res.text()}`)
    return (await res.json()) as Record<string, unknown>
  }

  /** The business clock at `instant`, never later than the real time. */
  private async at(instant: string): Promise<void> {
    const real = this.deps.clock.now().toISOString()
    await this.control('clock', { set: instant < real ? instant : real })
  }

  private sync() {
    return this.deps.services.vippsSync.run()
  }

  /** The invoices of one due date with their charge's status. */
  private invoicesDue(due: string) {
    const { db, lock } = this.deps
    return lock.run(() =>
      db
        .select({ invoiceId: invoices.id, chargeId: charges.id, agreementId: charges.agreementId, status: charges.status })
        .from(charges)
        .innerJoin(invoices, eq(invoices.id, charges.invoiceId))
        .where(and(eq(charges.companyId, this.treasurer.currentCompanyId!), eq(charges.due, due), eq(charges.kind, 'REGULAR')))
        .orderBy(asc(invoices.number))
        .all(),
    )
  }

  /**
   * A declined card: the emulator fails this agreement's charge of `due` when it processes it (as
   * `/_control/fail-next-charges` does for whichever charge comes next), so the demo picks the member.
   */
  private async decline(agreementId: string, due: string): Promise<void> {
    const { db, lock, emulator } = this.deps
    const ours = await lock.run(() =>
      db
        .select({ vippsChargeId: charges.vippsChargeId })
        .from(charges)
        .where(and(eq(charges.agreementId, agreementId), eq(charges.due, due)))
        .get(),
    )
    const record = ours?.vippsChargeId ? Object.values(emulator.state.data.charges).find((c) => c.id === ours.vippsChargeId) : undefined
    if (!record) return
    record.willFail = { reason: 'user_action_required', exhaustRetries: false }
    emulator.state.changed()
  }
}
