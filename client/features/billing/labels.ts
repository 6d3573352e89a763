import { msg } from '@lingui/core/macro'
import type { MessageDescriptor } from '@lingui/core'
import type { ChargeStatus } from '../../../shared/domain/agreement-status'
import type { InvoiceSettlement, InvoiceStatus } from '../../../shared/domain/invoice'
import type { BadgeVariant } from '../../components/ui/Badge'

export const chargeKindLabels: Record<'REGULAR' | 'ONE_TIME' | 'FINAL', MessageDescriptor> = {
  REGULAR: msg`Regular`,
  ONE_TIME: msg`One-off`,
  FINAL: msg`Last payment`,
}

// A cancelled payment or invoice is "Annulleret" in Danish; a terminated agreement's "Canceled"
// is "Opsagt" — separate catalog entries by context.
export const chargeStatusLabels: Record<ChargeStatus, MessageDescriptor> = {
  CREATED: msg`Created`,
  RESERVED: msg`Reserved`,
  EXECUTED: msg`Executed`,
  FAILED: msg`Failed`,
  CANCELED: msg({ message: 'Canceled', context: 'payment' }),
  EXPIRED: msg`Expired`,
  DECLINED: msg`Declined`,
}

export const invoiceStatusLabels: Record<InvoiceStatus, MessageDescriptor> = {
  CREATED: msg`Created`,
  RESERVED: msg`Reserved`,
  EXECUTED: msg`Paid`,
  FAILED: msg`Failed`,
  CANCELED: msg({ message: 'Canceled', context: 'payment' }),
}

/** How staff settled an unpaid invoice outside Vipps MobilePay (decision 0042). */
export const settlementLabels: Record<InvoiceSettlement, MessageDescriptor> = {
  PAID_OUTSIDE: msg`Paid outside Vipps MobilePay`,
  WRITTEN_OFF: msg`Written off`,
}

/** Collected is good news, failed is bad, waiting is neutral. */
export const chargeStatusBadge = (status: ChargeStatus | InvoiceStatus): BadgeVariant =>
  status === 'EXECUTED' ? 'success'
  : status === 'FAILED' || status === 'DECLINED' || status === 'EXPIRED' ? 'error'
  : status === 'CANCELED' ? 'neutral'
  : 'info'
