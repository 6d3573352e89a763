import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import {
  attentionItems,
  categoriesWithMoney,
  dashboardOf,
  heatingWaterSpan,
  lastMonths,
  monthRange,
  nextCollection,
  plusMonths,
  type DashboardAgreement,
  type DashboardCharge,
  type DashboardDocument,
  type DashboardInput,
} from './dashboard'
import type { PartType } from './agreement-parts'
import { openBalance } from './invoice'
import { documentOfInvoice, statisticsFromDocuments } from './statistics'

const TODAY = '2026-11-24'
const COMPANY = { id: 'c1', status: 'ACTIVE' as const, heatingWaterPeriodStartDate: '01.06', heatingWaterPeriodEndDate: '31.05' }

let seq = 0
function invoice(o: Partial<DashboardDocument> & { lines?: [PartType, number][]; paid?: string | null } = {}): DashboardDocument {
  const lines = o.lines ?? [
    ['COMMON_EXPENSES', 450_000],
    ['HEAT', 65_000],
  ]
  const total = lines.reduce((s, [, a]) => s + a, 0)
  return {
    id: o.id ?? `doc-${++seq}`,
    kind: o.kind ?? 'INVOICE',
    status: o.status ?? 'EXECUTED',
    agreementId: o.agreementId ?? 'a1',
    issueDate: o.issueDate ?? '2026-11-01',
    dueDate: o.dueDate ?? '2026-11-01',
    totalAmount: o.totalAmount ?? total,
    consumerAddress: o.consumerAddress === undefined ? 'Solvej 1' : o.consumerAddress,
    settlement: o.settlement ?? null,
    creditedInvoice: o.creditedInvoice ?? null,
    payment: o.paid === null ? null : { paymentDate: o.paid ?? o.dueDate ?? '2026-11-01' },
    invoiceArticles: lines.map(([type, amount]) => ({ type, totalPriceIncludingVat: amount })),
  }
}
const creditNote = (of: DashboardDocument, amount: number, paid: string, status: DashboardDocument['status'] = 'EXECUTED') =>
  invoice({
    kind: 'CREDIT_NOTE',
    status,
    agreementId: of.agreementId,
    issueDate: paid,
    dueDate: paid,
    paid,
    creditedInvoice: { id: of.id },
    lines: [['HEAT', amount]],
    totalAmount: amount,
  })

function agreement(o: Partial<DashboardAgreement> = {}): DashboardAgreement {
  return {
    id: o.id ?? `a-${++seq}`,
    externalId: o.externalId ?? '1001',
    status: o.status ?? 'ACCEPTED',
    member: o.member ?? { fullName: 'Emma Hansen' },
    price: o.price ?? 515_000,
    paymentPeriod: o.paymentPeriod ?? 'MONTHLY',
    startPaymentDate: o.startPaymentDate ?? '2026-01-01',
    nextRegularPaymentDate: o.nextRegularPaymentDate === undefined ? '2026-12-01' : o.nextRegularPaymentDate,
    terminationDate: o.terminationDate ?? null,
    finalPaymentRequired: o.finalPaymentRequired ?? false,
    collectionProblem: o.collectionProblem ?? null,
  }
}
const charge = (o: Partial<DashboardCharge>): DashboardCharge => ({
  id: o.id ?? `ch-${++seq}`,
  agreementId: o.agreementId ?? 'a1',
  amount: o.amount ?? 515_000,
  due: o.due ?? '2026-11-01',
  status: o.status ?? 'EXECUTED',
  invoiceId: o.invoiceId ?? null,
})

const input = (o: Partial<DashboardInput> = {}): DashboardInput => ({
  today: TODAY,
  company: COMPANY,
  documents: [],
  charges: [],
  agreements: [],
  providers: [],
  ...o,
})

describe('dashboard periods', () => {
  it('takes the last twelve months up to this one, across the new year', () => {
    expect(lastMonths('2026-11-24')).toEqual([
      '2025-12',
      '2026-01',
      '2026-02',
      '2026-03',
      '2026-04',
      '2026-05',
      '2026-06',
      '2026-07',
      '2026-08',
      '2026-09',
      '2026-10',
      '2026-11',
    ])
    expect(lastMonths('2027-01-03', 3)).toEqual(['2026-11', '2026-12', '2027-01'])
    expect(plusMonths('2026-01', -1)).toBe('2025-12')
    expect(plusMonths('2026-12', 1)).toBe('2027-01')
  })

  it('runs a month from its first to its last day, leap years included', () => {
    expect(monthRange('2026-02')).toEqual({ startDate: '2026-02-01', endDate: '2026-02-28' })
    expect(monthRange('2028-02')).toEqual({ startDate: '2028-02-01', endDate: '2028-02-29' })
    expect(monthRange('2026-12')).toEqual({ startDate: '2026-12-01', endDate: '2026-12-31' })
  })
})

describe('collected, refunded and net', () => {
  it('counts executed invoices as collected and executed credit notes as refunded, on their payment date', () => {
    const november = invoice({ paid: '2026-11-03' })
    const march = invoice({ paid: '2026-03-01', dueDate: '2026-03-01' })
    const d = dashboardOf(
      input({
        documents: [
          november,
          march,
          creditNote(november, 12_345, '2026-11-10'),
          // Refunded last year: neither this month nor this year.
          creditNote(march, 1_000, '2025-12-30'),
          // Not money that moved.
          invoice({ status: 'FAILED', paid: null }),
          invoice({ status: 'CREATED', dueDate: '2026-11-30', paid: null }),
          creditNote(november, 5_000, '2026-11-12', 'CREATED'),
          // Paid after today (the device's clock behind the provider's): outside "so far".
          invoice({ paid: '2026-11-25' }),
        ],
      }),
    )
    expect(d.month).toMatchObject({ startDate: '2026-11-01', endDate: TODAY, collected: 515_000, refunded: 12_345, net: 515_000 - 12_345 })
    expect(d.month.categories).toMatchObject({ 'common-expenses': 450_000, heating: 65_000 - 12_345 })
    expect(d.year).toMatchObject({ startDate: '2026-01-01', endDate: TODAY, collected: 1_030_000, refunded: 12_345, net: 1_030_000 - 12_345 })
  })

  it("equals the charge statistics' total for the same dates, for any documents (the endpoint's figure)", () => {
    const doc = fc.record({
      kind: fc.constantFrom('INVOICE' as const, 'CREDIT_NOTE' as const),
      status: fc.constantFrom('EXECUTED' as const, 'EXECUTED' as const, 'FAILED' as const, 'CREATED' as const, 'CANCELED' as const),
      day: fc.integer({ min: 0, max: 800 }),
      address: fc.constantFrom('Solvej 1', 'Solvej 2', null),
      lines: fc.array(fc.tuple(fc.constantFrom<PartType>('HEAT', 'COLD_WATER', 'FEE', 'OTHER', 'COMMON_EXPENSES'), fc.integer({ min: 1, max: 900_000 })), {
        minLength: 1,
        maxLength: 3,
      }),
    })
    const dateOf = (day: number) => new Date(Date.UTC(2025, 0, 1 + day)).toISOString().slice(0, 10)
    fc.assert(
      fc.property(fc.array(doc, { maxLength: 40 }), fc.integer({ min: 0, max: 800 }), (docs, todayIndex) => {
        const today = dateOf(todayIndex)
        const documents = docs.map((x) => invoice({ kind: x.kind, status: x.status, paid: dateOf(x.day), consumerAddress: x.address, lines: x.lines }))
        const reference = documents.map(documentOfInvoice)
        const d = dashboardOf(input({ today, documents }))
        for (const p of [d.month, d.year, ...d.months]) {
          const stats = statisticsFromDocuments(reference, p).summary
          expect(p.net).toBe(stats.total)
          expect(p.collected - p.refunded).toBe(p.net)
          const { total: _total, ...categories } = stats
          expect(p.categories).toEqual(categories)
        }
        // Each month of the chart is its own first-to-last day.
        expect(d.months.map((m) => m.month)).toEqual(lastMonths(today))
        for (const m of d.months) expect(m).toMatchObject(monthRange(m.month))
      }),
    )
  })

  it('leaves out of the chart the categories without money, keeping the statistics order', () => {
    const d = dashboardOf(
      input({ documents: [invoice({ paid: '2026-06-02', lines: [['FEE', 100]] }), invoice({ paid: '2026-01-02', lines: [['COLD_WATER', 200]] })] }),
    )
    expect(categoriesWithMoney(d.months)).toEqual(['cold-water', 'fee'])
    expect(d.months.find((m) => m.month === '2026-06')!.categories.fee).toBe(100)
  })
})

describe('outstanding', () => {
  it("is the debtor rule's open amount: failed or past due, less credit notes, not settled", () => {
    const failed = invoice({ status: 'FAILED', dueDate: '2026-11-02', paid: null, totalAmount: 515_000 })
    const pastDue = invoice({ status: 'CREATED', dueDate: '2026-11-20', paid: null, totalAmount: 300_000 })
    const notYetDue = invoice({ status: 'CREATED', dueDate: '2026-11-24', paid: null })
    const settled = invoice({ status: 'FAILED', dueDate: '2026-11-02', paid: null, settlement: { kind: 'PAID_OUTSIDE' } })
    const lastYear = invoice({ status: 'FAILED', dueDate: '2025-12-01', paid: null, totalAmount: 100_000 })
    const partlyCredited = creditNote(failed, 15_000, '2026-11-05')
    const documents = [failed, pastDue, notYetDue, settled, lastYear, partlyCredited]
    const d = dashboardOf(input({ documents }))
    expect(d.month.outstanding).toBe(500_000 + 300_000)
    expect(d.year.outstanding).toBe(800_000)
    expect(d.outstanding).toEqual({ amount: 900_000, invoices: 3 })
    expect(d.outstanding.amount).toBe(
      openBalance(
        documents.map((x) => ({ ...x, creditedInvoiceId: x.creditedInvoice?.id ?? null })),
        TODAY,
      ),
    )
  })
})

describe('next collection', () => {
  it('is the earliest coming payment day with everything due that day', () => {
    const a1 = agreement({ id: 'a1', nextRegularPaymentDate: '2026-12-01', price: 515_000 })
    const a2 = agreement({ id: 'a2', nextRegularPaymentDate: '2026-12-01', price: 540_000 })
    const a3 = agreement({ id: 'a3', nextRegularPaymentDate: '2027-01-01', price: 1 })
    expect(nextCollection([a1, a2, a3], [], TODAY)).toEqual({ date: '2026-12-01', amount: 1_055_000, payments: 2 })
  })

  it('counts a charge already made once, and open one-off charges too', () => {
    const a1 = agreement({ id: 'a1', nextRegularPaymentDate: '2026-11-27', price: 515_000 })
    const charges = [
      // Billing made the charge of the 27th (3 days ahead) but the agreement row is older.
      charge({ agreementId: 'a1', due: '2026-11-27', status: 'CREATED', amount: 515_000 }),
      charge({ agreementId: 'a9', due: '2026-11-27', status: 'RESERVED', amount: 125_000 }),
      // Settled or past: not coming.
      charge({ agreementId: 'a9', due: '2026-11-26', status: 'EXECUTED' }),
      charge({ agreementId: 'a9', due: '2026-11-20', status: 'CREATED' }),
    ]
    expect(nextCollection([a1], charges, TODAY)).toEqual({ date: '2026-11-27', amount: 640_000, payments: 2 })
  })

  it('skips agreements billing skips, and a company that does not collect has none', () => {
    const ok = agreement({ nextRegularPaymentDate: '2026-12-05', price: 10 })
    const notAccepted = agreement({ status: 'CREATED', nextRegularPaymentDate: '2026-12-01' })
    const problem = agreement({ collectionProblem: 'PROVIDER_INACTIVE', nextRegularPaymentDate: '2026-12-01' })
    const ended = agreement({ status: 'CLOSED', nextRegularPaymentDate: '2026-12-01' })
    expect(nextCollection([ok, notAccepted, problem, ended], [], TODAY)).toEqual({ date: '2026-12-05', amount: 10, payments: 1 })
    expect(nextCollection([ok], [], TODAY, false)).toBeNull()
    expect(nextCollection([], [], TODAY)).toBeNull()
  })

  it("is a termination's last payment when the regular ones have ended", () => {
    // Terminated on 16 December with a last payment: it pays 1–15 December, due 3 days before.
    const a = agreement({ price: 310_000, nextRegularPaymentDate: '2026-12-01', terminationDate: '2026-12-16', finalPaymentRequired: true })
    expect(nextCollection([a], [], TODAY)).toEqual({ date: '2026-12-13', amount: 150_000, payments: 1 })
  })
})

describe('heating-and-water period on the chart', () => {
  const window = { startDate: '2025-12-01', endDate: '2026-11-30' }
  it("marks the statistics' period, cut to the months shown", () => {
    expect(heatingWaterSpan(TODAY, window, COMPANY)).toEqual({
      period: { startDate: '2026-06-01', endDate: '2027-05-31' },
      shown: { startDate: '2026-06-01', endDate: '2026-11-30' },
    })
    expect(heatingWaterSpan(TODAY, window, { heatingWaterPeriodStartDate: '01.10', heatingWaterPeriodEndDate: '30.04' })!.shown).toEqual({
      startDate: '2026-10-01',
      endDate: '2026-11-30',
    })
    expect(heatingWaterSpan('2026-03-01', { startDate: '2025-04-01', endDate: '2026-03-31' }, COMPANY)!.shown).toEqual({
      startDate: '2025-06-01',
      endDate: '2026-03-31',
    })
  })

  it('marks nothing without a period', () => {
    expect(heatingWaterSpan(TODAY, window, { heatingWaterPeriodStartDate: null, heatingWaterPeriodEndDate: null })).toBeNull()
    expect(heatingWaterSpan(TODAY, window, null)).toBeNull()
  })
})

describe('attention list', () => {
  it('is empty when nothing needs attention', () => {
    const a = agreement({ id: 'a1' })
    const paid = invoice({ agreementId: 'a1' })
    expect(
      attentionItems(
        input({
          agreements: [a],
          documents: [paid],
          charges: [charge({ agreementId: 'a1', invoiceId: paid.id })],
          providers: [{ id: 'p1', isActive: true, providerName: 'Vipps MobilePay', webhooks: 1 }],
        }),
      ),
    ).toEqual([])
  })

  it('names each thing to fix, most pressing first', () => {
    const emma = agreement({ id: 'a1', externalId: '1001', member: { fullName: 'Emma Hansen' } })
    const lars = agreement({ id: 'a2', externalId: '1002', member: { fullName: 'Lars Pedersen' } })
    const failedOld = invoice({ agreementId: 'a2', status: 'FAILED', dueDate: '2026-10-01', paid: null, totalAmount: 515_000 })
    const failedNew = invoice({ agreementId: 'a1', status: 'FAILED', dueDate: '2026-11-01', paid: null, totalAmount: 400_000 })
    const retried = invoice({ agreementId: 'a1', status: 'EXECUTED', dueDate: '2026-09-01' })
    const writtenOff = invoice({ agreementId: 'a1', status: 'FAILED', dueDate: '2026-08-01', paid: null, settlement: { kind: 'WRITTEN_OFF' } })
    const items = attentionItems(
      input({
        company: { ...COMPANY, status: 'NEW' },
        providers: [
          { id: 'p1', isActive: true, providerName: 'Vipps MobilePay', webhooks: 0 },
          { id: 'p2', isActive: false, providerName: 'Old', webhooks: 0 },
        ],
        agreements: [
          emma,
          lars,
          agreement({ id: 'a3', externalId: '1010', status: 'CREATED', member: { fullName: 'Nina' } }),
          agreement({ id: 'a4', externalId: '1004', status: 'PENDING', member: { fullName: 'Ole' } }),
          agreement({ id: 'a5', externalId: '1005', status: 'CANCELED', terminationDate: '2026-12-24', member: { fullName: 'Pia' } }),
          agreement({ id: 'a6', externalId: '1006', status: 'ACCEPTED', terminationDate: '2026-11-30', member: { fullName: 'Rasmus' } }),
          // 31 days ahead, already past, or closed: not soon.
          agreement({ id: 'a7', externalId: '1007', terminationDate: '2026-12-25' }),
          agreement({ id: 'a8', externalId: '1008', status: 'CLOSED', terminationDate: '2026-11-30' }),
          agreement({ id: 'a9', externalId: '1009', status: 'CANCELED', terminationDate: '2026-11-23' }),
        ],
        documents: [failedOld, failedNew, retried, writtenOff, creditNote(failedNew, 10_000, '2026-11-05')],
        charges: [
          charge({ agreementId: 'a2', status: 'FAILED', due: '2026-10-01', invoiceId: failedOld.id }),
          charge({ agreementId: 'a2', status: 'DECLINED', due: '2026-10-04', invoiceId: failedOld.id }),
          charge({ agreementId: 'a1', status: 'FAILED', due: '2026-11-01', invoiceId: failedNew.id }),
          // Failed, then collected by a retry on the same invoice; and one written off.
          charge({ agreementId: 'a1', status: 'FAILED', due: '2026-09-01', invoiceId: retried.id }),
          charge({ agreementId: 'a1', status: 'FAILED', due: '2026-08-01', invoiceId: writtenOff.id }),
        ],
      }),
    )
    expect(items).toEqual([
      { kind: 'company-not-active', companyId: 'c1', status: 'NEW' },
      { kind: 'provider-without-webhooks', companyId: 'c1', providerId: 'p1', providerName: 'Vipps MobilePay' },
      { kind: 'failed-charges', agreementId: 'a2', externalId: '1002', memberName: 'Lars Pedersen', charges: 2, amount: 515_000, since: '2026-10-01' },
      { kind: 'failed-charges', agreementId: 'a1', externalId: '1001', memberName: 'Emma Hansen', charges: 1, amount: 390_000, since: '2026-11-01' },
      { kind: 'termination-soon', agreementId: 'a6', externalId: '1006', memberName: 'Rasmus', terminationDate: '2026-11-30' },
      { kind: 'termination-soon', agreementId: 'a5', externalId: '1005', memberName: 'Pia', terminationDate: '2026-12-24' },
      { kind: 'awaiting-acceptance', agreementId: 'a4', externalId: '1004', memberName: 'Ole', status: 'PENDING' },
      { kind: 'awaiting-acceptance', agreementId: 'a3', externalId: '1010', memberName: 'Nina', status: 'CREATED' },
    ])
  })
})
