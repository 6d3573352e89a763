import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { daysInMonth, formatDayMonth, isValidDayMonth, parseDayMonth } from './day-month'

const year = fc.integer({ min: 1900, max: 2200 })

describe('dd.mm (heating-water period dates)', () => {
  it('accepts every real date of the year, formatted dd.mm, and parses it back', () => {
    fc.assert(
      fc.property(year, fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 31 }), (y, month, d) => {
        const day = Math.min(d, daysInMonth(month, y))
        expect(parseDayMonth(formatDayMonth({ day, month }), y)).toEqual({ day, month })
      }),
    )
  })

  it('refuses a day past the end of its month', () => {
    fc.assert(
      fc.property(year, fc.integer({ min: 1, max: 12 }), (y, month) => {
        const day = daysInMonth(month, y) + 1
        if (day <= 31) expect(isValidDayMonth(formatDayMonth({ day, month }), y)).toBe(false)
      }),
    )
  })

  it('refuses day 0, month 0 and months above 12', () => {
    fc.assert(
      fc.property(year, fc.integer({ min: 0, max: 99 }), fc.integer({ min: 0, max: 99 }), (y, day, month) => {
        const text = `${String(day).padStart(2, '0')}.${String(month).padStart(2, '0')}`
        if (day === 0 || month === 0 || month > 12 || day > 31) expect(isValidDayMonth(text, y)).toBe(false)
      }),
    )
  })

  it('refuses anything not shaped dd.mm', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 8 }), year, (text, y) => {
        if (!/^\d{2}\.\d{2}$/.test(text)) expect(isValidDayMonth(text, y)).toBe(false)
      }),
    )
  })

  it('knows 29.02 only in leap years', () => {
    expect(isValidDayMonth('29.02', 2028)).toBe(true)
    expect(isValidDayMonth('29.02', 2026)).toBe(false)
    expect(isValidDayMonth('29.02', 2100)).toBe(false)
    expect(isValidDayMonth('29.02', 2000)).toBe(true)
  })
})
