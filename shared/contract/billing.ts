import { z } from 'zod'
import { messages } from '../i18n-messages'
import { plainText } from './text'

/**
 * One-time charges and refunds (spec §5 "Refund and one-time charge", §7, CONTRACT.md: `amount`
 * is integer øre ≥ 100). The same schemas validate the client's forms (kroner → øre first).
 * Vipps allows at most 45 characters of description.
 */
export const MIN_BILLING_AMOUNT_ORE = 100
export const MAX_CHARGE_DESCRIPTION = 45

/** 1,000,000 kr. in øre. */
export const MAX_BILLING_AMOUNT_ORE = 100_000_000

const amount = z
  .number({ error: messages.amountInvalid.id })
  .max(MAX_BILLING_AMOUNT_ORE, { message: messages.amountTooHigh.id, abort: true })
  .min(MIN_BILLING_AMOUNT_ORE, messages.amountTooSmall.id)
  .int(messages.amountFraction.id)
  .meta({ description: 'øre, at least 100 (1 kr.)' })
const description = plainText(MAX_CHARGE_DESCRIPTION, messages.descriptionRequired.id, messages.descriptionTooLong.id)

/** POST /agreement/{id}/requestOneTimeCharge */
export const OneTimeChargeRequest = z
  .object({
    /** A client-made id (UUID) for the charge, so an offline request keeps it and is made once. */
    id: z.uuid().optional(),
    amount,
    description,
  })
  .meta({ id: 'OneTimeChargeRequest' })
export type OneTimeChargeRequest = z.output<typeof OneTimeChargeRequest>
export type OneTimeChargeInput = z.input<typeof OneTimeChargeRequest>

/** POST /agreement/{id}/refund */
export const RefundRequest = z
  .object({
    /** A client-made id (UUID) for the refund, so an offline request keeps it and is made once. */
    id: z.uuid().optional(),
    chargeId: z.uuid({ error: messages.chargeRequired.id }),
    amount,
    description,
  })
  .meta({ id: 'RefundRequest' })
export type RefundRequest = z.output<typeof RefundRequest>
export type RefundInput = z.input<typeof RefundRequest>

export const Refund = z
  .object({
    /** Also the Idempotency-Key of the refund at Vipps MobilePay. */
    id: z.uuid(),
    agreementId: z.uuid(),
    chargeId: z.uuid(),
    /** øre */
    amount: z.number().int(),
    currency: z.literal('DKK'),
    description: z.string(),
    /** PENDING until Vipps MobilePay confirmed it, then EXECUTED (FAILED if Vipps refused it). */
    status: z.enum(['PENDING', 'EXECUTED', 'FAILED']),
    creditNote: z.object({ id: z.uuid(), invoiceNumber: z.string() }),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: 'Refund' })
export type Refund = z.infer<typeof Refund>
