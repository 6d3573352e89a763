import { count } from 'drizzle-orm'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { chargeStatistics } from '../../db/schema/statistics'
import { demo, testApp } from '../../test/harness'
import { partTypes } from '../../../shared/domain/agreement-parts'
import { documentOfInvoice, statisticsFromDocuments } from '../../../shared/domain/statistics'
import { historyDay, threeAgreements, withHistory } from './test-helpers'
import type { Actor } from '../../access/actor'
import type { ChargeStatistics } from '../../../shared/contract/statistics'

/**
 * The server's statistics (triggers into charge_statistics, SQL sums, shared finish) equal the
 * offline client's (the synced invoices through the shared module) for any mix of charges,
 * refunds, statuses moving later, periods and agreement filters. Each run writes in a
 * transaction that is rolled back, so the runs share one app.
 */
const day = historyDay
const status = fc.constantFrom('EXECUTED', 'EXECUTED', 'EXECUTED', 'CREATED', 'RESERVED', 'FAILED', 'CANCELED')
const line = fc.record({
  type: fc.constantFrom(...partTypes),
  amount: fc.integer({ min: 1, max: 2_000_000 }),
  vatRate: fc.constantFrom(0 as const, 25 as const),
})
const op = fc.record({
  agreement: fc.integer({ min: 0, max: 2 }),
  paymentDate: day,
  lines: fc.array(line, { minLength: 1, maxLength: 5 }),
  status,
  refunds: fc.array(
    fc.record({
      share: fc.double({ min: 0.01, max: 0.5, noNaN: true }),
      paymentDate: day,
      status: fc.constantFrom('EXECUTED', 'EXECUTED', 'CREATED', 'FAILED'),
    }),
    { maxLength: 2 },
  ),
  // Later, billing moves the invoice (a late failure, or a date corrected).
  later: fc.option(fc.record({ status, paymentDate: day }), { nil: undefined }),
})

describe('statistics: server and client agree', () => {
  it('for random charges, refunds and periods', async () => {
    const t = await testApp()
    const { f, agreements } = await threeAgreements(t)
    const actor = {
      userId: 'x',
      sessionId: 'x',
      fullName: 'Super Admin',
      emailAddress: demo.superadmin,
      language: 'EN',
      systemRole: 'SUPERADMIN',
      currentCompanyId: null,
      companies: [],
    } as Actor
    await fc.assert(
      fc.asyncProperty(fc.array(op, { maxLength: 25 }), day, day, fc.option(fc.integer({ min: 0, max: 2 }), { nil: undefined }), async (ops, d1, d2, only) => {
        const [startDate, endDate] = d1 <= d2 ? [d1, d2] : [d2, d1]
        const agreementId = only === undefined ? undefined : agreements[only]!.id
        await withHistory(
          t,
          agreements.map((x) => x.id),
          ops,
          async () => {
            const text = await t.services.statistics.chargeStatisticsJson(actor, f.main, { type: 'custom', startDate, endDate, agreementId })
            const server = JSON.parse(text) as ChargeStatistics
            // One page holds them all (the list pages by 200, docs/API.md "Lists").
            const synced = await t.services.invoices.list(actor, { companyId: f.main, limit: 200 })
            expect(synced.next).toBeNull()
            // The same bytes, so the same rows in the same order (decision 0056).
            expect(JSON.stringify(server.statistics)).toBe(
              JSON.stringify(statisticsFromDocuments(synced.items.map(documentOfInvoice), { startDate, endDate, agreementId })),
            )
            expect(text).toBe(JSON.stringify(server))
          },
        )
      }),
      { numRuns: 60 },
    )
    // The rollbacks left nothing behind.
    expect(await t.db.select({ n: count() }).from(chargeStatistics).get()).toEqual({ n: 0 })
  }, 120_000)
})
