import { msg } from '@lingui/core/macro'
import type { MessageDescriptor } from '@lingui/core'
import type { StatementRowKind } from '../../../shared/domain/account-statement'

/** What each row of a statement says (decision 0068). */
export const rowKindLabels: Record<StatementRowKind, MessageDescriptor> = {
  OPENING_BALANCE: msg`Balance brought forward`,
  INVOICE: msg`Invoice`,
  CHARGE_FAILED: msg`Payment failed`,
  PAYMENT: msg`Paid with Vipps MobilePay`,
  PAID_OUTSIDE: msg`Paid outside Vipps MobilePay`,
  CREDIT_NOTE: msg`Credit note`,
  WRITE_OFF: msg`Written off`,
  REFUND_PAID: msg`Refund paid out`,
  CANCELLED: msg`Invoice cancelled`,
}

/** Vipps MobilePay's reasons for a failed charge, in words; another reason is not shown. */
export const failureReasonLabels: Record<string, MessageDescriptor> = {
  insufficient_funds: msg`Not enough money on the card or account`,
  user_action_required: msg`The payment needed the member's approval in Vipps MobilePay`,
  charge_amount_too_high: msg`The amount was above the agreement's limit`,
  non_technical_error: msg`Vipps MobilePay could not carry out the payment`,
  technical_error: msg`Vipps MobilePay could not carry out the payment`,
}
