import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { testApp } from '../../test/harness'
import { partTypes } from '../../../shared/domain/agreement-parts'
import { statisticsOfSums } from '../../../shared/domain/statistics'
import { historyDay, threeAgreements, withHistory } from './test-helpers'
import { statisticsStatements } from './statistics.repository'
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

describe('statistics: month sums plus day edges equal the day rows', () => {
  it('for random histories with corrections and random periods', async () => {
    const t = await testApp()
    const { f, agreements } = await threeAgreements(t)
    const sqlite = t.database.sqlite
    const st = statisticsStatements(sqlite)
    // Every month row recomputed from the day rows; rows whose day rows are gone must have netted to 0.
    const drift = sqlite.prepare(
      `SELECT m.year, m.month, m.consumer_address FROM charge_statistics_months m
       WHERE m.company_id = ? AND (m.heating, m.common_expenses, m.hot_water, m.other) IS NOT (
         SELECT COALESCE(SUM(d.heating), 0), COALESCE(SUM(d.common_expenses), 0), COALESCE(SUM(d.hot_water), 0), COALESCE(SUM(d.other), 0)
         FROM charge_statistics d WHERE d.company_id = m.company_id AND d.consumer_address = m.consumer_address
           AND d.day BETWEEN printf('%04d-01-01', m.year) AND printf('%04d-%02d-31', m.year, m.month))`,
    )
    // A month row without the next month's row of its year.
    const gaps = sqlite.prepare(
      `SELECT m.year, m.month, m.consumer_address FROM charge_statistics_months m WHERE m.company_id = ? AND m.month < 12 AND NOT EXISTS (
         SELECT 1 FROM charge_statistics_months n WHERE n.company_id = m.company_id AND n.year = m.year AND n.month = m.month + 1 AND n.consumer_address = m.consumer_address)`,
    )
    await fc.assert(
      fc.asyncProperty(
        fc.array(op, { minLength: 1, maxLength: 25 }),
        fc.array(fc.oneof(period, wholeMonths), { minLength: 1, maxLength: 5 }),
        async (ops, periods) => {
          await withHistory(
            t,
            agreements.map((x) => x.id),
            ops,
            () => {
              expect(drift.all(f.main)).toEqual([])
              // What the repository's LEFT JOIN of month b to month a − 1 relies on.
              expect(gaps.all(f.main)).toEqual([])
              for (const [startDate, endDate] of periods)
                expect(statisticsJson(st.sums(f.main, startDate, endDate))).toBe(JSON.stringify(statisticsOfSums(st.daySums(f.main, startDate, endDate))))
            },
          )
        },
      ),
      { numRuns: 60 },
    )
    expect(sqlite.prepare('SELECT count(*) AS n FROM charge_statistics_months').get()).toEqual({ n: 0 })
  }, 120_000)
})
