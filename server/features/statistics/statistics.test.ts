import { desc, eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { demo, testApp, type TestApp } from '../../test/harness'
import { companies } from '../../db/schema/companies'
import { agreements as agreementsTable, charges } from '../../db/schema/agreements'
import { acceptedWithCollectedCharge, agreementFixtures, createAgreement } from '../agreements/test-helpers'
import { documentOfInvoice, sortAgreementsByExternalId, statisticsFromDocuments } from '../../../shared/domain/statistics'
import type { ChargeStatistics } from '../../../shared/contract/statistics'
import { historyWriter } from '../billing/charge-history'
import { callers, classOf, tokenFor } from '../../test/authorization'
import { transaction } from '../../db/client'

/**
 * GET /company/{id}/charges-statistics (docs/decisions/0032-charge-statistics.md). The test clock says 2026-11-23; the demo
 * company's heating-and-water period is 01.06–31.05, so it is 2026-06-01 – 2027-05-31.
 */
async function setup() {
  const t = await testApp()
  const f = await agreementFixtures(t)
  const admin = await t.login(demo.admin)
  const a = await createAgreement(t, {}, admin)
  const b = await createAgreement(t, { emailAddress: demo.residentDa, memberName: 'Mads Hansen', linkedAddress: [f.addressIds[1]] }, admin)
  const w = historyWriter(t.db, t.clock.now().toISOString())
  const regular = [
    { type: 'COMMON_EXPENSES' as const, amount: 450_000 },
    { type: 'HEAT' as const, amount: 65_050 },
  ]
  const ids = await transaction(t.db, async () => {
    const dec2025 = await w.charge({ agreementId: a.id, paymentDate: '2025-12-15', lines: regular })
    const mar2026 = await w.charge({ agreementId: a.id, paymentDate: '2026-03-01', lines: regular })
    const jul2026 = await w.charge({ agreementId: a.id, paymentDate: '2026-07-01', lines: regular })
    // Not withdrawn: failed, and still open.
    await w.charge({ agreementId: a.id, paymentDate: '2026-08-01', lines: regular, status: 'FAILED' })
    await w.charge({ agreementId: a.id, paymentDate: '2026-09-01', lines: regular, status: 'RESERVED' })
    const aug2026 = await w.charge({
      agreementId: b.id,
      paymentDate: '2026-08-01',
      lines: [
        { type: 'HOT_AND_COLD_WATER', amount: 3_000 },
        { type: 'HOT_WATER', amount: 10_000 },
        { type: 'COLD_WATER', amount: 5_000 },
        { type: 'ADDITION', amount: 2_000 },
        { type: 'FEE', amount: 1_000 },
        { type: 'OTHER', amount: 700 },
      ],
    })
    // A refund of 10 % of July's charge, paid back in August: 45,000 + 6,505 øre.
    await w.refund({ chargeId: jul2026.chargeId, amount: 51_505, paymentDate: '2026-08-10' })
    // A refund not yet sent to Vipps counts nothing.
    await w.refund({ chargeId: mar2026.chargeId, amount: 10_000, paymentDate: '2026-08-11', status: 'CREATED' })
    return { dec2025, mar2026, jul2026, aug2026 }
  })
  return { t, f, admin, a, b, ids }
}

const get = async (t: TestApp, token: string, companyId: string, query = '') => {
  const res = await t.call('GET', `/company/${companyId}/charges-statistics${query}`, { token })
  return res as { status: number; json: ChargeStatistics & { code?: string; message?: string } }
}

describe('charge statistics', () => {
  it('defaults to the current calendar year and counts executed charges minus executed refunds, per category and address', async () => {
    const { t, f, admin, a } = await setup()
    const res = await get(t, admin, f.main)
    expect(res.status).toBe(200)
    expect(res.json).toMatchObject({ type: 'current', startDate: '2026-01-01', endDate: '2026-12-31' })
    const s = res.json.statistics
    expect(s.charges).toHaveLength(2)
    // Agreement A: March + July minus the August refund; the failed, reserved and unsent ones count nothing.
    const first = s.charges.find((r) => r.parts['common-expenses'] > 0)!
    expect(first.parts).toEqual({
      'hot-and-cold-water': 0,
      'hot-water': 0,
      'cold-water': 0,
      heating: 2 * 65_050 - 6_505,
      addition: 0,
      'common-expenses': 900_000 - 45_000,
      fee: 0,
      other: 0,
    })
    expect(first.total).toBe(2 * 515_050 - 51_505)
    const second = s.charges.find((r) => r !== first)!
    expect(second.parts).toEqual({
      'hot-and-cold-water': 3_000,
      'hot-water': 10_000,
      'cold-water': 5_000,
      heating: 0,
      addition: 2_000,
      'common-expenses': 0,
      fee: 1_000,
      other: 700,
    })
    expect(second.total).toBe(21_700)
    expect(s.summary.total).toBe(first.total + second.total)
    expect(s.summary.heating).toBe(first.parts.heating)
    expect(res.json.agreements.map((x) => x.externalId)).toEqual(['1001', '1002'])
    expect(res.json.agreements[0]!.id).toBe(a.id)
  })

  it('answers the previous year, the heating-water period and custom dates', async () => {
    const { t, f, admin } = await setup()
    const previous = await get(t, admin, f.main, '?type=previous')
    expect(previous.json).toMatchObject({ type: 'previous', startDate: '2025-01-01', endDate: '2025-12-31' })
    expect(previous.json.statistics.summary.total).toBe(515_050)

    const heating = await get(t, admin, f.main, '?type=heating-water')
    expect(heating.json).toMatchObject({ type: 'heating-water', startDate: '2026-06-01', endDate: '2027-05-31' })
    // July's charge, minus its refund, plus B's August charge; March is before the period.
    expect(heating.json.statistics.summary.total).toBe(515_050 - 51_505 + 21_700)

    const custom = await get(t, admin, f.main, '?type=custom&startDate=2026-03-01&endDate=2026-07-31')
    expect(custom.json).toMatchObject({ type: 'custom', startDate: '2026-03-01', endDate: '2026-07-31' })
    expect(custom.json.statistics.summary.total).toBe(2 * 515_050)
    // Dates without a type are a custom period.
    const implicit = await get(t, admin, f.main, '?startDate=2025-12-15&endDate=2025-12-15')
    expect(implicit.json).toMatchObject({ type: 'custom', startDate: '2025-12-15' })
    expect(implicit.json.statistics.summary.total).toBe(515_050)
  })

  it('refuses custom periods without both dates or with the end before the start, and invalid dates', async () => {
    const { t, f, admin } = await setup()
    for (const q of [
      '?type=custom',
      '?type=custom&startDate=2026-05-01',
      '?type=custom&startDate=2026-05-01&endDate=2026-04-30',
      '?startDate=2026-02-30&endDate=2026-03-01',
      '?type=month',
    ])
      expect((await get(t, admin, f.main, q)).status, q).toBe(400)
  })

  it('says so when the company has no heating-water period', async () => {
    const { t, f, admin } = await setup()
    await t.db.update(companies).set({ heatingWaterPeriodStartDate: null, heatingWaterPeriodEndDate: null }).where(eq(companies.id, f.main)).run()
    const res = await get(t, admin, f.main, '?type=heating-water')
    expect(res.status).toBe(422)
    expect(res.json.message).toBe('The heating and water period is not set for this company')
  })

  it('filters by agreement', async () => {
    const { t, f, admin, b } = await setup()
    const res = await get(t, admin, f.main, `?agreementId=${b.id}`)
    expect(res.json.statistics.charges).toHaveLength(1)
    expect(res.json.statistics.summary.total).toBe(21_700)
  })

  it('gives the same table as the client computes from the synced invoices', async () => {
    const { t, f, admin } = await setup()
    const invoices = (await t.call('GET', `/invoice?companyId=${f.main}`, { token: admin })).json
    for (const q of ['', '?type=previous', '?type=heating-water', '?type=custom&startDate=2025-01-01&endDate=2027-12-31']) {
      const res = (await get(t, admin, f.main, q)).json
      expect(res.statistics, q).toEqual(statisticsFromDocuments(invoices.map(documentOfInvoice), { startDate: res.startDate, endDate: res.endDate }))
    }
  })

  it('sends the bytes that serialising the objects gave, as JSON (decision 0056)', async () => {
    const { t, f, admin } = await setup()
    // Not yet in numeric order in the database, so ORDER BY external_seq has work to do.
    const invoices = (await t.call('GET', `/invoice?companyId=${f.main}`, { token: admin })).json
    const agreements = sortAgreementsByExternalId(
      (
        await t.db
          .select({ id: agreementsTable.id, externalSeq: agreementsTable.externalSeq })
          .from(agreementsTable)
          .where(eq(agreementsTable.companyId, f.main))
          .orderBy(desc(agreementsTable.id))
          .all()
      ).map((a) => ({ id: a.id, externalId: String(a.externalSeq) })),
    )
    for (const q of [
      '',
      '?type=previous',
      '?type=heating-water',
      '?type=custom&startDate=2025-12-10&endDate=2026-08-10',
      `?agreementId=${agreements[0]!.id}`,
    ]) {
      const res = await t.app.request(`/api/company/${f.main}/charges-statistics${q}`, { headers: { Authorization: `Bearer ${admin}` } })
      expect(res.status, q).toBe(200)
      expect(res.headers.get('Content-Type'), q).toBe('application/json')
      const text = await res.text()
      const { type, startDate, endDate } = JSON.parse(text) as ChargeStatistics
      const statistics = statisticsFromDocuments(invoices.map(documentOfInvoice), {
        startDate,
        endDate,
        agreementId: q.startsWith('?agreementId') ? agreements[0]!.id : undefined,
      })
      expect(text, q).toBe(JSON.stringify({ agreements, statistics, type, startDate, endDate }))
    }
  })

  it('follows billing: a charge collected through Vipps counts on its payment day, and a refund sent to Vipps is subtracted', async () => {
    const t = await testApp()
    const f = await agreementFixtures(t)
    const admin = await t.login(demo.admin)
    const a = await createAgreement(t, {}, admin)
    const chargeId = await acceptedWithCollectedCharge(t, a.id)
    expect((await get(t, admin, f.main)).json.statistics.charges).toEqual([])
    const charge = (await t.db.select().from(charges).where(eq(charges.id, chargeId)).get())!
    await transaction(t.db, async () => t.services.invoicing.followCharge(charge, 'RESERVED'))
    expect((await get(t, admin, f.main, '?type=custom&startDate=2026-11-23&endDate=2026-11-23')).json.statistics.summary.total).toBe(515_050)
    const refund = await t.call('POST', `/agreement/${a.id}/refund`, { token: admin, body: { chargeId, amount: 100_000, description: 'Fejl' } })
    expect(refund.status).toBe(201)
    expect((await get(t, admin, f.main)).json.statistics.summary.total).toBe(515_050)
    await transaction(t.db, async () => t.services.invoicing.refundSent({ outboxId: refund.json.id, ok: true }))
    const after = (await get(t, admin, f.main)).json.statistics
    expect(after.summary.total).toBe(415_050)
    // 450,000 : 65,050 of the refund, rounded down, the remainder on the last line.
    expect(after.summary['common-expenses']).toBe(450_000 - Math.floor((100_000 * 450_000) / 515_050))
  })
})

/**
 * Who may read the statistics (docs/PRODUCT.md §6: the Charges link is for company admin staff and
 * accountants). Columns as in the agreements matrix: S C A K B R N O - (super admin, chairman,
 * administrator, accountant, board member, resident, another resident, another company's
 * administrator, anonymous). `o` allowed, `3` 403, `4` 404, `1` 401.
 */
describe('authorization matrix (statistics)', () => {
  //                                                                   S C A K B R N O -
  const rows: [string, (f: { main: string; second: string }) => string, string][] = [
    ['GET /company/{id}/charges-statistics (own company)', (f) => `/company/${f.main}/charges-statistics`, 'oooo34441'],
    ['GET /company/{id}/charges-statistics (other company)', (f) => `/company/${f.second}/charges-statistics`, 'o444444o1'],
    ['GET /company/{id}/charges-statistics (no such company)', () => '/company/00000000-0000-7000-8000-000000000000/charges-statistics', '444444441'],
  ]
  it.each(callers.map((c) => [c] as const))('%s gets the expected answer', async (caller) => {
    const t = await testApp()
    const f = await agreementFixtures(t)
    const token = await tokenFor(t, caller)
    const got: string[] = []
    const want: string[] = []
    for (const [name, path, expected] of rows) {
      got.push(`${name} → ${classOf((await t.call('GET', path(f), { token })).status)}`)
      want.push(`${name} → ${expected[callers.indexOf(caller)]}`)
    }
    expect(got).toEqual(want)
  })

  it('has a row for every statistics route the app serves', async () => {
    const t = await testApp()
    const served = [...new Set(t.app.routes.filter((r) => r.path.includes('statistics') && r.method !== 'ALL').map((r) => `${r.method} ${r.path}`))]
    expect(served).toEqual(['GET /api/company/:id/charges-statistics'])
  })
})
