import { msg } from '@lingui/core/macro'
import type { MessageDescriptor } from '@lingui/core'
import type { DocumentAudience, DocumentCategory } from '../../../shared/contract/documents'
import { formatBytes } from '../../../shared/domain/storage'

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

/** A file size in the user's language, in steps of 1024 as file managers show them: "44 bytes", "820 kB", "3,4 MB" (shared/domain/storage.ts). */
export const formatSize = (bytes: number, locale: string): string => formatBytes(bytes, locale)
