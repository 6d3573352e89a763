import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { invoiceTotals, lineAmounts, articleNumberOf, creditShares } from './invoice'
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
    expect(invoiceTotals([{ grossOre: 1003, vatRate: 25 }, { grossOre: 450_000, vatRate: 0 }])).toEqual({ subtotalOre: 450_802, vatOre: 201, totalOre: 451_003, vatRate: 25 })
  })

  it('a credit note spreads the refund over the lines in proportion and adds up to the refund exactly', () => {
    fc.assert(
      fc.property(fc.array(line, { minLength: 1, maxLength: 6 }), fc.integer({ min: 100, max: 1_000_000 }), (lines, wanted) => {
        const total = lines.reduce((s, l) => s + l.grossOre, 0)
        const amount = Math.min(wanted, total)
        const shares = creditShares(lines.map((l) => l.grossOre), amount)
        expect(shares.reduce((s, x) => s + x, 0)).toBe(amount)
        shares.forEach((x, i) => {
          expect(x).toBeGreaterThanOrEqual(0)
          expect(x).toBeLessThanOrEqual(lines[i]!.grossOre)
        })
      }),
    )
  })

  it('article numbers sort as text in line order', () => {
    const numbers = Array.from({ length: 12 }, (_, i) => articleNumberOf(i))
    expect([...numbers].sort()).toEqual(numbers)
  })
})
