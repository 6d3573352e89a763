/**
 * Billing periods on calendar dates (`YYYY-MM-DD`, Europe/Copenhagen; docs/DOMAIN.md "Billing rules").
 * Dates are stepped as calendar dates, never as instants, so DST and time zones cannot move a due
 * date. A monthly or yearly agreement keeps its anchor day: started on the 31st it is charged on
 * the last day of shorter months (30 April, 28/29 February) and on the 31st again after them.
 */
import { addDays, addMonths, addYears, differenceInCalendarDays, getDaysInMonth, setDate } from 'date-fns'
import type { PaymentPeriod } from './agreement-parts'

// The billing run steps 100,000 agreements a second or so: date-fns does the calendar
// arithmetic, while reading and writing `YYYY-MM-DD` is done by hand (date-fns' parseISO and
// format are ~10 µs each). Dates are local midnight, which date-fns steps as calendar days.
const pad2 = (n: number) => (n < 10 ? `0${n}` : String(n))
const fmt = (d: Date) => `${d.getFullYear()}-${pad2(d.getMonth() + 1)}-${pad2(d.getDate())}`
const parseISO = (date: string) => new Date(Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10)))
const dayOf = (date: string) => Number(date.slice(8, 10))

/** The calendar date `days` after `date` (negative: before). */
export const plusDays = (date: string, days: number): string => fmt(addDays(parseISO(date), days))

/** Whole calendar days from `from` to `to` (negative when `to` is earlier). */
export const daysBetween = (from: string, to: string): number => differenceInCalendarDays(parseISO(to), parseISO(from))

/** The later of two calendar dates. */
export const laterOf = (a: string, b: string): string => (a > b ? a : b)

/**
 * The day of month the agreement is charged on. `next` may sit on a clamped month end (30 April
 * for an agreement of the 31st), so the start date's day wins when `next` is that clamp;
 * otherwise `next` (staff may have moved the next payment date) sets the day.
 */
export function anchorDayOf(startPaymentDate: string, next: string): number {
  const startDay = dayOf(startPaymentDate)
  const nextDay = dayOf(next)
  const lastOfMonth = getDaysInMonth(parseISO(next))
  return nextDay === lastOfMonth && startDay > nextDay ? startDay : nextDay
}

/** The payment date one period after `date`, keeping `anchorDay` for months and years. */
export function nextPaymentDate(date: string, period: PaymentPeriod, anchorDay = dayOf(date)): string {
  const d = parseISO(date)
  switch (period) {
    case 'DAILY':
      return fmt(addDays(d, 1))
    case 'WEEKLY':
      return fmt(addDays(d, 7))
    case 'MONTHLY':
    case 'YEARLY': {
      const first = setDate(d, 1)
      const target = period === 'MONTHLY' ? addMonths(first, 1) : addYears(first, 1)
      return fmt(setDate(target, Math.min(anchorDay, getDaysInMonth(target))))
    }
  }
}

/** The n-th payment date from `start` (n = 0 is `start`), computed directly from the start. */
export function nthPaymentDate(start: string, period: PaymentPeriod, n: number): string {
  const d = parseISO(start)
  switch (period) {
    case 'DAILY':
      return fmt(addDays(d, n))
    case 'WEEKLY':
      return fmt(addDays(d, 7 * n))
    case 'MONTHLY':
      return fmt(addMonths(d, n))
    case 'YEARLY':
      return fmt(addYears(d, n))
  }
}
