import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { isValidCvr } from './cvr'

const weights = [2, 7, 6, 5, 4, 3, 2, 1]
const digits7 = fc.array(fc.integer({ min: 0, max: 9 }), { minLength: 7, maxLength: 7 })
/** The check digit that makes the weighted sum divisible by 11, or undefined when none exists (it would be 10). */
const checkDigit = (seven: number[]) => {
  const partial = seven.reduce((acc, d, i) => acc + d * weights[i]!, 0)
  const c = (11 - (partial % 11)) % 11
  return c <= 9 ? c : undefined
}

describe('CVR (property)', () => {
  it('accepts 8 digits whose weighted sum is divisible by 11', () => {
    fc.assert(
      fc.property(digits7, (seven) => {
        const c = checkDigit(seven)
        const cvr = c === undefined ? '' : [...seven, c].join('')
        // 00000000 also passes the sum and is refused on its own (cvr.test.ts).
        if (c !== undefined && cvr !== '00000000') expect(isValidCvr(cvr)).toBe(true)
      }),
    )
  })

  it('refuses every other last digit', () => {
    fc.assert(
      fc.property(digits7, fc.integer({ min: 0, max: 9 }), (seven, last) => {
        if (last !== checkDigit(seven)) expect(isValidCvr([...seven, last].join(''))).toBe(false)
      }),
    )
  })

  it('refuses a changed single digit of a valid number', () => {
    fc.assert(
      fc.property(digits7, fc.integer({ min: 0, max: 7 }), fc.integer({ min: 1, max: 9 }), (seven, pos, delta) => {
        const c = checkDigit(seven)
        if (c === undefined) return
        const valid = [...seven, c]
        const changed = [...valid]
        changed[pos] = (changed[pos]! + delta) % 10
        expect(isValidCvr(changed.join(''))).toBe(false)
      }),
    )
  })

  it('refuses anything that is not exactly 8 digits', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 12 }), (text) => {
        if (!/^\d{8}$/.test(text)) expect(isValidCvr(text)).toBe(false)
      }),
    )
  })
})
