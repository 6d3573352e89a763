import { z } from 'zod'
import { invoiceStatuses } from '../domain/invoice'
import { isIsoDate } from '../domain/statistics-period'
import { messages } from '../i18n-messages'
import { plainText } from './text'

/**
 * One-time charges and refunds (docs/PRODUCT.md §5 "Refund and one-time charge", §7, docs/API.md: `amount`
 * is integer øre ≥ 100). The same schemas validate the client's forms (kroner → øre first).
 * Vipps allows at most 45 characters of description.
 */
export const MIN_BILLING_AMOUNT_ORE = 100
export const MAX_CHARGE_DESCRIPTION = 45

/** 1,000,000 kr. in øre. */
export const MAX_BILLING_AMOUNT_ORE = 100_000_000

// docs/PRODUCT.md §5: a missing, zero or negative amount is "Please enter a valid amount"; a positive one under
// 1 kr. is "at least 1 kr.".
const amount = z
  .number({ error: messages.amountInvalid.id })
  .gt(0, { message: messages.amountInvalid.id, abort: true })
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
    /**
     * The invoice lines to refund (`InvoiceArticle.id`s of the charge's invoice, decision 0044). The
     * amount is split over them in proportion to what is left to refund on each; without lines,
     * over every line. Each line of the credit note carries the description of the line it credits.
     */
    lines: z
      .array(z.string({ error: messages.refundLineInvalid.id }).min(1).max(80), { error: messages.refundLineInvalid.id })
      .max(100)
      .optional(),
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

// ---- Debtors (docs/decisions/0042-unpaid-stays-visible.md): unpaid invoices and what staff do about them

/** A note of staff (paid outside Vipps: how; write-off: why). Shown on the invoice. */
export const SETTLEMENT_NOTE_MAX = 200

export const retryBlockers = ['COLLECTING', 'UNDER_WAY', 'AGREEMENT_INACTIVE'] as const
export type RetryBlocker = (typeof retryBlockers)[number]
/** The message of each reason a retry is refused (409 from the server, a hint in the overview). */
export const retryBlockerMessages = {
  COLLECTING: messages.retryWhileCollecting,
  UNDER_WAY: messages.retryUnderWay,
  AGREEMENT_INACTIVE: messages.retryNeedsAccepted,
} as const satisfies Record<RetryBlocker, { id: string }>
const note = plainText(SETTLEMENT_NOTE_MAX, messages.noteRequired.id)

/** GET /debtors */
export const DebtorListQuery = z.object({
  companyId: z.uuid(),
  /** Only this agreement's unpaid invoices. */
  agreementId: z.uuid().optional(),
  /** `nextCursor` of the previous page. */
  cursor: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
})
export type DebtorListQuery = z.input<typeof DebtorListQuery>

export const Debtor = z
  .object({
    invoiceId: z.uuid(),
    invoiceNumber: z.string(),
    /** The invoice's title (its charge's description). */
    name: z.string(),
    agreementId: z.uuid(),
    /** "1001" (null if the agreement was deleted since). */
    agreementExternalId: z.string().nullable(),
    memberUserId: z.string(),
    memberName: z.string(),
    /** The address printed on the invoice. */
    address: z.string().nullable(),
    dueDate: z.string(),
    /** Days since the due date (Copenhagen dates). */
    daysOverdue: z.number().int(),
    /** øre still owed. */
    amount: z.number().int(),
    /** FAILED, or CREATED/RESERVED past the due date (Vipps MobilePay may still be trying). */
    status: z.enum(invoiceStatuses),
    /** Reminders sent so far (the overdue steps, BILLING_REMINDER_DAYS). */
    remindersSent: z.number().int(),
    /** The agreement was handed to debt collection (BILLING_DEBT_COLLECTION_DAYS). */
    debtCollection: z.boolean(),
    /** A new attempt (retry) is waiting at Vipps MobilePay. */
    retryPending: z.boolean(),
    /**
     * Why a retry is not possible now, or null when it is: COLLECTING (Vipps MobilePay is still
     * trying), UNDER_WAY (a retry is waiting), AGREEMENT_INACTIVE (nothing to charge at Vipps).
     */
    retryBlocked: z.enum(retryBlockers).nullable(),
  })
  .meta({ id: 'Debtor' })
export type Debtor = z.infer<typeof Debtor>

export const DebtorPage = z
  .object({
    items: z.array(Debtor),
    /** Pass as `cursor` for the next page; null on the last. */
    nextCursor: z.string().nullable(),
    /** Every unpaid invoice of the query (all pages): how many and how much, øre. */
    total: z.object({ count: z.number().int(), amount: z.number().int() }),
    /** The overdue steps: reminder days and the debt-collection day, counted from the failure. */
    reminderDays: z.array(z.number().int()),
    debtCollectionDays: z.number().int(),
  })
  .meta({ id: 'DebtorPage' })
export type DebtorPage = z.infer<typeof DebtorPage>

/** POST /invoice/{id}/retry: a new one-time charge for the open amount. */
export const RetryRequest = z
  .object({
    /** A client-made id for the new charge, so a repeated request makes it once. */
    id: z.uuid().optional(),
  })
  .meta({ id: 'RetryRequest' })
export type RetryRequest = z.output<typeof RetryRequest>

/** POST /invoice/{id}/markPaid */
export const MarkPaidRequest = z
  .object({
    note,
    /** The Copenhagen date the member paid (a bank transfer seen later); today when absent. Not in the future, nor in a closed month (409). */
    paidOn: z.string({ error: messages.bookkeepingDateInvalid.id }).refine(isIsoDate, { error: messages.bookkeepingDateInvalid.id }).optional(),
  })
  .meta({ id: 'MarkPaidRequest' })
export type MarkPaidRequest = z.output<typeof MarkPaidRequest>

/** POST /invoice/{id}/writeOff */
export const WriteOffRequest = z
  .object({
    /** A client-made id for the credit note, so a repeated request makes it once. */
    id: z.uuid().optional(),
    note,
  })
  .meta({ id: 'WriteOffRequest' })
export type WriteOffRequest = z.output<typeof WriteOffRequest>
