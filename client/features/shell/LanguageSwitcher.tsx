import { useId } from 'react'
import { useLingui } from '@lingui/react/macro'
import { activateLocale, isLocale } from '../../i18n/i18n'
import { useLocale } from '../../i18n/use-locale'

/**
 * Switches the interface language on this device. The language names are autonyms ("Dansk",
 * "English"), deliberately untranslated: a reader looks for their own language's name.
 */
export function LanguageSwitcher() {
  const { t } = useLingui()
  const id = useId()
  const locale = useLocale()
  return (
    <div className="language-switcher">
      <label htmlFor={id} className="sr-only">
        {t`Language`}
      </label>
      <select
        id={id}
        className="input input-compact"
        value={locale}
        onChange={(e) => {
          if (isLocale(e.target.value)) void activateLocale(e.target.value)
        }}
      >
        <option value="da" lang="da">
          Dansk
        </option>
        <option value="en" lang="en">
          English
        </option>
      </select>
    </div>
  )
}
