/**
 * Which locale this device chose last, read without Lingui: the app's first module
 * (client/sync/early-pull.ts) needs it for Accept-Language before Lingui has loaded.
 */
import type { Locale } from '../lib/format'
import { LOCALE_KEY } from '../lib/storage-keys'

export const DEFAULT_LOCALE: Locale = 'en'

export const isLocale = (value: unknown): value is Locale => value === 'en' || value === 'da'

/** The locale to start with: the last one chosen on this device (in `storage`), else English. */
export function storedLocale(storage?: Pick<Storage, 'getItem'>): Locale {
  try {
    const value = (storage ?? localStorage).getItem(LOCALE_KEY)
    return isLocale(value) ? value : DEFAULT_LOCALE
  } catch {
    return DEFAULT_LOCALE
  }
}
