/**
 * Decision 0071: the journal's totals of whole months come from the statistics' month sums plus
 * the documents those cannot split, partial months straight from the lines. Here they are held
 * equal, in øre, to the lines summed directly (the query every total was before) for periods that
 * start and end mid-month, cross a year, lie inside one month or are whole months, after a history
 * with VAT lines, refunds, failed charges, a document leaving EXECUTED, executed documents without
 * a payment date and invoices paid outside; and the first page's totals equal its entries walked.
 */
import { describe, expect, it } from 'vitest'
import { eq } from 'drizzle-orm'
import { transaction } from '../../db/client'
import { statement } from '../../db/statement'
import { invoices } from '../../db/schema/invoices'
import type { PartType, VatRate } from '../../../shared/domain/agreement-parts'
import type { JournalPage } from '../../../shared/contract/bookkeeping'
import { historyWriter } from '../billing/charge-history'
import { periodEvents } from './bookkeeping.repository'
import { periodSums } from './journal-totals'
import { octoberHistory } from './test-helpers'

/** The reference: every event of the period joined to its lines, grouped. */
const reference = statement<{ companyId: string; from: string; to: string }, { event: string; type: string; vat_rate: number; amount: number | string }>(
  `SELECT e.event, l.type, l.vat_rate, SUM(l.total_incl_vat_ore) AS amount
   FROM (${periodEvents}) e JOIN invoice_lines l ON l.invoice_id = e.id
   GROUP BY e.event, l.type, l.vat_rate`,
)

const keyed = (rows: { event: string; type: string; vatRate: number; amount: number }[]) =>
  Object.fromEntries(rows.filter((r) => r.amount !== 0).map((r) => [`${r.event} ${r.type} ${r.vatRate}`, r.amount]))

/** A year of varied history on the October agreements (deterministic: a small linear congruential generator). */
async function yearOfHistory() {
  const h = await octoberHistory()
  const { t, a, b, c } = h
  const w = historyWriter(t.db, t.clock.now().toISOString())
  let seed = 7
  const next = (n: number) => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31), seed % n)
  const types: PartType[] = ['COMMON_EXPENSES', 'HEAT', 'HOT_WATER', 'COLD_WATER', 'FEE', 'OTHER', 'ADDITION', 'HOT_AND_COLD_WATER']
  const undatedIds: string[] = []
  const outside: string[] = []
  await transaction(t.db, async () => {
    for (let m = 0; m < 12; m++) {
      const month = m === 0 ? '2025-12' : `2026-${String(m).padStart(2, '0')}`
      for (const [i, agreement] of [a, b, c].entries()) {
        const day = `${month}-${String(1 + next(28)).padStart(2, '0')}`
        const lines = Array.from({ length: 1 + next(3) }, () => ({
          type: types[next(types.length)]!,
          amount: 1 + next(400_000),
          vatRate: (next(4) === 0 ? 25 : 0) as VatRate,
        }))
        const status = next(6) === 0 ? 'FAILED' : 'EXECUTED'
        const { chargeId, invoiceId } = await w.charge({ agreementId: agreement.id, paymentDate: day, lines, kind: 'ONE_TIME' })
        if (status === 'FAILED') {
          // Executed, then left EXECUTED (a late failure), or paid outside Vipps afterwards.
          await w.setStatus(invoiceId, 'FAILED', null)
          if (i === 1) outside.push(invoiceId)
          continue
        }
        if (next(3) === 0) await w.refund({ chargeId, amount: 1 + next(lines[0]!.amount), paymentDate: `${month}-28` })
        if (next(9) === 0) undatedIds.push(invoiceId)
      }
    }
    for (const id of undatedIds) await w.setStatus(id, 'EXECUTED', null)
  })
  for (const [i, id] of outside.entries())
    await t.db
      .update(invoices)
      .set({ settlement: 'PAID_OUTSIDE', settledOn: `2026-${String(1 + (i % 11)).padStart(2, '0')}-15` })
      .where(eq(invoices.id, id))
  return { ...h, undated: undatedIds.length, outside: outside.length }
}

const periods: [string, string][] = [
  ['2026-01-01', '2026-12-31'], // a calendar year: month sums only
  ['2026-10-01', '2026-10-31'], // one whole month
  ['2025-12-15', '2026-10-20'], // mid-month at both ends, across a year
  ['2026-03-02', '2026-03-30'], // inside one month
  ['2026-02-01', '2026-11-14'], // whole first month, partial last
  ['2026-01-31', '2026-06-30'], // one day of the first month, whole last
  ['2025-12-01', '2026-11-30'], // whole months across a year
  ['2026-10-28', '2026-10-28'], // one day
]

describe('the journal’s totals', () => {
  it('equal the lines summed directly, in øre, for whole and partial months (VAT, refunds, undated, paid outside)', async () => {
    const { t, f, undated, outside } = await yearOfHistory()
    expect(undated).toBeGreaterThan(0)
    expect(outside).toBeGreaterThan(0)
    for (const [from, to] of periods) {
      const want = keyed(
        (await reference.all(t.db, { companyId: f.main, from, to })).map((r) => ({
          event: r.event,
          type: r.type,
          vatRate: Number(r.vat_rate),
          amount: Number(r.amount),
        })),
      )
      const got = keyed(await periodSums(t.db, f.main, from, to))
      expect(got, `${from}..${to}`).toEqual(want)
    }
    // The year holds money of every kind the split reads.
    const year = keyed(await periodSums(t.db, f.main, '2026-01-01', '2026-12-31'))
    expect(Object.keys(year).some((k) => k.startsWith('REFUNDED'))).toBe(true)
    expect(Object.keys(year).some((k) => k.startsWith('PAID_OUTSIDE'))).toBe(true)
    expect(Object.keys(year).some((k) => k.endsWith(' 25'))).toBe(true)
  })

  it('of a period starting and ending mid-month are its entries, walked page by page, per account', async () => {
    const { t, f, admin } = await yearOfHistory()
    const query = 'from=2025-12-15&to=2026-10-20'
    const first = (await t.call('GET', `/bookkeeping/${f.main}/journal?${query}&limit=7`, { token: admin })).json as JournalPage
    const byAccount = new Map<string, number>()
    const add = (account: string, amount: number) => byAccount.set(account, (byAccount.get(account) ?? 0) + amount)
    let page = first
    let vouchers = 0
    for (;;) {
      for (const e of page.entries) {
        add(e.account, e.amount)
        add(e.contraAccount, -e.amount)
      }
      vouchers += new Set(page.entries.map((e) => `${e.invoiceId} ${e.event}`)).size
      if (!page.nextCursor) break
      page = (await t.call('GET', `/bookkeeping/${f.main}/journal?${query}&limit=7&cursor=${page.nextCursor}`, { token: admin })).json as JournalPage
    }
    const totals = Object.fromEntries(first.totals!.filter((x) => x.amount !== 0).map((x) => [x.account, x.amount]))
    expect(totals).toEqual(Object.fromEntries([...byAccount].filter(([, v]) => v !== 0)))
    expect(first.totals!.reduce((s, x) => s + x.amount, 0)).toBe(0)
    expect(first.vouchers).toBe(vouchers)
    expect(first.unexported).toBe(vouchers)
  })
})
