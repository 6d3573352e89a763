import { describe, expect, it } from 'vitest'
import { dashboardOf } from '../../../shared/domain/dashboard'
import type { LocalDb } from '../../sync/local-db'
import { freshLocalDbEachTest } from '../../sync/fresh-local-db'
import { localStatistics } from '../statistics/use-charge-statistics'
import { dashboardInput, readDashboardRows } from './use-dashboard'

let db: LocalDb
freshLocalDbEachTest((d) => (db = d))

const TODAY = '2026-11-24'
const COMPANY = 'c0000000-0000-4000-8000-000000000001'
const OTHER = 'c0000000-0000-4000-8000-000000000002'

const company = (id: string) => ({
  id,
  _version: 1,
  name: 'Solgården',
  status: 'ACTIVE',
  heatingWaterPeriodStartDate: '01.06',
  heatingWaterPeriodEndDate: '31.05',
})
const agreement = (id: string, companyId: string, externalId: string, over: Record<string, unknown> = {}) => ({
  id,
  _version: 1,
  companyId,
  externalId,
  status: 'ACCEPTED',
  member: { fullName: `Member ${externalId}` },
  price: 515_000,
  paymentPeriod: 'MONTHLY',
  startPaymentDate: '2026-01-01',
  nextRegularPaymentDate: '2026-12-01',
  terminationDate: null,
  finalPaymentRequired: false,
  collectionProblem: null,
  ...over,
})
let n = 0
const document = (companyId: string, agreementId: string, over: Record<string, unknown> = {}) => ({
  id: `inv-${++n}`,
  _version: 1,
  companyId,
  agreementId,
  kind: 'INVOICE',
  status: 'EXECUTED',
  issueDate: '2026-11-01',
  dueDate: '2026-11-01',
  totalAmount: 515_000,
  consumerAddress: 'Solvej 1',
  settlement: null,
  creditedInvoice: null,
  payment: { status: 'EXECUTED', paymentType: 'REGULAR', paymentDate: '2026-11-02' },
  invoiceArticles: [
    { type: 'COMMON_EXPENSES', totalPriceIncludingVat: 450_000 },
    { type: 'HEAT', totalPriceIncludingVat: 65_000 },
  ],
  ...over,
})

async function seed() {
  await db.companies.bulkPut([company(COMPANY), company(OTHER)])
  await db.agreements.bulkPut([
    agreement('a1', COMPANY, '1001'),
    agreement('a2', COMPANY, '1002'),
    agreement('a3', COMPANY, '1003', { status: 'CREATED' }),
    agreement('x1', OTHER, '1001'),
    // A local preview of an agreement created offline, before the server answered: not counted.
    { id: 'preview', _version: 0, companyId: COMPANY },
  ])
  const failed = document(COMPANY, 'a2', { status: 'FAILED', payment: { status: 'FAILED', paymentType: 'REGULAR', paymentDate: null } })
  const collected = document(COMPANY, 'a1')
  await db.invoices.bulkPut([
    collected,
    document(COMPANY, 'a1', {
      issueDate: '2026-03-01',
      dueDate: '2026-03-01',
      payment: { status: 'EXECUTED', paymentType: 'REGULAR', paymentDate: '2026-03-02' },
    }),
    {
      ...document(COMPANY, 'a1', { kind: 'CREDIT_NOTE', totalAmount: 12_345, creditedInvoice: { id: collected.id, invoiceNumber: '1' } }),
      invoiceArticles: [{ type: 'HEAT', totalPriceIncludingVat: 12_345 }],
      payment: { status: 'EXECUTED', paymentType: 'REFUND', paymentDate: '2026-11-10' },
    },
    failed,
    document(OTHER, 'x1', { totalAmount: 999_999 }),
  ])
  await db.charges.bulkPut([
    { id: 'ch1', _version: 1, agreementId: 'a2', companyId: COMPANY, amount: 515_000, due: '2026-11-01', status: 'FAILED', invoiceId: failed.id },
    { id: 'ch2', _version: 1, agreementId: 'a1', companyId: COMPANY, amount: 125_000, due: '2026-11-27', status: 'CREATED', invoiceId: null },
    { id: 'chx', _version: 1, agreementId: 'x1', companyId: OTHER, amount: 1, due: '2026-11-26', status: 'CREATED', invoiceId: null },
  ])
  await db.paymentProviders.bulkPut([
    { id: 'p1', _version: 1, companyId: COMPANY, isActive: true, config: { providerName: 'Vipps MobilePay' }, hooks: [], webhookCount: 0 },
    { id: 'p2', _version: 1, companyId: COMPANY, isActive: true, config: { providerName: 'Backup' }, hooks: [{ id: 'h', url: 'https://x', events: [] }] },
    { id: 'px', _version: 1, companyId: OTHER, isActive: true, config: { providerName: 'Other' }, hooks: [] },
  ])
}

describe('the dashboard from the local copy', () => {
  it("reads only the current company's rows and leaves out rows the server has not confirmed", async () => {
    await seed()
    const rows = await readDashboardRows(db, COMPANY)
    expect(rows.company?.id).toBe(COMPANY)
    expect(rows.invoices.map((i) => i.companyId)).toEqual(Array(4).fill(COMPANY))
    expect(rows.charges.map((c) => c.id).sort()).toEqual(['ch1', 'ch2'])
    expect(rows.providers.map((p) => p.id).sort()).toEqual(['p1', 'p2'])
    const input = dashboardInput(rows, TODAY)
    expect(input.agreements.map((a) => a.id).sort()).toEqual(['a1', 'a2', 'a3'])
    expect(input.providers).toEqual([
      { id: 'p1', isActive: true, providerName: 'Vipps MobilePay', webhooks: 0 },
      { id: 'p2', isActive: true, providerName: 'Backup', webhooks: 1 },
    ])
  })

  it('shows the figures the statistics screen computes offline for the same dates', async () => {
    await seed()
    const d = dashboardOf(dashboardInput(await readDashboardRows(db, COMPANY), TODAY))
    for (const period of [d.month, d.year]) {
      const stats = await localStatistics(db, { companyId: COMPANY, type: 'custom', startDate: period.startDate, endDate: period.endDate }, TODAY)
      if (typeof stats === 'string') throw new Error(stats)
      expect(period.net).toBe(stats.statistics.summary.total)
    }
    expect(d.month).toMatchObject({ collected: 515_000, refunded: 12_345, net: 502_655, outstanding: 515_000 })
    expect(d.year).toMatchObject({ collected: 1_030_000, refunded: 12_345, net: 1_017_655 })
    // The one-off charge of the 27th comes before the agreements' 1 December.
    expect(d.next).toEqual({ date: '2026-11-27', amount: 125_000, payments: 1 })
    expect(d.attention.map((i) => i.kind)).toEqual(['provider-without-webhooks', 'failed-charges', 'awaiting-acceptance'])
  })
})
