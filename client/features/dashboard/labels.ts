/** The dashboard's words and date forms (decision 0060), per interface locale. */
import type { Locale } from '../../lib/format'

export { categoryLabels } from '../statistics/category-labels'

const intlLocale = (locale: Locale) => (locale === 'da' ? 'da-DK' : 'en-GB')
const formats = new Map<string, Intl.DateTimeFormat>()
function format(locale: Locale, key: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  let f = formats.get(`${locale}:${key}`)
  if (!f) formats.set(`${locale}:${key}`, (f = new Intl.DateTimeFormat(intlLocale(locale), { ...options, timeZone: 'UTC' })))
  return f
}
/** A calendar date as the UTC midnight Intl formats without moving it. */
const utc = (date: string) => new Date(Date.UTC(Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10) || '1')))

/** "Nov" / "nov" for a month `YYYY-MM` (the chart's axis): three letters, so twelve fit ("Sept" and "sep." would not). */
export const shortMonth = (month: string, locale: Locale): string =>
  format(locale, 'short', { month: 'short' }).format(utc(month)).replace(/\.$/, '').slice(0, 3)

/** "November 2026" / "november 2026". */
export const longMonth = (month: string, locale: Locale): string => format(locale, 'long', { month: 'long', year: 'numeric' }).format(utc(month))

/** Two calendar dates as one range: "1–24 Nov 2026" / "1.–24. nov. 2026". */
export const dateRange = (start: string, end: string, locale: Locale): string =>
  format(locale, 'range', { day: 'numeric', month: 'short', year: 'numeric' }).formatRange(utc(start), utc(end))
