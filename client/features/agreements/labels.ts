import { msg } from '@lingui/core/macro'
import type { MessageDescriptor } from '@lingui/core'
import type { AgreementStatus } from '../../../shared/contract/agreements'
import type { PartType, PaymentPeriod } from '../../../shared/domain/agreement-parts'

export const agreementStatusLabels: Record<AgreementStatus, MessageDescriptor> = {
  CREATED: msg`Created`,
  PENDING: msg`Pending`,
  ACCEPTED: msg`Accepted`,
  REJECTED: msg`Rejected`,
  CANCELED: msg`Canceled`,
  CLOSED: msg`Closed`,
  EXPIRED: msg`Expired`,
}

export const partTypeLabels: Record<PartType, MessageDescriptor> = {
  FEE: msg`Fee`,
  ADDITION: msg`Addition`,
  HEAT: msg`Heating`,
  COLD_WATER: msg`Cold water`,
  HOT_WATER: msg`Hot water`,
  HOT_AND_COLD_WATER: msg`Hot and cold water`,
  COMMON_EXPENSES: msg`Common expenses`,
  OTHER: msg`Other`,
}

export const paymentPeriodLabels: Record<PaymentPeriod, MessageDescriptor> = {
  DAILY: msg`Daily`,
  WEEKLY: msg`Weekly`,
  MONTHLY: msg`Monthly`,
  YEARLY: msg`Yearly`,
}

/** An address as docs/PRODUCT.md §2 writes it: 'street number, floor. sal side, zip city, country'. */
export function addressLine(a: {
  street?: string
  number?: string
  floor?: string | null
  side?: string | null
  zip?: string
  city?: string
  country?: string
}): string {
  const floor = [floorName(a.floor), a.side ?? ''].filter(Boolean).join(' ')
  return [`${a.street ?? ''} ${a.number ?? ''}`.trim(), floor, `${a.zip ?? ''} ${a.city ?? ''}`.trim(), a.country ?? ''].filter(Boolean).join(', ')
}

/** Danish floor names: '1' → '1. sal', 'st' → 'st.' (ground floor), 'kl' → 'kl.' (basement). */
function floorName(floor: string | null | undefined): string {
  const f = floor?.trim().replace(/\.$/, '') ?? ''
  if (!f) return ''
  if (/^\d+$/.test(f)) return `${f}. sal`
  if (/^(st|kl)$/i.test(f)) return `${f.toLowerCase()}.`
  return f
}
