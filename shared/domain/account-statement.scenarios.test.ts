/**
 * The account statement's money in the cases billing produces (decision 0068): partial and
 * repeated refunds, retries, write-offs, payments outside Vipps MobilePay,
 * cancellations, a refund not yet paid out, and the year boundary over random histories.
 */
import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { accountStatement, yearPeriod, type StatementCharge, type StatementDocument } from './account-statement'
import { creditNote, invoice, year } from './account-statement.test-fixtures'

const paid = (on: string, over: Partial<StatementDocument> = {}) => invoice({ status: 'EXECUTED', payment: { paymentDate: on }, ...over })
const charge = (of: StatementDocument, id: string, status: string, failedOn: string | null): StatementCharge => ({
  id,
  invoiceId: of.id,
  status,
  failedOn,
  failureReason: 'insufficient_funds',
  updatedAt: '2026-03-02T08:00:00.000Z',
})
const lines = (s: ReturnType<typeof accountStatement>) => s.rows.slice(1).map((r) => `${r.date} ${r.kind} ${r.debit - r.credit} ${r.balance}`)

describe('account statement money, case by case', () => {
  it('a partial refund: the member is owed the refund until it is paid out, then even', () => {
    const i = paid('2026-03-03')
    const c = creditNote(i, { issueDate: '2026-04-01', totalAmount: 25_000, status: 'EXECUTED', payment: { paymentDate: '2026-04-02' } })
    const s = accountStatement([i, c], [], year)
    expect(lines(s)).toEqual([
      '2026-03-01 INVOICE 100000 100000',
      '2026-03-03 PAYMENT -100000 0',
      '2026-04-01 CREDIT_NOTE -25000 -25000',
      '2026-04-02 REFUND_PAID 25000 0',
    ])
  })

  it('two refunds of one invoice, the second not yet paid out: never shown as paid back before it is', () => {
    const i = paid('2026-03-01')
    const first = creditNote(i, { issueDate: '2026-04-01', totalAmount: 30_000, status: 'EXECUTED', payment: { paymentDate: '2026-04-01' } })
    // Issued, its refund queued at Vipps MobilePay (status CREATED, no payment yet).
    const second = creditNote(i, { issueDate: '2026-05-01', totalAmount: 20_000, status: 'CREATED', payment: { paymentDate: null } })
    const s = accountStatement([second, i, first], [], year)
    expect(lines(s)).toEqual([
      '2026-03-01 INVOICE 100000 100000',
      '2026-03-01 PAYMENT -100000 0',
      '2026-04-01 CREDIT_NOTE -30000 -30000',
      '2026-04-01 REFUND_PAID 30000 0',
      '2026-05-01 CREDIT_NOTE -20000 -20000',
    ])
    expect(s.rows.filter((r) => r.kind === 'REFUND_PAID')).toHaveLength(1)
    expect(s.closingBalance).toBe(-20_000)
    // A refund Vipps MobilePay refused (FAILED) is not paid back either: the member is still owed it.
    const refused = accountStatement([i, first, { ...second, status: 'FAILED' }], [], year)
    expect(refused.closingBalance).toBe(-20_000)
  })

  it('collect again: fails twice, then succeeds; each failure is a row, the balance owed until the payment', () => {
    const i = paid('2026-03-20')
    const s = accountStatement(
      [i],
      [
        charge(i, 'c0', 'FAILED', '2026-03-02'),
        charge(i, 'c1', 'FAILED', '2026-03-09'),
        charge(i, 'c2', 'DECLINED', '2026-03-16'),
        charge(i, 'c3', 'EXECUTED', null),
        charge(i, 'c4', 'CANCELED', null),
      ],
      year,
    )
    expect(lines(s)).toEqual([
      '2026-03-01 INVOICE 100000 100000',
      '2026-03-02 CHARGE_FAILED 0 100000',
      '2026-03-09 CHARGE_FAILED 0 100000',
      '2026-03-16 CHARGE_FAILED 0 100000',
      '2026-03-20 PAYMENT -100000 0',
    ])
  })

  // writeOffInvoice marks the invoice settled WRITTEN_OFF as well as issuing the credit note.
  const writtenOff = { kind: 'WRITTEN_OFF' as const, date: '2026-06-01', note: null }

  it('a failure then a write-off: the write-off closes it', () => {
    const i = invoice({ status: 'FAILED', settlement: writtenOff })
    const w = creditNote(i, { issueDate: '2026-06-01', settlement: { kind: 'WRITTEN_OFF', date: '2026-06-01', note: 'Moved away' } })
    const s = accountStatement([i, w], [charge(i, 'c0', 'FAILED', '2026-03-02')], year)
    expect(lines(s)).toEqual(['2026-03-01 INVOICE 100000 100000', '2026-03-02 CHARGE_FAILED 0 100000', '2026-06-01 WRITE_OFF -100000 0'])
  })

  it('a write-off of an overdue invoice whose charge was still open (billing cancels it): credited once, not twice', () => {
    // writeOffInvoice stops collecting: the invoice's own charge is cancelled, so the invoice turns CANCELED (and settled).
    const w0 = (of: StatementDocument) => creditNote(of, { issueDate: '2026-06-01', settlement: writtenOff })
    const settled = invoice({ status: 'CANCELED', settlement: writtenOff })
    expect(lines(accountStatement([settled, w0(settled)], [], year))).toEqual(['2026-03-01 INVOICE 100000 100000', '2026-06-01 WRITE_OFF -100000 0'])
    // Even without the invoice's own mark (a credit note on a cancelled invoice), the cancellation voids only what is not credited.
    const i = invoice({ status: 'CANCELED' })
    const w = w0(i)
    const s = accountStatement([i, w], [], year)
    expect(s.closingBalance).toBe(0)
    expect(lines(s)).toEqual(['2026-03-01 INVOICE 100000 100000', '2026-06-01 WRITE_OFF -100000 0'])
    // A partial write-off of it: the cancellation voids only what the write-off did not.
    const part = accountStatement([i, { ...w, totalAmount: 40_000 }], [], year)
    expect(lines(part)).toEqual(['2026-03-01 INVOICE 100000 100000', '2026-03-01 CANCELLED -60000 40000', '2026-06-01 WRITE_OFF -40000 0'])
  })

  it('paid outside Vipps MobilePay after a failure', () => {
    const i = invoice({ status: 'FAILED', settlement: { kind: 'PAID_OUTSIDE', date: '2026-03-10', note: 'Bank transfer' } })
    const s = accountStatement([i], [charge(i, 'c0', 'FAILED', '2026-03-02')], year)
    expect(lines(s)).toEqual(['2026-03-01 INVOICE 100000 100000', '2026-03-02 CHARGE_FAILED 0 100000', '2026-03-10 PAID_OUTSIDE -100000 0'])
    expect(s.rows[3]!.text).toBe('Bank transfer')
  })

  it('a cancelled invoice, a one-time charge, a lending deposit charged and refunded, a final charge, two agreements', () => {
    const cancelled = invoice({ status: 'CANCELED', issueDate: '2026-02-01' })
    const oneTime = paid('2026-02-05', { issueDate: '2026-02-05', totalAmount: 12_345, name: 'Key' })
    const deposit = paid('2026-02-10', { issueDate: '2026-02-10', totalAmount: 50_000, name: 'Depositum Trailer' })
    const back = creditNote(deposit, { issueDate: '2026-02-12', totalAmount: 50_000, status: 'EXECUTED', payment: { paymentDate: '2026-02-13' } })
    const otherAgreement = invoice({ issueDate: '2026-02-10', totalAmount: 70_000, chargeId: 'other-agreement', status: 'FAILED' })
    const finalCharge = paid('2026-03-01', { issueDate: '2026-03-01', totalAmount: 33_000, name: 'Final charge' })
    const s = accountStatement([finalCharge, otherAgreement, back, deposit, oneTime, cancelled], [], year)
    expect(lines(s)).toEqual([
      '2026-02-01 INVOICE 100000 100000',
      '2026-02-01 CANCELLED -100000 0',
      '2026-02-05 INVOICE 12345 12345',
      '2026-02-05 PAYMENT -12345 0',
      `2026-02-10 INVOICE 50000 50000`,
      `2026-02-10 INVOICE 70000 120000`,
      '2026-02-10 PAYMENT -50000 70000',
      '2026-02-12 CREDIT_NOTE -50000 20000',
      '2026-02-13 REFUND_PAID 50000 70000',
      '2026-03-01 INVOICE 33000 103000',
      '2026-03-01 PAYMENT -33000 70000',
    ])
    expect(s.closingBalance).toBe(70_000)
  })

  // Random histories over three years: the invoices a member can have, in any state billing leaves them.
  const day = fc.record({ y: fc.integer({ min: 2025, max: 2027 }), m: fc.integer({ min: 1, max: 12 }), d: fc.integer({ min: 1, max: 28 }) })
  const iso = (x: { y: number; m: number; d: number }) => `${x.y}-${String(x.m).padStart(2, '0')}-${String(x.d).padStart(2, '0')}`
  const later = (a: string, b: string) => (a < b ? b : a)
  const history = fc.array(
    fc.record({
      issued: day,
      amount: fc.integer({ min: 1, max: 5_000_000 }),
      fate: fc.constantFrom('OPEN', 'PAID', 'FAILED', 'CANCELED', 'OUTSIDE', 'WRITTEN_OFF', 'CANCELED_WRITTEN_OFF'),
      settledOn: day,
      failures: fc.array(day, { maxLength: 3 }),
      refunds: fc.array(fc.record({ on: day, part: fc.integer({ min: 1, max: 100 }), paidOut: fc.boolean() }), { maxLength: 2 }),
    }),
    { maxLength: 25 },
  )
  const build = (specs: typeof history extends fc.Arbitrary<infer T> ? T : never) => {
    const docs: StatementDocument[] = []
    const charges: StatementCharge[] = []
    for (const s of specs) {
      const issued = iso(s.issued)
      const on = later(issued, iso(s.settledOn))
      const i = invoice({
        issueDate: issued,
        totalAmount: s.amount,
        status:
          s.fate === 'PAID' ? 'EXECUTED'
          : s.fate === 'CANCELED' || s.fate === 'CANCELED_WRITTEN_OFF' ? 'CANCELED'
          : s.fate === 'OPEN' ? 'CREATED'
          : 'FAILED',
        payment: s.fate === 'PAID' ? { paymentDate: on } : null,
        settlement:
          s.fate === 'OUTSIDE' ? { kind: 'PAID_OUTSIDE', date: on, note: null }
          : s.fate === 'WRITTEN_OFF' ? { kind: 'WRITTEN_OFF', date: on, note: null }
          : null,
      })
      docs.push(i)
      s.failures.forEach((f, k) => charges.push(charge(i, `${i.id}-f${k}`, 'FAILED', later(issued, iso(f)))))
      if (s.fate === 'WRITTEN_OFF' || s.fate === 'CANCELED_WRITTEN_OFF')
        docs.push(creditNote(i, { issueDate: on, totalAmount: s.amount, settlement: { kind: 'WRITTEN_OFF', date: on, note: null } }))
      if (s.fate === 'PAID')
        for (const r of s.refunds) {
          const at = later(on, iso(r.on))
          docs.push(
            creditNote(i, {
              issueDate: at,
              totalAmount: Math.max(1, Math.floor((s.amount * r.part) / 200)),
              status: r.paidOut ? 'EXECUTED' : 'CREATED',
              payment: r.paidOut ? { paymentDate: at } : null,
            }),
          )
        }
    }
    return { docs, charges }
  }

  it('the balance brought forward is the previous year’s closing balance, and settled history nets to 0, in any input order', () => {
    fc.assert(
      fc.property(history, fc.integer(), (specs, seed) => {
        const { docs, charges } = build(specs)
        const shuffled = fc.sample(fc.shuffledSubarray(docs, { minLength: docs.length, maxLength: docs.length }), { numRuns: 1, seed })[0]!
        const years = [2025, 2026, 2027].map((y) => accountStatement(docs, charges, yearPeriod(y)))
        expect(accountStatement(shuffled, [...charges].reverse(), yearPeriod(2026))).toEqual(years[1])
        expect(years[0]!.openingBalance).toBe(0)
        for (let k = 1; k < years.length; k++) expect(years[k]!.openingBalance).toBe(years[k - 1]!.closingBalance)
        for (const s of years) {
          let balance = s.openingBalance
          for (const r of s.rows.slice(1)) {
            balance += r.debit - r.credit
            expect(r.balance).toBe(balance)
          }
          expect(s.closingBalance).toBe(balance)
        }
        // What the member still owes at the end: the open invoices (unsettled, not paid, not cancelled),
        // less the refunds credited but not paid out.
        const owed = specs.reduce((sum, s) => sum + (s.fate === 'OPEN' || s.fate === 'FAILED' ? s.amount : 0), 0)
        const pendingRefunds = docs
          .filter((d) => d.kind === 'CREDIT_NOTE' && !d.settlement && d.status !== 'EXECUTED')
          .reduce((sum, d) => sum + d.totalAmount, 0)
        expect(years[2]!.closingBalance).toBe(owed - pendingRefunds)
      }),
      { numRuns: 300 },
    )
  })
})
