import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { addYears, format, parseISO } from 'date-fns'
import { anchorDayOf, nextPaymentDate, nthPaymentDate } from './billing-period'
import { paymentPeriods, type PaymentPeriod } from './agreement-parts'

const startDate = fc
  .record({ year: fc.integer({ min: 2020, max: 2035 }), month: fc.integer({ min: 1, max: 12 }), day: fc.integer({ min: 1, max: 31 }) })
  .filter(({ year, month, day }) => day <= new Date(Date.UTC(year, month, 0)).getUTCDate())
  .map(({ year, month, day }) => `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`)

const periodsPerYear: Record<PaymentPeriod, number> = { DAILY: 365, WEEKLY: 52, MONTHLY: 12, YEARLY: 1 }
const monthOf = (d: string) => d.slice(0, 7)
const yearOf = (d: string) => d.slice(0, 4)

/** Steps the scheduler's way (one period at a time from the stored next date, anchor recomputed each time) for 10 years. */
function schedule(start: string, period: PaymentPeriod): string[] {
  const end = format(addYears(parseISO(start), 10), 'yyyy-MM-dd')
  const dates = [start]
  let next = start
  while (true) {
    next = nextPaymentDate(next, period, anchorDayOf(start, next))
    if (next >= end) return dates
    dates.push(next)
  }
}

describe('billing periods over 10 years (property-based)', () => {
  it.each(paymentPeriods.map((p) => [p]))('%s: no period skipped or doubled, and every date is the n-th period from the start', (period) => {
    fc.assert(
      fc.property(startDate, (start) => {
        const dates = schedule(start, period)
        // Strictly increasing: never two charges for one date, never a step back.
        for (let i = 1; i < dates.length; i++) expect(dates[i]! > dates[i - 1]!).toBe(true)
        // The same as stepping from the start directly (the anchor day is kept across short months).
        dates.forEach((d, n) => expect(d).toBe(nthPaymentDate(start, period, n)))
        if (period === 'MONTHLY') {
          // Exactly one charge in every calendar month, 120 in all.
          expect(dates).toHaveLength(120)
          expect(new Set(dates.map(monthOf)).size).toBe(120)
          const startDay = Number(start.slice(8))
          for (const d of dates) {
            const [y, m, day] = d.split('-').map(Number) as [number, number, number]
            expect(day).toBe(Math.min(startDay, new Date(Date.UTC(y, m, 0)).getUTCDate()))
          }
        }
        if (period === 'YEARLY') {
          expect(dates).toHaveLength(10)
          expect(new Set(dates.map(yearOf)).size).toBe(10)
        }
        if (period === 'WEEKLY') expect(dates.length).toBeGreaterThanOrEqual(periodsPerYear.WEEKLY * 10)
        if (period === 'DAILY') expect(dates.length).toBeGreaterThanOrEqual(3652)
      }),
      { numRuns: period === 'DAILY' ? 20 : 200 },
    )
  })

  it('an agreement started on the 31st is charged on the last day of shorter months and on the 31st again after them', () => {
    const dates = schedule('2026-01-31', 'MONTHLY').slice(0, 5)
    expect(dates).toEqual(['2026-01-31', '2026-02-28', '2026-03-31', '2026-04-30', '2026-05-31'])
    expect(schedule('2028-01-30', 'MONTHLY').slice(0, 3)).toEqual(['2028-01-30', '2028-02-29', '2028-03-30'])
    expect(schedule('2028-02-29', 'YEARLY').slice(0, 5)).toEqual(['2028-02-29', '2029-02-28', '2030-02-28', '2031-02-28', '2032-02-29'])
  })

  it('a next payment date moved by staff sets the new day of the month', () => {
    expect(anchorDayOf('2026-01-01', '2026-03-15')).toBe(15)
    expect(nextPaymentDate('2026-03-15', 'MONTHLY', anchorDayOf('2026-01-01', '2026-03-15'))).toBe('2026-04-15')
  })
})
