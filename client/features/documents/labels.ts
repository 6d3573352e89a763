import { msg } from '@lingui/core/macro'
import type { MessageDescriptor } from '@lingui/core'
import type { DocumentAudience, DocumentCategory } from '../../../shared/contract/documents'

export const categoryLabels: Record<DocumentCategory, MessageDescriptor> = {
  BYLAWS: msg`Bylaws`,
  MINUTES: msg`Minutes`,
  BUDGET: msg`Budget`,
  ANNUAL_REPORT: msg`Annual report`,
  HOUSE_RULES: msg`House rules`,
  OTHER: msg`Other`,
}

export const audienceLabels: Record<DocumentAudience, MessageDescriptor> = {
  MEMBERS: msg`All members`,
  BOARD: msg`The board`,
  STAFF: msg`The administration`,
}

/** A file size in the user's language, in steps of 1024 as file managers show them: "44 bytes", "820 kB", "3,4 MB". */
export function formatSize(bytes: number, locale: string): string {
  const units = ['byte', 'kilobyte', 'megabyte'] as const
  let value = bytes
  let unit = 0
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024
    unit++
  }
  return new Intl.NumberFormat(locale === 'da' ? 'da-DK' : 'en-GB', {
    style: 'unit',
    unit: units[unit],
    // Bytes in words ("1 byte", "44 bytes": the short form would say "44 byte"); larger units short ("820 kB").
    unitDisplay: unit === 0 ? 'long' : 'short',
    maximumFractionDigits: unit === 0 ? 0 : 1,
  }).format(value)
}
