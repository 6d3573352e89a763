/** Words of the specialists' screens (decision 0065). */
import { msg } from '@lingui/core/macro'
import type { MessageDescriptor } from '@lingui/core'
import type { SpecialistKind } from '../../../shared/contract/specialists'

export const kindLabels: Record<SpecialistKind, MessageDescriptor> = {
  PLUMBER: msg`Plumber`,
  ELECTRICIAN: msg`Electrician`,
  ADMINISTRATOR: msg`Administrator`,
  LAWYER: msg`Lawyer`,
  OTHER: msg`Other`,
}

/** A web address as shown: without the scheme and a trailing slash. */
export const shownWebsite = (url: string) => url.replace(/^https?:\/\//i, '').replace(/\/$/, '')

/** Whether a web address may be a link: http(s) only (the server accepts nothing else; a copy from elsewhere is shown as text). */
export const isWebLink = (url: string) => /^https?:\/\//i.test(url)
