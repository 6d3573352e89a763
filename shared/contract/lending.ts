import { z } from 'zod'
import { messages as m } from '../i18n-messages'
import { loanStatuses } from '../domain/lending'
import { pageQueryFields } from './paging'
import { multiLineText, plainText } from './text'

/**
 * Lending (docs/PRODUCT.md "Lending", decision 0064): members list things they (or the
 * association) lend; a member requests dates, the lender accepts, both confirm a short contract,
 * the handover and the return are recorded. The same schemas check the client's forms and the
 * server's requests. Dates are `YYYY-MM-DD` (Copenhagen), both ends counted.
 */
export const MAX_ITEM_TITLE = 120
export const MAX_ITEM_TEXT = 2000
export const MAX_ITEM_LOCATION = 200
export const MAX_LOAN_TEXT = 1000
/** A deposit: at least 1 kr., at most 5,000 kr. */
export const MIN_DEPOSIT_ORE = 100
export const MAX_DEPOSIT_ORE = 500_000
/** An item's photo: as a market listing's (at most 5 MB, an image, scanned). */
export const MAX_ITEM_PHOTO_BYTES = 5 * 1024 * 1024
export const itemPhotoTypes = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const

export const LenderKind = z.enum(['MEMBER', 'ASSOCIATION'], { error: m.optionInvalid.id })
export type LenderKind = z.infer<typeof LenderKind>
export const LoanStatus = z.enum(loanStatuses, { error: m.optionInvalid.id })
export type LoanStatus = z.infer<typeof LoanStatus>

/**
 * The deposit's state, read from billing's rows: NONE (no deposit), PENDING (not asked for yet),
 * QUEUED (charge made, not collected), CANCELLING (the loan ended: the charge's cancellation is queued),
 * COLLECTED, FAILED, CANCELLED (not collected and called off),
 * HELD (damage reported: the administration settles it), KEPT (settled: nothing refunded), REFUNDING, REFUNDED.
 */
export const depositStates = ['NONE', 'PENDING', 'QUEUED', 'CANCELLING', 'COLLECTED', 'FAILED', 'CANCELLED', 'HELD', 'KEPT', 'REFUNDING', 'REFUNDED'] as const
export const DepositState = z.enum(depositStates)
export type DepositState = z.infer<typeof DepositState>

const optionalText = (max: number) => multiLineText(max).or(z.literal('')).optional()
const depositOre = z
  .number({ error: m.lendingDepositInvalid.id })
  .int({ error: m.lendingDepositInvalid.id })
  .min(MIN_DEPOSIT_ORE, { error: m.lendingDepositInvalid.id })
  .max(MAX_DEPOSIT_ORE, { error: m.lendingDepositInvalid.id })
export const LoanDate = z
  .string({ error: m.lendingDateInvalid.id })
  .regex(/^\d{4}-\d{2}-\d{2}$/, { error: m.lendingDateInvalid.id })
  .refine((v) => !Number.isNaN(Date.parse(`${v}T00:00:00Z`)) && new Date(`${v}T00:00:00Z`).toISOString().startsWith(v), { error: m.lendingDateInvalid.id })

const toAfterFrom = (v: { fromDate?: string; toDate?: string }, ctx: z.RefinementCtx) => {
  if (v.fromDate && v.toDate && v.toDate < v.fromDate) ctx.addIssue({ code: 'custom', path: ['toDate'], message: m.lendingToBeforeFrom.id })
}

export const CreateLendingItemRequest = z
  .object({
    /** Made by the client so an offline create is one row however often it is sent. */
    id: z.uuid().optional(),
    companyId: z.uuid(),
    /** ASSOCIATION: lent by the association (its administration only). */
    lender: LenderKind.optional(),
    title: plainText(MAX_ITEM_TITLE, m.lendingTitleRequired.id),
    description: optionalText(MAX_ITEM_TEXT),
    rules: optionalText(MAX_ITEM_TEXT),
    location: plainText(MAX_ITEM_LOCATION).or(z.literal('')).optional(),
    depositOre: depositOre.nullable().optional(),
  })
  .meta({ id: 'CreateLendingItemRequest' })
export type CreateLendingItemRequest = z.input<typeof CreateLendingItemRequest>

/** The lender's changes; a new deposit applies to loans requested after it. */
export const UpdateLendingItemRequest = z
  .object({
    title: plainText(MAX_ITEM_TITLE, m.lendingTitleRequired.id).optional(),
    description: optionalText(MAX_ITEM_TEXT),
    rules: optionalText(MAX_ITEM_TEXT),
    location: plainText(MAX_ITEM_LOCATION).or(z.literal('')).optional(),
    depositOre: depositOre.nullable().optional(),
  })
  .meta({ id: 'UpdateLendingItemRequest' })
export type UpdateLendingItemRequest = z.input<typeof UpdateLendingItemRequest>

export const LendingItem = z
  .object({
    id: z.string(),
    companyId: z.string(),
    lender: z.object({ kind: LenderKind, id: z.string().nullable(), fullName: z.string() }),
    title: z.string(),
    description: z.string(),
    rules: z.string(),
    location: z.string(),
    depositOre: z.number().int().nullable(),
    photoId: z.string().nullable(),
    /** Set: withdrawn while it had loans (kept for them); not in the list, no new requests. */
    archivedAt: z.string().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
    version: z.number().int(),
  })
  .meta({ id: 'LendingItem' })
export type LendingItem = z.infer<typeof LendingItem>

export const LendingItemListQuery = z.object({ companyId: z.uuid(), ...pageQueryFields })
export type LendingItemListQuery = z.output<typeof LendingItemListQuery>

export const LoanRequest = z
  .object({
    /** Made by the client so an offline request is one loan however often it is sent. */
    id: z.uuid().optional(),
    fromDate: LoanDate,
    toDate: LoanDate,
    message: optionalText(MAX_LOAN_TEXT),
  })
  .superRefine(toAfterFrom)
  .meta({ id: 'LoanRequest' })
export type LoanRequest = z.input<typeof LoanRequest>

/** The lender changes the contract's terms (both confirmations start over). */
export const LoanTermsRequest = z
  .object({ fromDate: LoanDate.optional(), toDate: LoanDate.optional(), conditionOut: optionalText(MAX_LOAN_TEXT) })
  .superRefine(toAfterFrom)
  .meta({ id: 'LoanTermsRequest' })
export type LoanTermsRequest = z.input<typeof LoanTermsRequest>

/** Handover: the condition it leaves in (kept as the contract's when empty). */
export const LoanHandoverRequest = z.object({ condition: optionalText(MAX_LOAN_TEXT) }).meta({ id: 'LoanHandoverRequest' })
export type LoanHandoverRequest = z.input<typeof LoanHandoverRequest>

/** Return: the condition it came back in; `damage` keeps the deposit for the administration to settle. */
export const LoanReturnRequest = z
  .object({ condition: multiLineText(MAX_LOAN_TEXT, m.loanConditionRequired.id), damage: optionalText(MAX_LOAN_TEXT) })
  .meta({ id: 'LoanReturnRequest' })
export type LoanReturnRequest = z.input<typeof LoanReturnRequest>

/** The administration settles a held deposit: refund this much of it (0 keeps it all). */
export const DepositSettleRequest = z
  .object({ refundOre: z.number({ error: m.loanRefundInvalid.id }).int({ error: m.loanRefundInvalid.id }).min(0, { error: m.loanRefundInvalid.id }) })
  .meta({ id: 'DepositSettleRequest' })
export type DepositSettleRequest = z.input<typeof DepositSettleRequest>

export const Loan = z
  .object({
    id: z.string(),
    companyId: z.string(),
    itemId: z.string(),
    borrower: z.object({ id: z.string().nullable(), fullName: z.string() }),
    /** The lender when it was requested: a member's id, or null when the association lends. */
    lenderUserId: z.string().nullable(),
    /** The caller's part in it (null: another member, who sees only who has it when). */
    mine: z.enum(['lender', 'borrower']).nullable(),
    fromDate: z.string(),
    toDate: z.string(),
    status: LoanStatus,
    message: z.string(),
    /** The condition in the confirmed contract (never rewritten by the handover). */
    conditionOut: z.string(),
    /** The condition the lender recorded at the handover, if any (beside the contract's). */
    handoverCondition: z.string().nullable(),
    conditionBack: z.string().nullable(),
    damageNote: z.string().nullable(),
    depositOre: z.number().int().nullable(),
    deposit: DepositState,
    lenderConfirmedAt: z.string().nullable(),
    lenderConfirmedBy: z.string().nullable(),
    borrowerConfirmedAt: z.string().nullable(),
    handedOverAt: z.string().nullable(),
    returnedAt: z.string().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
    version: z.number().int(),
  })
  .meta({ id: 'Loan' })
export type Loan = z.infer<typeof Loan>

export const MyLoansQuery = z.object({ role: z.enum(['borrower', 'lender'], { error: m.optionInvalid.id }).default('borrower'), ...pageQueryFields })
export type MyLoansQuery = z.output<typeof MyLoansQuery>
export const ItemLoansQuery = z.object(pageQueryFields)
export type ItemLoansQuery = z.output<typeof ItemLoansQuery>
