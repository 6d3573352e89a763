import { useLingui } from '@lingui/react'
import { DEFAULT_LOCALE, isLocale, type Locale } from './i18n'

/** The interface locale; components using it re-render when the language changes. */
export function useLocale(): Locale {
  const { i18n } = useLingui()
  return isLocale(i18n.locale) ? i18n.locale : DEFAULT_LOCALE
}
