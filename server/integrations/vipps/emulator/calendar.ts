/**
 * Calendar-date arithmetic on `YYYY-MM-DD` strings (dates mean Europe/Copenhagen, as Vipps'
 * `due` does). Computed on UTC midnights so daylight saving never shifts a day.
 */
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/
const DAY_MS = 24 * 60 * 60 * 1000

const toUtc = (date: string): number => Date.parse(`${date}T00:00:00Z`)
const fromUtc = (ms: number): string => new Date(ms).toISOString().slice(0, 10)

/** True for a real calendar date in `YYYY-MM-DD` form (2026-02-30 is not one). */
export function isCalendarDate(value: string): boolean {
  return DATE.test(value) && Number.isFinite(toUtc(value)) && fromUtc(toUtc(value)) === value
}

export const addDays = (date: string, days: number): string => fromUtc(toUtc(date) + days * DAY_MS)

/** Whole days from `from` to `to` (negative when `to` is earlier). */
export const daysBetween = (from: string, to: string): number => Math.round((toUtc(to) - toUtc(from)) / DAY_MS)

/** Same month and day `years` later; 29 February falls back to 28 February. */
export function addYears(date: string, years: number): string {
  const [, y, m, d] = DATE.exec(date) ?? []
  const target = `${String(Number(y) + years).padStart(4, '0')}-${m}-${d}`
  return isCalendarDate(target) ? target : `${String(Number(y) + years).padStart(4, '0')}-${m}-28`
}
