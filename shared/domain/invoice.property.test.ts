import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { invoiceTotals, lineAmounts, articleNumberOf, creditShares, lineShares, openBalance, isUnpaid } from './invoice'
import { vatIncluded } from './agreement-parts'

const line = fc.record({ grossOre: fc.integer({ min: 1, max: 50_000_000 }), vatRate: fc.constantFrom(0 as const, 25 as const) })

describe('invoice totals and VAT (property-based)', () => {
  it('VAT is rounded per line in whole øre; subtotal + VAT = total = sum of the lines', () => {
    fc.assert(
      fc.property(fc.array(line, { minLength: 1, maxLength: 12 }), (lines) => {
        const t = invoiceTotals(lines)
        expect(t.totalOre).toBe(lines.reduce((s, l) => s + l.grossOre, 0))
        expect(t.subtotalOre + t.vatOre).toBe(t.totalOre)
        expect(t.vatOre).toBe(lines.reduce((s, l) => s + lineAmounts(l).vatOre, 0))
        for (const l of lines) {
          const a = lineAmounts(l)
          expect(Number.isInteger(a.vatOre)).toBe(true)
          // 25 % VAT included in a gross price is a fifth of it, within half an øre.
          if (l.vatRate === 25) expect(Math.abs(a.vatOre - l.grossOre / 5)).toBeLessThanOrEqual(0.5)
          else expect(a.vatOre).toBe(0)
          expect(a.pricePerUnitOre + a.vatOre).toBe(a.totalInclVatOre)
        }
      }),
    )
  })

  it('rounds half up: 25 % of 1,003 øre gross is 200.6 → 201 øre VAT', () => {
    expect(vatIncluded(1003, 25)).toBe(201)
    expect(
      invoiceTotals([
        { grossOre: 1003, vatRate: 25 },
        { grossOre: 450_000, vatRate: 0 },
      ]),
    ).toEqual({ subtotalOre: 450_802, vatOre: 201, totalOre: 451_003, vatRate: 25 })
  })

  it('a credit note spreads the refund over the lines in proportion and adds up to the refund exactly', () => {
    fc.assert(
      fc.property(fc.array(line, { minLength: 1, maxLength: 6 }), fc.integer({ min: 100, max: 1_000_000 }), (lines, wanted) => {
        const total = lines.reduce((s, l) => s + l.grossOre, 0)
        const amount = Math.min(wanted, total)
        const shares = creditShares(
          lines.map((l) => l.grossOre),
          amount,
        )
        expect(shares.reduce((s, x) => s + x, 0)).toBe(amount)
        shares.forEach((x, i) => {
          expect(x).toBeGreaterThanOrEqual(0)
          expect(x).toBeLessThanOrEqual(lines[i]!.grossOre)
        })
      }),
    )
  })

  it('a refund split over chosen lines adds up exactly, never exceeds what is left on a line, and leaves other lines alone', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 5_000_000 }), { minLength: 1, maxLength: 8 }),
        fc.array(fc.nat(7), { maxLength: 4 }),
        fc.integer({ min: 0, max: 12_000_000 }),
        (remaining, picks, amount) => {
          const chosen = [...new Set(picks.filter((i) => i < remaining.length))]
          const shares = lineShares(remaining, amount, chosen)
          const available = remaining.reduce((s, r, i) => s + (chosen.length === 0 || chosen.includes(i) ? r : 0), 0)
          if (amount > available) {
            expect(shares).toBeNull()
            return
          }
          expect(shares).not.toBeNull()
          expect(shares!.reduce((s, x) => s + x, 0)).toBe(amount)
          shares!.forEach((x, i) => {
            expect(Number.isInteger(x)).toBe(true)
            expect(x).toBeGreaterThanOrEqual(0)
            expect(x).toBeLessThanOrEqual(remaining[i]!)
            if (chosen.length && !chosen.includes(i)) expect(x).toBe(0)
          })
        },
      ),
    )
  })

  it("the treasurer's heating refund: 500 kr. on the heating line alone", () => {
    expect(lineShares([450_000, 65_050], 50_000, [1])).toEqual([0, 50_000])
    expect(lineShares([450_000, 65_050], 65_051, [1])).toBeNull()
    // Nothing chosen: every line in proportion, as before.
    expect(lineShares([450_000, 65_050], 15_050)).toEqual(creditShares([450_000, 65_050], 15_050))
  })

  it('open balance: unpaid invoices (failed, or past due and not collected, not settled) less their credit notes', () => {
    const doc = (id: string, status: 'CREATED' | 'FAILED' | 'EXECUTED' | 'CANCELED', dueDate: string, totalAmount: number, extra = {}) => ({
      id,
      kind: 'INVOICE' as const,
      status,
      dueDate,
      totalAmount,
      ...extra,
    })
    const today = '2027-02-10'
    const docs = [
      doc('jan', 'FAILED', '2027-01-01', 533_000),
      doc('feb', 'EXECUTED', '2027-02-01', 533_000),
      doc('mar', 'CREATED', '2027-03-01', 533_000),
      doc('late', 'CREATED', '2027-02-05', 10_000),
      doc('cancelled', 'CANCELED', '2027-01-15', 99_999),
      doc('settled', 'FAILED', '2026-12-01', 70_000, { settlement: { kind: 'PAID_OUTSIDE' as const } }),
      { id: 'cn', kind: 'CREDIT_NOTE' as const, status: 'EXECUTED' as const, dueDate: today, totalAmount: 3_000, creditedInvoiceId: 'late' },
    ]
    expect(docs.filter((d) => isUnpaid(d, today)).map((d) => d.id)).toEqual(['jan', 'late'])
    expect(openBalance(docs, today)).toBe(533_000 + 7_000)
  })

  it('article numbers sort as text in line order', () => {
    const numbers = Array.from({ length: 12 }, (_, i) => articleNumberOf(i))
    expect([...numbers].sort()).toEqual(numbers)
  })
})
