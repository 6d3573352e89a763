/**
 * The demo's history of charges (decision 0070): on a fresh demo with the built-in Vipps emulator,
 * started as main.ts starts it, the last three months are billed, collected, declined, refunded and
 * marked paid by the product's own engine; the statistics and the bookkeeping journal of each month
 * agree; seeding again adds nothing. Runs on PostgreSQL too (`npm run test:pg -- server/db/seed-history.test.ts`).
 */
import { describe, expect, it } from 'vitest'
import { asc, eq } from 'drizzle-orm'
import { TestClock } from '../lib/clock'
import { approveInEmulator } from '../integrations/vipps/built-in'
import { demoApp } from '../test/demo-app'
import { openTemplateCopy, TEST_SECRET_KEY, TEST_START } from '../test/template-db'
import { demo } from '../test/harness'
import { assertBookkeeping } from '../features/billing/test-helpers'
import { agreements, charges } from './schema/agreements'
import { bookkeepingClosedMonths } from './schema/bookkeeping'
import { companies } from './schema/companies'
import { invoices } from './schema/invoices'
import { users } from './schema/users'
import { addDemoActivity, DEMO_CVR, demoAgreementsAwaitingVipps, FORMER_RESIDENT, monthsBefore } from './seed'
import { claimDemoHistory, seedDemoHistory } from './seed-history'
import { defaultAccountPlan } from '../../shared/domain/bookkeeping'
import { categoryOfPartType, statisticsCategories } from '../../shared/domain/statistics'
import { partTypes } from '../../shared/domain/agreement-parts'
import type { JournalPage } from '../../shared/contract/bookkeeping'

/** A demo started as `npm start` starts it (built-in emulator, billing on its business clock), on the test template. */
async function startDemo() {
  const clock = new TestClock(TEST_START)
  const database = await openTemplateCopy()
  const db = database.db
  await addDemoActivity(db, clock)
  const { app, services, lock, log, emulator, login } = await demoApp(database, clock, TEST_SECRET_KEY)
  expect(await services.agreements.connectSeeded(await demoAgreementsAwaitingVipps(db), approveInEmulator(emulator))).toBe(6)
  const history = () => seedDemoHistory({ db, lock, clock, log, emulator, services })
  const token = login
  const get = async (path: string, bearer: string) => {
    const res = await app.request(`/api${path}`, { headers: { Authorization: `Bearer ${bearer}` } })
    expect(res.status, path).toBe(200)
    return (await res.json()) as any
  }
  const post = (path: string, bearer: string, body: unknown) =>
    app.request(`/api${path}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${bearer}`, 'Content-Type': 'application/json', 'Idempotency-Key': crypto.randomUUID() },
      body: JSON.stringify(body),
    })
  return { clock, db, lock, emulator, services, history, token, get, post }
}

const lastDayOf = (firstOfMonth: string) => {
  const [y, m] = firstOfMonth.split('-').map(Number) as [number, number]
  return `${firstOfMonth.slice(0, 8)}${String(new Date(Date.UTC(y, m, 0)).getUTCDate()).padStart(2, '0')}`
}

describe('the demo history of charges', () => {
  it('bills, collects, declines, refunds and marks paid the last three months through the engine; the books agree; once only', async () => {
    const s = await startDemo()
    // How long it takes (before the logins are printed) is a figure of `npm run bench` (demo history, docs/BENCHMARKS.md).
    const made = await s.history()
    // The test clock says 23 November 2026; the seeded next payment date is 1 December.
    expect(made).toEqual({ months: ['2026-09', '2026-10', '2026-11'], charges: 18, failed: 2, refunds: 1, paidOutside: 1 })

    const all = await s.db.select().from(charges).orderBy(asc(charges.due)).all()
    expect(all.map((c) => c.due)).toEqual([...Array(6).fill('2026-09-01'), ...Array(6).fill('2026-10-01'), ...Array(6).fill('2026-11-01')])
    // Every charge went through Vipps (the emulator has it) and came back with its outcome.
    expect(all.every((c) => c.vippsChargeId !== null && c.kind === 'REGULAR')).toBe(true)
    const failed = all.filter((c) => c.status === 'FAILED')
    expect(failed.map((c) => c.due)).toEqual(['2026-09-01', '2026-11-01'])
    expect(failed[0]!.agreementId).not.toBe(failed[1]!.agreementId)
    expect(all.filter((c) => c.status === 'EXECUTED')).toHaveLength(16)
    const emulated = Object.values(s.emulator.state.data.charges)
    expect(emulated).toHaveLength(18)
    expect(emulated.filter((c) => c.status === 'FAILED')).toHaveLength(2)
    expect(emulated.filter((c) => c.status === 'PARTIALLY_REFUNDED').map((c) => c.refunded)).toEqual([15_000])

    const docs = await s.db.select().from(invoices).orderBy(asc(invoices.number)).all()
    // Issued three days before each due date, paid on the due date (Vipps' date, on the business clock).
    for (const c of all.filter((x) => x.status === 'EXECUTED')) {
      const invoice = docs.find((i) => i.id === c.invoiceId)!
      expect(invoice).toMatchObject({ status: 'EXECUTED', paymentDate: c.due })
      expect(invoice.issueDate < c.due).toBe(true)
    }
    // September's declined card was paid by bank transfer on the 10th; November's is still open.
    expect(docs.find((i) => i.chargeId === failed[0]!.id && i.kind === 'INVOICE')).toMatchObject({ settlement: 'PAID_OUTSIDE', settledOn: '2026-09-10' })
    expect(docs.find((i) => i.chargeId === failed[1]!.id && i.kind === 'INVOICE')).toMatchObject({ status: 'FAILED', settlement: null })
    const notes = docs.filter((i) => i.kind === 'CREDIT_NOTE')
    expect(notes).toEqual([expect.objectContaining({ status: 'EXECUTED', totalOre: 15_000, paymentDate: '2026-10-14' })])
    await assertBookkeeping(s.db)

    // The business clock is back at the real time; no month of the books was closed.
    expect(s.emulator.clock.now().toISOString()).toBe(s.clock.now().toISOString())
    expect(await s.db.select().from(bookkeepingClosedMonths).all()).toEqual([])
    expect(new Set((await s.db.select().from(agreements).where(eq(agreements.status, 'ACCEPTED')).all()).map((a) => a.nextRegularPaymentDate))).toEqual(
      new Set(['2026-12-01']),
    )

    // Statistics and journal of each month: non-empty, and the income accounts are the statistics
    // negated plus what was paid outside Vipps (which the journal posts and the statistics leave out).
    const accountant = await s.token(demo.accountant)
    const companyId = (await s.db.select().from(companies).where(eq(companies.cvr, DEMO_CVR)).get())!.id
    const plan = defaultAccountPlan()
    for (const month of ['2026-09-01', '2026-10-01', '2026-11-01']) {
      const stats = await s.get(`/company/${companyId}/charges-statistics?type=custom&startDate=${month}&endDate=${lastDayOf(month)}`, accountant)
      const summary = stats.statistics.summary as Record<string, number>
      expect(summary.total, month).toBeGreaterThan(0)
      const page = (await s.get(`/bookkeeping/${companyId}/journal?from=${month}&to=${lastDayOf(month)}`, accountant)) as JournalPage
      expect(page.nextCursor).toBeNull()
      expect(page.entries.length, month).toBeGreaterThan(0)
      const outside = new Map<string, number>()
      for (const e of page.entries.filter((x) => x.event === 'PAID_OUTSIDE')) outside.set(e.account, (outside.get(e.account) ?? 0) + e.amount)
      const expected = new Map<string, number>()
      for (const type of partTypes) {
        const account = plan.parts[type].account
        expected.set(account, (expected.get(account) ?? 0) - summary[categoryOfPartType[type]]!)
      }
      const totals = new Map(page.totals!.map((x) => [x.account, x.amount]))
      for (const [account, amount] of expected) expect(totals.get(account) ?? 0, `${month} ${account}`).toBe(amount + (outside.get(account) ?? 0))
      expect(totals.get(plan.clearingAccount), month).toBe(statisticsCategories.reduce((sum, c) => sum + summary[c]!, 0))
      expect(page.entries.some((e) => e.event === 'PAID_OUTSIDE')).toBe(month === '2026-09-01')
      expect(page.entries.some((e) => e.event === 'REFUNDED')).toBe(month === '2026-10-01')
    }
    // The open November invoice is a debtor.
    const debtors = await s.get(`/debtors?companyId=${companyId}`, accountant)
    expect(debtors.items.map((d: { invoiceId: string }) => d.invoiceId)).toEqual([docs.find((i) => i.chargeId === failed[1]!.id)!.id])

    // Today's billing run (the history's last step; the job's next one finds nothing more): nothing
    // billed for the past; September's reminder went out before it was paid, November's two now.
    const steps = async () => (await s.db.select().from(charges).where(eq(charges.status, 'FAILED')).orderBy(asc(charges.due)).all()).map((c) => c.overdueStep)
    expect(await steps()).toEqual([1, 2])
    await s.services.billing.tick()
    expect(await s.db.select().from(charges).all()).toHaveLength(18)
    expect(await steps()).toEqual([1, 2])

    // The former resident (agreement ended, nothing owed) can be erased on request; a running member cannot (decision 0080).
    const admin = await s.token(demo.admin)
    const chairman = await s.token(demo.chairman)
    const userOf = async (email: string) => (await s.db.select().from(users).where(eq(users.emailAddress, email)).get())!.id
    const erase = async (userId: string) => {
      const recorded = await s.post(`/companies/${companyId}/erasure-requests`, admin, { userId, channel: 'LETTER', requestedOn: '2026-11-20' })
      expect(recorded.status).toBe(201)
      const { id } = (await recorded.json()) as { id: string }
      return await s.post(`/companies/${companyId}/erasure-requests/${id}/approve`, chairman, {})
    }
    expect((await erase(await userOf('beboer03@solgaarden.dk'))).status).toBe(409)
    expect((await erase(await userOf(FORMER_RESIDENT))).status).toBe(200)

    // Again (a restart): nothing added.
    expect(await s.history()).toBeUndefined()
    expect(await s.db.select().from(charges).all()).toHaveLength(18)
    expect(await s.db.select().from(invoices).all()).toHaveLength(docs.length)
  })

  it('needs a fresh demo: none once the association has a charge, nor while an agreement lacks its Vipps agreement', async () => {
    const s = await startDemo()
    const first = (await s.db.select().from(agreements).where(eq(agreements.status, 'ACCEPTED')).orderBy(asc(agreements.externalSeq)).all())[0]!
    await s.db.update(agreements).set({ vippsAgreementId: null }).where(eq(agreements.id, first.id)).run()
    expect(await s.history()).toBeUndefined()
    expect(await s.db.select().from(charges).all()).toEqual([])
  })

  it('two instances starting together claim the history once (on PostgreSQL, SERIALIZABLE runs the loser again)', async () => {
    const s = await startDemo()
    const claims = await Promise.all([1, 2, 3].map(() => s.lock.run(() => claimDemoHistory(s.db, '2026-11-23'))))
    expect(claims.filter((c) => c !== undefined)).toEqual([expect.objectContaining({ dues: ['2026-09-01', '2026-10-01', '2026-11-01'] })])
    // The claimed agreements wait for the history's first month; a later start finds them moved.
    expect(new Set((await s.db.select().from(agreements).where(eq(agreements.status, 'ACCEPTED')).all()).map((a) => a.nextRegularPaymentDate))).toEqual(
      new Set(['2026-09-01']),
    )
    expect(await claimDemoHistory(s.db, '2026-11-23')).toBeUndefined()
  })

  it('counts months back over a year end', () => {
    expect(monthsBefore('2027-01-01', 3)).toBe('2026-10-01')
    expect(monthsBefore('2026-12-01', 1)).toBe('2026-11-01')
    expect(monthsBefore('2026-03-01', 14)).toBe('2025-01-01')
  })
})
