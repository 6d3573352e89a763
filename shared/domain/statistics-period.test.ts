import { describe, expect, it } from 'vitest'
import { currentYearPeriod, heatingWaterPeriod, isIsoDate, previousYearPeriod, resolvePeriod } from './statistics-period'

const company = (start: string | null, end: string | null) => ({ heatingWaterPeriodStartDate: start, heatingWaterPeriodEndDate: end })

describe('statistics periods', () => {
  it('defaults to this calendar year; previous is last year', () => {
    expect(currentYearPeriod('2026-11-23')).toEqual({ startDate: '2026-01-01', endDate: '2026-12-31' })
    expect(previousYearPeriod('2026-01-01')).toEqual({ startDate: '2025-01-01', endDate: '2025-12-31' })
    expect(resolvePeriod({ type: 'current' }, '2026-11-23', company(null, null))).toEqual({ startDate: '2026-01-01', endDate: '2026-12-31' })
  })

  it.each([
    // A period across the new year: the one running today.
    ['2026-11-23', '01.06', '31.05', '2026-06-01', '2027-05-31'],
    ['2026-05-31', '01.06', '31.05', '2025-06-01', '2026-05-31'],
    ['2026-06-01', '01.06', '31.05', '2026-06-01', '2027-05-31'],
    // Within one year and over: the most recently completed one.
    ['2026-11-23', '01.01', '30.06', '2026-01-01', '2026-06-30'],
    ['2026-03-01', '01.07', '31.12', '2025-07-01', '2025-12-31'],
    // Started today.
    ['2026-10-01', '01.10', '30.09', '2026-10-01', '2027-09-30'],
    // 29.02 is 28.02 in a year without it.
    ['2026-03-10', '01.03', '29.02', '2026-03-01', '2027-02-28'],
    ['2027-03-10', '01.03', '29.02', '2027-03-01', '2028-02-29'],
    ['2026-03-10', '29.02', '27.02', '2026-02-28', '2027-02-27'],
  ])('today %s, period %s–%s → %s – %s', (today, start, end, startDate, endDate) => {
    expect(heatingWaterPeriod(today, start, end)).toEqual({ startDate, endDate })
  })

  it('has no heating-water period when the company has none or a broken one', () => {
    expect(resolvePeriod({ type: 'heating-water' }, '2026-11-23', company(null, '31.05'))).toBe('heating-water-missing')
    expect(resolvePeriod({ type: 'heating-water' }, '2026-11-23', company('32.01', '31.05'))).toBe('heating-water-missing')
  })

  it('takes custom dates as given, both ends included, and refuses missing or reversed ones', () => {
    expect(resolvePeriod({ type: 'custom', startDate: '2026-02-01', endDate: '2026-02-01' }, '2026-11-23', company(null, null))).toEqual({
      startDate: '2026-02-01',
      endDate: '2026-02-01',
    })
    expect(resolvePeriod({ type: 'custom', startDate: '2026-02-02', endDate: '2026-02-01' }, '2026-11-23', company(null, null))).toBe('custom-dates-missing')
    expect(resolvePeriod({ type: 'custom', startDate: '2026-02-02' }, '2026-11-23', company(null, null))).toBe('custom-dates-missing')
    expect(isIsoDate('2026-02-29')).toBe(false)
    expect(isIsoDate('2028-02-29')).toBe(true)
  })
})
