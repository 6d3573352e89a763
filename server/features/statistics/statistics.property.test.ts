import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { demo, testApp } from '../../test/harness'
import { partTypes } from '../../../shared/domain/agreement-parts'
import { documentOfInvoice, statisticsFromDocuments } from '../../../shared/domain/statistics'
import { agreementFixtures, createAgreement } from '../agreements/test-helpers'
import { historyWriter } from '../billing/charge-history'
import type { Actor } from '../access/actor'

/**
 * The server's statistics (triggers into charge_statistics, SQL sums, shared finish) equal the
 * offline client's (the synced invoices through the shared module) for any mix of charges,
 * refunds, statuses moving later, periods and agreement filters. Each run writes in a
 * transaction that is rolled back, so the runs share one app.
 */
const day = fc.integer({ min: 0, max: 3 * 365 }).map((n) => new Date(Date.UTC(2025, 0, 1) + n * 86_400_000).toISOString().slice(0, 10))
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

class Rollback extends Error {}

describe('statistics: server and client agree', () => {
  it('for random charges, refunds and periods', async () => {
    const t = await testApp()
    const f = await agreementFixtures(t)
    const admin = await t.login(demo.admin)
    const agreements = [
      await createAgreement(t, {}, admin),
      await createAgreement(t, { emailAddress: demo.residentDa, memberName: 'Mads Hansen', linkedAddress: [f.addressIds[1]] }, admin),
      await createAgreement(t, { emailAddress: 'beboer09@solgaarden.dk', memberName: 'Ida Holm', linkedAddress: [f.addressIds[0]] }, admin),
    ]
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
    fc.assert(
      fc.property(fc.array(op, { maxLength: 25 }), day, day, fc.option(fc.integer({ min: 0, max: 2 }), { nil: undefined }), (ops, d1, d2, only) => {
        const [startDate, endDate] = d1 <= d2 ? [d1, d2] : [d2, d1]
        const agreementId = only === undefined ? undefined : agreements[only]!.id
        try {
          t.database.sqlite.transaction(() => {
            const w = historyWriter(t.database.sqlite, t.clock.now().toISOString())
            for (const o of ops) {
              const { chargeId, invoiceId } = w.charge({
                agreementId: agreements[o.agreement]!.id,
                paymentDate: o.paymentDate,
                lines: o.lines,
                status: o.status,
                kind: 'ONE_TIME',
              })
              const total = o.lines.reduce((s, l) => s + l.amount, 0)
              if (o.status === 'EXECUTED')
                for (const r of o.refunds)
                  w.refund({ chargeId, amount: Math.max(1, Math.floor(total * r.share)), paymentDate: r.paymentDate, status: r.status })
              if (o.later) w.setStatus(invoiceId, o.later.status, o.later.status === 'EXECUTED' ? o.later.paymentDate : null)
            }
            const server = t.services.statistics.chargeStatistics(actor, f.main, { type: 'custom', startDate, endDate, agreementId })
            // One page holds them all (the list pages by 200, issue #19).
            const synced = t.services.invoices.list(actor, { companyId: f.main, limit: 200 })
            expect(synced.next).toBeNull()
            expect(server.statistics).toEqual(statisticsFromDocuments(synced.items.map(documentOfInvoice), { startDate, endDate, agreementId }))
            throw new Rollback()
          })()
        } catch (err) {
          if (!(err instanceof Rollback)) throw err
        }
      }),
      { numRuns: 60 },
    )
    // The rollbacks left nothing behind.
    expect(t.database.sqlite.prepare('SELECT count(*) AS n FROM charge_statistics').get()).toEqual({ n: 0 })
  }, 120_000)
})
