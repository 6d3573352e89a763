import { describe, expect, it } from 'vitest'
import { autoFormatDayMonth, normalizeDayMonth } from './day-month-input'

describe('autoFormatDayMonth', () => {
  it.each([
    ['', ''],
    ['1', '1'],
    ['15', '15'],
    ['150', '15.0'],
    ['1503', '15.03'],
    ['15032', '15.03'],
    ['15.03', '15.03'],
    ['15.', '15.'],
    ['1.3', '1.3'],
    ['a1b5c0d3', '15.03'],
    ['15.0.3', '15.03'],
  ])('%j → %j', (raw, expected) => expect(autoFormatDayMonth(raw)).toBe(expected))

  it('is stable: formatting its own output changes nothing', () => {
    for (const raw of ['1', '15', '150', '1503', '1.3', '15.']) expect(autoFormatDayMonth(autoFormatDayMonth(raw))).toBe(autoFormatDayMonth(raw))
  })
})

describe('normalizeDayMonth', () => {
  it('pads a valid date', () => expect(normalizeDayMonth('1.3')).toBe('01.03'))
  it('keeps a valid padded date', () => expect(normalizeDayMonth('15.03')).toBe('15.03'))
  it('leaves other text for validation to report', () => expect(normalizeDayMonth('15.')).toBe('15.'))
  it('trims', () => expect(normalizeDayMonth(' ')).toBe(''))
})
