import { count, eq } from 'drizzle-orm'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { Db } from '../../db/client'
import { chargeStatistics, chargeStatisticsMonths } from '../../db/schema/statistics'
import { testApp } from '../../test/harness'
import { partTypes } from '../../../shared/domain/agreement-parts'
import { statisticsOfSums } from '../../../shared/domain/statistics'
import { historyDay, threeAgreements, withHistory } from './test-helpers'
import { statisticsRepository as repo } from './statistics.repository'
import { statisticsJson } from './statistics-json'

/**
 * The running month sums (migration 0015, docs/decisions/0051-statistics-month-sums.md) plus the
 * day edges give the same table as the day rows alone, for any period, after any mix of charges,
 * refunds (credit notes), invoices leaving EXECUTED and payment dates moved back or forth; and
 * every month row is its year's day rows through the end of that month. Each run writes in a
 * transaction that is rolled back, so the runs share one app.
 */
const day = historyDay
const line = fc.record({ type: fc.constantFrom(...partTypes), amount: fc.integer({ min: 1, max: 2_000_000 }), vatRate: fc.constant(0 as const) })
const op = fc.record({
  agreement: fc.integer({ min: 0, max: 2 }),
  paymentDate: day,
  lines: fc.array(line, { minLength: 1, maxLength: 4 }),
  status: fc.constantFrom('EXECUTED', 'EXECUTED', 'EXECUTED', 'RESERVED', 'FAILED'),
  refunds: fc.array(fc.record({ share: fc.double({ min: 0.01, max: 0.5, noNaN: true }), paymentDate: day }), { maxLength: 2 }),
  // Later: the invoice leaves EXECUTED (a late failure) or its payment date is corrected, often backwards.
  later: fc.option(
    fc.oneof(
      fc.record({ status: fc.constantFrom('FAILED', 'CANCELED'), paymentDate: fc.constant(null) }),
      fc.record({ status: fc.constant('EXECUTED'), paymentDate: day }),
    ),
    { nil: undefined },
  ),
})
const period = fc.tuple(day, day).map(([a, b]): readonly [string, string] => (a <= b ? [a, b] : [b, a]))
// Whole months and years too, which read no day rows at all.
const wholeMonths = fc
  .tuple(fc.integer({ min: 0, max: 35 }), fc.integer({ min: 0, max: 14 }))
  .map(
    ([first, length]) =>
      [new Date(Date.UTC(2025, first, 1)).toISOString().slice(0, 10), new Date(Date.UTC(2025, first + length + 1, 0)).toISOString().slice(0, 10)] as const,
  )

const amountColumns = ['hotAndColdWater', 'hotWater', 'coldWater', 'heating', 'addition', 'commonExpenses', 'fee', 'other'] as const
type Sums = Record<(typeof amountColumns)[number], number>

/**
 * What the month rows should be, from the day rows (read with drizzle, so on either engine): the
 * month rows that differ from their year's day rows through the end of their month (rows whose day
 * rows are gone must have netted to 0), and the month rows without the next month's row of their
 * year (what the repository's LEFT JOIN of month b to month a − 1 relies on).
 */
async function monthRowFaults(db: Db, companyId: string) {
  const months = await db.select().from(chargeStatisticsMonths).where(eq(chargeStatisticsMonths.companyId, companyId)).all()
  const days = await db.select().from(chargeStatistics).where(eq(chargeStatistics.companyId, companyId)).all()
  const key = (year: number, month: number, address: string) => `${year}-${month}-${address}`
  const present = new Set(months.map((m) => key(m.year, m.month, m.consumerAddress)))
  const drift: string[] = []
  const gaps: string[] = []
  for (const m of months) {
    const expected = Object.fromEntries(amountColumns.map((c) => [c, 0])) as Sums
    for (const d of days) {
      const year = Number(d.day.slice(0, 4))
      const month = Number(d.day.slice(5, 7))
      if (d.consumerAddress === m.consumerAddress && year === m.year && month <= m.month) for (const c of amountColumns) expected[c] += d[c]
    }
    if (amountColumns.some((c) => m[c] !== expected[c])) drift.push(key(m.year, m.month, m.consumerAddress))
    if (m.month < 12 && !present.has(key(m.year, m.month + 1, m.consumerAddress))) gaps.push(key(m.year, m.month, m.consumerAddress))
  }
  return { drift, gaps }
}

describe('statistics: month sums plus day edges equal the day rows', () => {
  it('for random histories with corrections and random periods', async () => {
    const t = await testApp()
    const { f, agreements } = await threeAgreements(t)
    await fc.assert(
      fc.asyncProperty(
        fc.array(op, { minLength: 1, maxLength: 25 }),
        fc.array(fc.oneof(period, wholeMonths), { minLength: 1, maxLength: 5 }),
        async (ops, periods) => {
          await withHistory(
            t,
            agreements.map((x) => x.id),
            ops,
            async (db) => {
              expect(await monthRowFaults(db, f.main)).toEqual({ drift: [], gaps: [] })
              for (const [startDate, endDate] of periods)
                expect(statisticsJson(await repo.sums(db, f.main, startDate, endDate))).toBe(
                  JSON.stringify(statisticsOfSums(await repo.daySums(db, f.main, startDate, endDate))),
                )
            },
          )
        },
      ),
      { numRuns: 60 },
    )
    expect(await t.db.select({ n: count() }).from(chargeStatisticsMonths).get()).toEqual({ n: 0 })
  }, 120_000)
})
