/**
 * The one money format of the product (client screens, server messages, e-mails, PDFs and files):
 * integer øre shown as kroner with two decimals, in the reader's locale
 * (docs/decisions/0084-money-in-the-readers-locale.md):
 * - Danish: `4.950,50 kr.` (`-1,00 kr.` below zero), as da-DK writes it.
 * - English: `DKK 4,950.50` (en-GB).
 * Between number and currency is a no-break space, so an amount never wraps. A Danish sentence
 * that ends on an amount takes no full stop of its own: the one of "kr." ends it
 * (`npm run i18n:check` refuses a Danish entry that would read "kr..").
 */
export type MoneyLocale = 'en' | 'da'

const formats = new Map<MoneyLocale, Intl.NumberFormat>()

export function formatKroner(amountOre: number, locale: MoneyLocale): string {
  let f = formats.get(locale)
  if (!f) formats.set(locale, (f = new Intl.NumberFormat(locale === 'da' ? 'da-DK' : 'en-GB', { style: 'currency', currency: 'DKK' })))
  return f.format(amountOre / 100)
}
