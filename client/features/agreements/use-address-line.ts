import { msg } from '@lingui/core/macro'
import { useLingui } from '@lingui/react/macro'
import { isDenmark } from '../../../shared/domain/address'
import { addressLine } from './labels'

const denmark = msg`Denmark`

/** `addressLine` with the country in the reader's language ("Danmark" in Danish, decision 0038). */
export function useAddressLine(): (a: Parameters<typeof addressLine>[0]) => string {
  const { i18n } = useLingui()
  return (a) => addressLine({ ...a, country: isDenmark(a.country) ? i18n._(denmark) : a.country })
}
