/**
 * Which locale to start with, read without Lingui: the app's first module
 * (client/sync/early-pull.ts) needs it for Accept-Language before Lingui has loaded.
 */
import type { Locale } from '../lib/format'
import { LOCALE_KEY } from '../lib/storage-keys'

export const DEFAULT_LOCALE: Locale = 'en'

export const isLocale = (value: unknown): value is Locale => value === 'en' || value === 'da'

type Languages = { readonly languages?: readonly string[]; readonly language?: string }

/**
 * The first of the browser's preferred languages the interface speaks ("da-DK" → Danish; Norwegian
 * or Swedish readers are not guessed Danish), else English (docs/PRODUCT.md, "Language").
 */
export function browserLocale(nav?: Languages): Locale {
  try {
    const source = nav ?? navigator
    const preferred =
      source.languages?.length ? source.languages
      : source.language ? [source.language]
      : []
    for (const tag of preferred) {
      const primary = tag.toLowerCase().split('-')[0]
      if (isLocale(primary)) return primary
    }
  } catch {
    // No navigator (tests, workers): English.
  }
  return DEFAULT_LOCALE
}

/** The locale chosen last on this device (in `storage`), else the browser's language. */
export function storedLocale(storage?: Pick<Storage, 'getItem'>, nav?: Languages): Locale {
  try {
    const value = (storage ?? localStorage).getItem(LOCALE_KEY)
    if (isLocale(value)) return value
  } catch {
    // Private mode: fall through to the browser's language.
  }
  return browserLocale(nav)
}
