import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { spansOf } from './statistics-spans'

/** Every day of the spans, in order: month runs expanded with the real calendar. */
function daysOfSpans(startDate: string, endDate: string): string[] {
  const { days, months } = spansOf(startDate, endDate)
  const out: string[] = []
  const range = (a: string, b: string) => {
    for (let t = Date.parse(a); t <= Date.parse(b); t += 86_400_000) out.push(new Date(t).toISOString().slice(0, 10))
  }
  for (const m of months)
    range(new Date(Date.UTC(m.year, m.from - 1, 1)).toISOString().slice(0, 10), new Date(Date.UTC(m.year, m.to, 0)).toISOString().slice(0, 10))
  for (const d of days) range(d.startDate, d.endDate)
  return out.sort()
}

const day = fc.integer({ min: 0, max: 4 * 366 }).map((n) => new Date(Date.UTC(2023, 0, 1) + n * 86_400_000).toISOString().slice(0, 10))

describe('statistics spans', () => {
  it('reads a calendar year as one run of its months and no day rows', () => {
    expect(spansOf('2026-01-01', '2026-12-31')).toEqual({ days: [], months: [{ year: 2026, from: 1, to: 12 }] })
  })

  it('splits a heating-and-water period at the new year', () => {
    expect(spansOf('2026-06-01', '2027-05-31')).toEqual({
      days: [],
      months: [
        { year: 2026, from: 6, to: 12 },
        { year: 2027, from: 1, to: 5 },
      ],
    })
  })

  it('reads partial first and last months from the day rows, leap day included', () => {
    expect(spansOf('2024-01-15', '2024-02-28')).toEqual({
      days: [
        { startDate: '2024-01-15', endDate: '2024-01-31' },
        { startDate: '2024-02-01', endDate: '2024-02-28' },
      ],
      months: [],
    })
    expect(spansOf('2024-02-01', '2024-02-29')).toEqual({ days: [], months: [{ year: 2024, from: 2, to: 2 }] })
    expect(spansOf('2026-03-05', '2026-03-05')).toEqual({ days: [{ startDate: '2026-03-05', endDate: '2026-03-05' }], months: [] })
  })

  it('covers every day of any period exactly once', () => {
    fc.assert(
      fc.property(day, day, (a, b) => {
        const [startDate, endDate] = a <= b ? [a, b] : [b, a]
        const expected: string[] = []
        for (let t = Date.parse(startDate); t <= Date.parse(endDate); t += 86_400_000) expected.push(new Date(t).toISOString().slice(0, 10))
        expect(daysOfSpans(startDate, endDate)).toEqual(expected)
        // At most one partial month at each end, and month runs inside one year each.
        const { days, months } = spansOf(startDate, endDate)
        expect(days.length).toBeLessThanOrEqual(2)
        for (const m of months) expect(1 <= m.from && m.from <= m.to && m.to <= 12).toBe(true)
      }),
      { numRuns: 500 },
    )
  })
})
