import { msg } from '@lingui/core/macro'
import type { MessageDescriptor } from '@lingui/core'
import type { ErasureChannel, ErasureRequestStatus } from '../../../shared/contract/personal-data'
import type { BadgeVariant } from '../../components/ui/Badge'

/** How a request reached the association (decision 0080). */
export const channelLabels: Record<ErasureChannel, MessageDescriptor> = {
  // Lower case: it is shown in brackets after the date ("Asked on … (in the app)"), never in the channel choice.
  APP: msg`in the app`,
  LETTER: msg`Letter`,
  EMAIL: msg`E-mail`,
  PHONE: msg`Phone`,
  IN_PERSON: msg`In person`,
  OTHER: msg`Other`,
}

export const statusLabels: Record<ErasureRequestStatus, MessageDescriptor> = {
  PENDING: msg`Waiting for approval`,
  APPROVED: msg`Approved and erased`,
  REJECTED: msg`Rejected`,
  WITHDRAWN: msg`Withdrawn`,
}

export const statusBadge: Record<ErasureRequestStatus, BadgeVariant> = {
  PENDING: 'warning',
  APPROVED: 'success',
  REJECTED: 'error',
  WITHDRAWN: 'neutral',
}
