/**
 * The periods of the charge statistics (docs/PRODUCT.md §2, §9, decision 0032), as `YYYY-MM-DD` Copenhagen dates,
 * both ends included:
 * - `current`: 1 January to 31 December of this year (the default);
 * - `previous`: 1 January to 31 December of last year;
 * - `heating-water`: the company's heating-and-water period (start and end stored as `dd.mm`).
 *   The period runs from the start day to the end day, into the next year when the end comes
 *   before the start in the calendar (01.06 → 31.05). Of its yearly repetitions the one chosen is
 *   the latest that has started by today: the current period while one runs, otherwise the most
 *   recently completed one (01.01–30.06 seen in November: this year's, completed). 29.02 means
 *   28.02 in a year without it;
 * - `custom`: the dates the user typed.
 */
import { parseDayMonth, ANY_YEAR, daysInMonth } from './day-month'

export const statisticsPeriodTypes = ['current', 'previous', 'heating-water', 'custom'] as const
export type StatisticsPeriodType = (typeof statisticsPeriodTypes)[number]

export interface DateRange {
  startDate: string
  endDate: string
}

const pad = (n: number) => String(n).padStart(2, '0')
const yearOf = (date: string) => Number(date.slice(0, 4))

/** A real calendar date `YYYY-MM-DD`. */
export const isIsoDate = (value: string): boolean => {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value)
  if (!m) return false
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])]
  return mo >= 1 && mo <= 12 && d >= 1 && d <= daysInMonth(mo, y)
}

export const currentYearPeriod = (today: string): DateRange => ({ startDate: `${yearOf(today)}-01-01`, endDate: `${yearOf(today)}-12-31` })

export const previousYearPeriod = (today: string): DateRange => ({ startDate: `${yearOf(today) - 1}-01-01`, endDate: `${yearOf(today) - 1}-12-31` })

/** `dd.mm` in `year`, with 29.02 as 28.02 when the year has no 29 February. */
function dateIn(year: number, dayMonth: { day: number; month: number }): string {
  return `${year}-${pad(dayMonth.month)}-${pad(Math.min(dayMonth.day, daysInMonth(dayMonth.month, year)))}`
}

/** The heating-and-water period to show today, or undefined when the company has not set a valid one. */
export function heatingWaterPeriod(today: string, start: string | null | undefined, end: string | null | undefined): DateRange | undefined {
  if (!start || !end) return undefined
  const s = parseDayMonth(start, ANY_YEAR)
  const e = parseDayMonth(end, ANY_YEAR)
  if (!s || !e) return undefined
  const crossesYear = e.month * 100 + e.day < s.month * 100 + s.day
  for (let year = yearOf(today); ; year--) {
    const startDate = dateIn(year, s)
    if (startDate <= today) return { startDate, endDate: dateIn(crossesYear ? year + 1 : year, e) }
  }
}

export interface PeriodRequest {
  type: StatisticsPeriodType
  startDate?: string
  endDate?: string
}

/**
 * The dates of a requested period, or a reason it has none: `heating-water-missing` when the
 * company has no period stored, `custom-dates-missing` when custom dates are absent or reversed.
 */
export function resolvePeriod(
  request: PeriodRequest,
  today: string,
  company: { heatingWaterPeriodStartDate: string | null; heatingWaterPeriodEndDate: string | null },
): DateRange | 'heating-water-missing' | 'custom-dates-missing' {
  switch (request.type) {
    case 'current':
      return currentYearPeriod(today)
    case 'previous':
      return previousYearPeriod(today)
    case 'heating-water':
      return heatingWaterPeriod(today, company.heatingWaterPeriodStartDate, company.heatingWaterPeriodEndDate) ?? 'heating-water-missing'
    case 'custom': {
      const { startDate, endDate } = request
      if (!startDate || !endDate || !isIsoDate(startDate) || !isIsoDate(endDate) || startDate > endDate) return 'custom-dates-missing'
      return { startDate, endDate }
    }
  }
}
