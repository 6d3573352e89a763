import { describe, expect, it } from 'vitest'
import { firstOfNextMonth, startPaymentDateProblem } from './agreement-dates'

describe('the household import’s default first payment date (docs/decisions/0093)', () => {
  it('is the first day of the next month, across a year’s end, and always a valid start', () => {
    expect(firstOfNextMonth('2026-11-23')).toBe('2026-12-01')
    expect(firstOfNextMonth('2026-12-31')).toBe('2027-01-01')
    expect(firstOfNextMonth('2028-01-31')).toBe('2028-02-01')
    for (const today of ['2026-01-01', '2026-02-28', '2026-12-01', '2024-02-29']) expect(startPaymentDateProblem(firstOfNextMonth(today), today)).toBeNull()
  })
})
