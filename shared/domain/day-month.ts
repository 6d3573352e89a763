/**
 * Heating-water period dates (docs/PRODUCT.md §5): `dd.mm`, day 1–31, month 1–12, and a real calendar date
 * in the given year (29.02 only in a leap year). Stored and sent as the same `dd.mm` text.
 */
export interface DayMonth {
  day: number
  month: number
}

const pattern = /^(\d{2})\.(\d{2})$/

export const daysInMonth = (month: number, year: number): number => new Date(Date.UTC(year, month, 0)).getUTCDate()

/** The day and month of a `dd.mm` text that is a real date in `year`, else undefined. */
export function parseDayMonth(value: string, year: number): DayMonth | undefined {
  const m = pattern.exec(value)
  if (!m) return undefined
  const day = Number(m[1])
  const month = Number(m[2])
  if (month < 1 || month > 12 || day < 1 || day > 31) return undefined
  if (day > daysInMonth(month, year)) return undefined
  return { day, month }
}

export const isValidDayMonth = (value: string, year: number): boolean => parseDayMonth(value, year) !== undefined

/** `dd.mm` of a day and month (two digits each). */
export const formatDayMonth = ({ day, month }: DayMonth): string => `${String(day).padStart(2, '0')}.${String(month).padStart(2, '0')}`

/** A leap year: the most lenient year, for checks that cannot know the current year (schemas). */
export const ANY_YEAR = 2028
