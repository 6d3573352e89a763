import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { accountStatement, statementPeriod, yearEnded, type StatementCharge, type StatementDocument } from './account-statement'
import { creditNote, invoice, year } from './account-statement.test-fixtures'

const failed = (of: StatementDocument, over: Partial<StatementCharge> = {}): StatementCharge => ({
  id: `${of.chargeId}-f`,
  invoiceId: of.id,
  status: 'FAILED',
  failedOn: '2026-03-02',
  failureReason: 'insufficient_funds',
  updatedAt: '2026-03-02T08:00:00.000Z',
  ...over,
})
const kinds = (s: ReturnType<typeof accountStatement>) => s.rows.map((r) => `${r.date} ${r.kind} ${r.debit - r.credit} ${r.balance}`)

describe('account statement (kontokort)', () => {
  it('a paid invoice nets 0: the invoice (debit) then its payment (credit)', () => {
    const i = invoice({ status: 'EXECUTED', payment: { paymentDate: '2026-03-05' } })
    const s = accountStatement([i], [], year)
    expect(kinds(s)).toEqual(['2026-01-01 OPENING_BALANCE 0 0', '2026-03-01 INVOICE 100000 100000', '2026-03-05 PAYMENT -100000 0'])
    expect(s.closingBalance).toBe(0)
  })

  it('a failed charge (0, with its reason), then the retry paid: the balance owes until the payment', () => {
    const i = invoice({ status: 'EXECUTED', payment: { paymentDate: '2026-03-09' } })
    const s = accountStatement([i], [failed(i), { ...failed(i), id: 'retry', status: 'EXECUTED' }], year)
    expect(kinds(s)).toEqual([
      '2026-01-01 OPENING_BALANCE 0 0',
      '2026-03-01 INVOICE 100000 100000',
      '2026-03-02 CHARGE_FAILED 0 100000',
      '2026-03-09 PAYMENT -100000 0',
    ])
    expect(s.rows[2]!.reason).toBe('insufficient_funds')
  })

  it('a refund: the credit note is in the member’s favour until the money is paid back', () => {
    const i = invoice({ status: 'EXECUTED', payment: { paymentDate: '2026-03-01' } })
    const c = creditNote(i, { issueDate: '2026-04-01', totalAmount: 30_000, status: 'EXECUTED', payment: { paymentDate: '2026-04-03' } })
    const s = accountStatement([c, i], [], year)
    expect(kinds(s).slice(1)).toEqual([
      '2026-03-01 INVOICE 100000 100000',
      '2026-03-01 PAYMENT -100000 0',
      '2026-04-01 CREDIT_NOTE -30000 -30000',
      '2026-04-03 REFUND_PAID 30000 0',
    ])
    expect(s.rows[3]!.creditedNumber).toBe(i.invoiceNumber)
  })

  it('a write-off and a payment outside Vipps MobilePay close an unpaid invoice', () => {
    const a = invoice({ status: 'FAILED' })
    const w = creditNote(a, { issueDate: '2026-05-01', settlement: { kind: 'WRITTEN_OFF', date: '2026-05-01', note: 'Moved away' } })
    const b = invoice({ status: 'CANCELED', settlement: { kind: 'PAID_OUTSIDE', date: '2026-05-02', note: 'Bank transfer' } })
    const s = accountStatement([a, w, b], [failed(a), failed(b)], year)
    expect(s.rows.map((r) => r.kind)).toEqual(['OPENING_BALANCE', 'INVOICE', 'INVOICE', 'CHARGE_FAILED', 'CHARGE_FAILED', 'WRITE_OFF', 'PAID_OUTSIDE'])
    expect(s.rows.find((r) => r.kind === 'PAID_OUTSIDE')!.text).toBe('Bank transfer')
    expect(s.closingBalance).toBe(0)
  })

  it('a cancelled invoice owes nothing: voided on its issue day', () => {
    const i = invoice({ status: 'CANCELED' })
    expect(kinds(accountStatement([i], [], year)).slice(1)).toEqual(['2026-03-01 INVOICE 100000 100000', '2026-03-01 CANCELLED -100000 0'])
  })

  it('carries what happened before the period as the opening balance and leaves out what came after', () => {
    const old = invoice({ issueDate: '2025-12-01', status: 'FAILED' })
    const later = invoice({ issueDate: '2027-01-02' })
    const s = accountStatement([old, later], [], year)
    expect(s.openingBalance).toBe(100_000)
    expect(kinds(s)).toEqual(['2026-01-01 OPENING_BALANCE 0 100000'])
    expect(s.closingBalance).toBe(100_000)
  })

  const doc = fc.record({
    kind: fc.constantFrom('INVOICE' as const, 'CREDIT_NOTE' as const),
    day: fc.integer({ min: 1, max: 28 }),
    paidDay: fc.option(fc.integer({ min: 1, max: 28 })),
    amount: fc.integer({ min: 1, max: 10_000_000 }),
    status: fc.constantFrom('CREATED' as const, 'EXECUTED' as const, 'FAILED' as const, 'CANCELED' as const),
    month: fc.integer({ min: 1, max: 12 }),
  })
  const day = (m: number, d: number) => `2026-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`

  it('the balance is always the running sum of debits less credits, in date order, whatever the input order', () => {
    fc.assert(
      fc.property(fc.array(doc, { maxLength: 30 }), fc.integer({ min: 1, max: 12 }), (specs, fromMonth) => {
        const docs = specs.map((s) =>
          invoice({
            kind: s.kind,
            issueDate: day(s.month, s.day),
            status: s.status,
            totalAmount: s.amount,
            payment: s.paidDay ? { paymentDate: day(s.month, Math.max(s.day, s.paidDay)) } : null,
          }),
        )
        const period = { from: day(fromMonth, 1), to: '2026-12-31' }
        const s = accountStatement(docs, [], period)
        const whole = accountStatement([...docs].reverse(), [], year)
        expect(accountStatement([...docs].reverse(), [], period)).toEqual(s)
        let balance = s.openingBalance
        for (const r of s.rows.slice(1)) {
          expect(r.debit >= 0 && r.credit >= 0 && Number.isInteger(r.debit - r.credit)).toBe(true)
          balance += r.debit - r.credit
          expect(r.balance).toBe(balance)
        }
        expect(s.closingBalance).toBe(whole.closingBalance)
        expect(s.openingBalance + s.totalDebit - s.totalCredit).toBe(s.closingBalance)
        for (let i = 2; i < s.rows.length; i++) expect(s.rows[i - 1]!.date <= s.rows[i]!.date).toBe(true)
      }),
    )
  })
  it('a year ends after 31 December (Copenhagen): until then its statement is interim, to today or to the day asked', () => {
    expect(yearEnded(2026, '2026-12-31')).toBe(false)
    expect(yearEnded(2026, '2027-01-01')).toBe(true)
    expect(statementPeriod(2026, '2026-12-02')).toEqual({ from: '2026-01-01', to: '2026-12-02', interim: true })
    expect(statementPeriod(2026, '2026-12-31')).toEqual({ from: '2026-01-01', to: '2026-12-31', interim: true })
    expect(statementPeriod(2026, '2027-01-04')).toEqual({ from: '2026-01-01', to: '2026-12-31', interim: false })
    expect(statementPeriod(2026, '2027-01-04', '2026-06-30')).toEqual({ from: '2026-01-01', to: '2026-06-30', interim: true })
    expect(statementPeriod(2030, '2026-12-02')).toEqual({ from: '2030-01-01', to: '2030-12-31', interim: true })
  })
})
