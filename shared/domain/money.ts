/**
 * The one money format of the product (client screens, server messages and e-mails): integer øre
 * shown as kroner with two decimals.
 * - Danish: `kr. 1.234,50` (`-kr. 1,00` below zero). The currency goes first, so an amount that ends a sentence is followed
 *   by one full stop, never "kr.." (Intl's own `1.234,50 kr.` puts the abbreviation's full stop
 *   right before the sentence's).
 * - English: `DKK 1,234.50` (en-GB).
 * Between currency and number is a no-break space, so an amount never wraps.
 */
export type MoneyLocale = 'en' | 'da'

const NBSP = '\u00a0'

const number = new Map<MoneyLocale, Intl.NumberFormat>()
const currency = new Map<MoneyLocale, Intl.NumberFormat>()

export function formatKroner(amountOre: number, locale: MoneyLocale): string {
  if (locale === 'da') {
    let f = number.get(locale)
    if (!f) number.set(locale, (f = new Intl.NumberFormat('da-DK', { minimumFractionDigits: 2, maximumFractionDigits: 2 })))
    // The sign goes before the currency, as in English ("-DKK 1.00").
    return `${amountOre < 0 ? '-' : ''}kr.${NBSP}${f.format(Math.abs(amountOre) / 100)}`
  }
  let f = currency.get(locale)
  if (!f) currency.set(locale, (f = new Intl.NumberFormat('en-GB', { style: 'currency', currency: 'DKK' })))
  return f.format(amountOre / 100)
}
