import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { demo, testApp } from '../../test/harness'
import { partTypes } from '../../../shared/domain/agreement-parts'
import { statisticsOfSums } from '../../../shared/domain/statistics'
import { agreementFixtures, createAgreement } from '../agreements/test-helpers'
import { historyWriter } from '../billing/charge-history'
import { statisticsStatements } from './statistics.repository'

/**
 * The running month sums (migration 0015, docs/decisions/0051-statistics-month-sums.md) plus the
 * day edges give the same table as the day rows alone, for any period, after any mix of charges,
 * refunds (credit notes), invoices leaving EXECUTED and payment dates moved back or forth; and
 * every month row is its year's day rows through the end of that month. Each run writes in a
 * transaction that is rolled back, so the runs share one app.
 */
const day = fc.integer({ min: 0, max: 3 * 365 }).map((n) => new Date(Date.UTC(2025, 0, 1) + n * 86_400_000).toISOString().slice(0, 10))
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

class Rollback extends Error {}

describe('statistics: month sums plus day edges equal the day rows', () => {
  it('for random histories with corrections and random periods', async () => {
    const t = await testApp()
    const f = await agreementFixtures(t)
    const admin = await t.login(demo.admin)
    const agreements = [
      await createAgreement(t, {}, admin),
      await createAgreement(t, { emailAddress: demo.residentDa, memberName: 'Mads Hansen', linkedAddress: [f.addressIds[1]] }, admin),
      await createAgreement(t, { emailAddress: 'beboer09@solgaarden.dk', memberName: 'Ida Holm', linkedAddress: [f.addressIds[0]] }, admin),
    ]
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
    fc.assert(
      fc.property(fc.array(op, { minLength: 1, maxLength: 25 }), fc.array(fc.oneof(period, wholeMonths), { minLength: 1, maxLength: 5 }), (ops, periods) => {
        try {
          sqlite.transaction(() => {
            const w = historyWriter(sqlite, t.clock.now().toISOString())
            for (const o of ops) {
              const { chargeId, invoiceId } = w.charge({
                agreementId: agreements[o.agreement]!.id,
                paymentDate: o.paymentDate,
                lines: o.lines,
                status: o.status,
                // One-time charges: regular ones allow one per agreement and due date.
                kind: 'ONE_TIME',
              })
              const total = o.lines.reduce((s, l) => s + l.amount, 0)
              if (o.status === 'EXECUTED')
                for (const r of o.refunds) w.refund({ chargeId, amount: Math.max(1, Math.floor(total * r.share)), paymentDate: r.paymentDate })
              if (o.later) w.setStatus(invoiceId, o.later.status, o.later.paymentDate)
            }
            expect(drift.all(f.main)).toEqual([])
            for (const [startDate, endDate] of periods)
              expect(statisticsOfSums(st.sums(f.main, startDate, endDate))).toEqual(statisticsOfSums(st.daySums(f.main, startDate, endDate)))
            throw new Rollback()
          })()
        } catch (err) {
          if (!(err instanceof Rollback)) throw err
        }
      }),
      { numRuns: 60 },
    )
    expect(sqlite.prepare('SELECT count(*) AS n FROM charge_statistics_months').get()).toEqual({ n: 0 })
  }, 120_000)
})
