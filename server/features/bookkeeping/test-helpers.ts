import { transaction } from '../../db/client'
import { demo, testApp } from '../../test/harness'
import { agreementFixtures, createAgreement } from '../agreements/test-helpers'
import { historyWriter } from '../billing/charge-history'

/**
 * A month of demo-like collected history (October 2026; the test clock says 23 November): regular
 * charges on three agreements, one with a 25 % VAT line, failed and reserved ones (no money), a
 * refund paid back in October and one in November, plus an unpaid October invoice. Written the
 * way billing writes them (server/features/billing/charge-history.ts).
 */
export async function octoberHistory() {
  const t = await testApp()
  const f = await agreementFixtures(t)
  const admin = await t.login(demo.admin)
  const a = await createAgreement(t, {}, admin)
  const b = await createAgreement(t, { emailAddress: demo.residentDa, memberName: 'Mads Hansen', linkedAddress: [f.addressIds[1]] }, admin)
  const c = await createAgreement(t, { emailAddress: 'beboer09@solgaarden.dk', memberName: 'Ida Holm', linkedAddress: [f.addressIds[0]] }, admin)
  const w = historyWriter(t.db, t.clock.now().toISOString())
  const regular = [
    { type: 'COMMON_EXPENSES' as const, amount: 450_000 },
    { type: 'HEAT' as const, amount: 65_050 },
  ]
  const ids = await transaction(t.db, async () => {
    const aOct = await w.charge({ agreementId: a.id, paymentDate: '2026-10-01', lines: regular })
    const bOct = await w.charge({
      agreementId: b.id,
      paymentDate: '2026-10-01',
      lines: [
        { type: 'COMMON_EXPENSES', amount: 380_000 },
        { type: 'HOT_AND_COLD_WATER', amount: 3_001 },
        { type: 'HOT_WATER', amount: 10_000 },
        { type: 'COLD_WATER', amount: 5_000 },
        { type: 'FEE', amount: 1_000 },
        { type: 'OTHER', amount: 12_345, vatRate: 25 },
        { type: 'OTHER', amount: 700 },
      ],
    })
    const cOct = await w.charge({ agreementId: c.id, paymentDate: '2026-10-15', lines: [{ type: 'ADDITION', amount: 2_999 }], kind: 'ONE_TIME' })
    // No money moved: failed and still reserved.
    const unpaid = await w.charge({ agreementId: c.id, paymentDate: '2026-10-01', lines: regular, status: 'FAILED' })
    await w.charge({ agreementId: b.id, paymentDate: '2026-10-20', lines: regular, status: 'RESERVED', kind: 'ONE_TIME' })
    // Refunds: 10 % of A's October paid back in October; part of B's in November.
    await w.refund({ chargeId: aOct.chargeId, amount: 51_505, paymentDate: '2026-10-28' })
    await w.refund({ chargeId: bOct.chargeId, amount: 7_777, paymentDate: '2026-11-02' })
    // September's charge, outside the month.
    await w.charge({ agreementId: a.id, paymentDate: '2026-09-30', lines: regular })
    return { aOct, bOct, cOct, unpaid }
  })
  return { t, f, admin, a, b, c, ids }
}
