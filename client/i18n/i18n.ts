/**
 * Interface language. English is the source and the default; Danish is complete. The chosen
 * locale is kept in localStorage (the first visit follows the browser's language) and mirrored to `<html lang>`; catalogs are loaded on demand
 * (the Lingui Vite plugin compiles the imported `.po` file).
 */
import { i18n } from '@lingui/core'
import type { Locale } from '../lib/format'
import { LOCALE_KEY } from '../lib/storage-keys'
import { DEFAULT_LOCALE, isLocale } from './stored-locale'

export type { Locale }
export { DEFAULT_LOCALE, isLocale, storedLocale } from './stored-locale'
export const locales: readonly Locale[] = ['en', 'da']

/** The locale in use now (for formatting and the Accept-Language header). */
export const currentLocale = (): Locale => (isLocale(i18n.locale) ? i18n.locale : DEFAULT_LOCALE)

const loaded = new Set<Locale>()

/**
 * Shows the interface in `locale`. A choice (the switcher, the account's language) is remembered on
 * this device; the start-up guess from the browser's language is not, so a later change of the
 * browser's language still counts until the reader chooses.
 */
export async function activateLocale(locale: Locale, { remember = true }: { remember?: boolean } = {}): Promise<void> {
  if (!loaded.has(locale)) {
    const { messages } = await import(`../locales/${locale}.po`)
    i18n.load(locale, messages)
    loaded.add(locale)
  }
  i18n.activate(locale)
  document.documentElement.lang = locale
  if (!remember) return
  try {
    localStorage.setItem(LOCALE_KEY, locale)
  } catch {
    // Private mode or a full quota: the choice only lasts for this page.
  }
}

export { i18n }
