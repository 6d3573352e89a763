/**
 * Formatting at the edge of the UI, per interface locale. Amounts are integer øre (docs/API.md
 * "Identifiers, money, dates"); calendar dates are `YYYY-MM-DD` strings meaning Copenhagen;
 * instants are ISO timestamps shown in Copenhagen time.
 */
import { COPENHAGEN, copenhagenDateOf } from '../../shared/domain/copenhagen'
import { formatKroner } from '../../shared/domain/money'

export type Locale = 'en' | 'da'

/** English uses en-GB: day-first dates like the Danish ones, and `DKK 1,234.50` for money. */
const intlLocale = (locale: Locale) => (locale === 'da' ? 'da-DK' : 'en-GB')
const TIME_ZONE = COPENHAGEN

const cache = new Map<string, Intl.NumberFormat | Intl.DateTimeFormat>()
function cached<T extends Intl.NumberFormat | Intl.DateTimeFormat>(key: string, make: () => T): T {
  let f = cache.get(key)
  if (!f) cache.set(key, (f = make()))
  return f as T
}

/**
 * `4.950,50 kr.` in Danish, `DKK 4,950.50` in English: the product's one money format
 * (shared/domain/money.ts, also used by the server), in the reader's locale
 * (docs/decisions/0084-money-in-the-readers-locale.md).
 */
export const formatMoney = (amountOre: number, locale: Locale): string => formatKroner(amountOre, locale)

/** A number per locale; `fractionDigits` fixes the decimals (2 for kroner amounts without the currency). */
export function formatNumber(value: number, locale: Locale, fractionDigits?: number): string {
  const options = fractionDigits === undefined ? {} : { minimumFractionDigits: fractionDigits, maximumFractionDigits: fractionDigits }
  return cached(`number:${locale}:${fractionDigits ?? ''}`, () => new Intl.NumberFormat(intlLocale(locale), options)).format(value)
}

const CALENDAR_DATE = /^(\d{4})-(\d{2})-(\d{2})$/

/**
 * A calendar date (`YYYY-MM-DD`), an ISO instant or a Date, as a date. A calendar date is taken
 * as it stands, so no time zone can move it to the day before.
 */
export function formatDate(value: string | Date, locale: Locale, style: 'short' | 'medium' | 'long' = 'medium'): string {
  const m = typeof value === 'string' ? CALENDAR_DATE.exec(value) : null
  if (m) {
    const utc = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])))
    return cached(`date:${locale}:${style}:utc`, () => new Intl.DateTimeFormat(intlLocale(locale), { dateStyle: style, timeZone: 'UTC' })).format(utc)
  }
  return cached(`date:${locale}:${style}`, () => new Intl.DateTimeFormat(intlLocale(locale), { dateStyle: style, timeZone: TIME_ZONE })).format(new Date(value))
}

/** An instant with date and time (seconds included: log lines are often seconds apart). */
export function formatDateTime(value: string | Date, locale: Locale): string {
  return cached(
    `datetime:${locale}`,
    () => new Intl.DateTimeFormat(intlLocale(locale), { dateStyle: 'short', timeStyle: 'medium', timeZone: TIME_ZONE }),
  ).format(new Date(value))
}

/** A recent instant: the time alone when it is today (in Copenhagen), else the date and time. */
export function formatRecent(value: string | Date | number, locale: Locale, now: Date = new Date()): string {
  const at = new Date(value)
  const time = cached(`time:${locale}`, () => new Intl.DateTimeFormat(intlLocale(locale), { timeStyle: 'short', timeZone: TIME_ZONE })).format(at)
  if (formatDate(at, locale, 'short') === formatDate(now, locale, 'short')) return time
  return cached(`recent:${locale}`, () => new Intl.DateTimeFormat(intlLocale(locale), { dateStyle: 'short', timeStyle: 'short', timeZone: TIME_ZONE })).format(
    at,
  )
}

/** Today's calendar date in Copenhagen, `YYYY-MM-DD` (what date inputs and the API use). */
export const todayIso = (now: Date = new Date()): string => copenhagenDateOf(now)
