import { describe, expect, it } from 'vitest'
import { statementChargeOf, statementDocumentOf } from './local-statement'
import { accountStatement, statementPeriod, yearPeriod } from '../../../shared/domain/account-statement'

const row = (r: Record<string, unknown>) => ({ _version: 1, ...r }) as { id: string; _version: number } & Record<string, unknown>

describe('the account statement from the device’s copy', () => {
  it('reads synced invoices and charges as the server does: the failure day from the FAIL event in Copenhagen, the reason left out', () => {
    const invoice = statementDocumentOf(
      row({
        id: 'i1',
        kind: 'INVOICE',
        invoiceNumber: '7',
        name: 'Boligafgift',
        chargeId: 'c1',
        creditedInvoice: null,
        issueDate: '2026-03-01',
        status: 'EXECUTED',
        totalAmount: 100_000,
        payment: { status: 'EXECUTED', paymentType: 'ONE_TIME', paymentDate: '2026-03-09' },
        updatedAt: '2026-03-09T08:00:00.000Z',
      }),
    )!
    const failed = statementChargeOf(
      row({
        id: 'c1',
        invoiceId: 'i1',
        status: 'FAILED',
        history: [{ event: 'FAIL', amount: 0, occurredAt: '2026-03-01T23:30:00.000Z' }],
        updatedAt: '2026-03-05T00:00:00.000Z',
      }),
    )!
    expect(failed).toMatchObject({ failedOn: '2026-03-02', failureReason: null })
    expect(statementChargeOf(row({ id: 'c2', invoiceId: 'i1', status: 'EXECUTED', history: [] }))).toBeNull()
    expect(statementDocumentOf(row({ id: 'x', kind: 'INVOICE' }))).toBeNull()
    const s = accountStatement([invoice], [failed], yearPeriod(2026))
    expect(s.rows.map((r) => [r.date, r.kind, r.balance])).toEqual([
      ['2026-01-01', 'OPENING_BALANCE', 0],
      ['2026-03-01', 'INVOICE', 100_000],
      ['2026-03-02', 'CHARGE_FAILED', 100_000],
      ['2026-03-09', 'PAYMENT', 0],
    ])
  })

  it('covers the same period as the server: an interim statement to its last day, or to today while the year runs', () => {
    const invoice = statementDocumentOf(
      row({
        id: 'i1',
        kind: 'INVOICE',
        invoiceNumber: '7',
        name: 'Boligafgift',
        chargeId: 'c1',
        issueDate: '2026-12-10',
        status: 'CREATED',
        totalAmount: 5_000,
      }),
    )!
    const interim = statementPeriod(2026, '2026-12-15', '2026-12-02')
    expect(interim).toEqual({ from: '2026-01-01', to: '2026-12-02', interim: true })
    expect(accountStatement([invoice], [], interim).closingBalance).toBe(0)
    expect(accountStatement([invoice], [], statementPeriod(2026, '2026-12-15')).closingBalance).toBe(5_000)
  })
})
