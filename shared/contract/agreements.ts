import { z } from 'zod'
import { agreementStatuses, chargeStatuses, collectionProblems } from '../domain/agreement-status'
import { MAX_PART_PRICE_ORE, partTypes, paymentPeriods, priceOfParts, vatRates } from '../domain/agreement-parts'
import { copenhagenDateOf } from '../domain/copenhagen'
import { messages } from '../i18n-messages'
import { pageQueryFields } from './paging'
import { isSingleLine, personName, plainText } from './text'

/**
 * Agreements (docs/PRODUCT.md §3 Agreement, §5 create/edit rules, docs/PRODUCT.md §7 Agreements). Money is integer øre,
 * dates are `YYYY-MM-DD` in Europe/Copenhagen (docs/API.md). The same schemas validate the
 * client's forms, so docs/PRODUCT.md §5's messages appear in either place.
 */
export const AgreementStatus = z.enum(agreementStatuses)
export type AgreementStatus = z.infer<typeof AgreementStatus>
export const PaymentPeriod = z.enum(paymentPeriods, { error: messages.paymentPeriodRequired.id })
export type PaymentPeriod = z.infer<typeof PaymentPeriod>
export const PartType = z.enum(partTypes, { error: messages.partTypeRequired.id })
export const ChargeStatus = z.enum(chargeStatuses)
export const Currency = z.literal('DKK', { error: messages.currencyDkkOnly.id })

const isRealDate = (v: string) => {
  const d = new Date(`${v}T00:00:00Z`)
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === v
}

/**
 * A calendar date `YYYY-MM-DD`. A full ISO timestamp (what the earlier client sends, docs/PRODUCT.md §3) is accepted
 * and turned into its date in Copenhagen. Missing or empty answers `requiredMessage`.
 */
export const calendarDate = (requiredMessage: string) =>
  z
    .string({ error: requiredMessage })
    .trim()
    .min(1, { message: requiredMessage, abort: true })
    .transform((v, ctx) => {
      if (/^\d{4}-\d{2}-\d{2}$/.test(v) && isRealDate(v)) return v
      if (/^\d{4}-\d{2}-\d{2}T/.test(v) && !Number.isNaN(Date.parse(v))) return copenhagenDateOf(new Date(v))
      ctx.addIssue({ code: 'custom', message: messages.dateInvalid.id })
      return z.NEVER
    })
    .meta({ description: 'YYYY-MM-DD (Europe/Copenhagen); a full ISO timestamp is accepted and its Copenhagen date kept' })

export { MAX_PART_PRICE_ORE }

/**
 * øre: an integer above 0 (docs/PRODUCT.md §5: a part's price must be above 0). Too high and fractions of
 * øre each have their own message; a number too high for anything answers only that.
 */
const positiveOre = z
  .number({ error: messages.partPriceInvalid.id })
  .max(MAX_PART_PRICE_ORE, { message: messages.partPriceTooHigh.id, abort: true })
  .positive(messages.partPriceInvalid.id)
  .int(messages.partPriceFraction.id)

export const AgreementPartInput = z
  .object({
    /** The client's id of the part (docs/PRODUCT.md §3: new parts get an id made locally from the time); the server makes one when absent. */
    id: z.string().trim().min(1).max(64).refine(isSingleLine, messages.controlCharacters.id).optional(),
    type: PartType,
    description: plainText(200, messages.partDescriptionRequired.id),
    /** øre */
    price: positiveOre,
    /** VAT in percent: 0 (default, housing charges) or 25. */
    vatRate: z
      .number()
      .refine((v) => (vatRates as readonly number[]).includes(v), messages.vatRateInvalid.id)
      .default(0),
    currency: Currency.optional(),
  })
  .meta({ id: 'AgreementPartInput' })
export type AgreementPartInput = z.input<typeof AgreementPartInput>

const parts = z.array(AgreementPartInput, { error: messages.partsRequired.id }).min(1, messages.partsRequired.id).max(50, messages.tooManyItems.id)

/** `price`, when sent, must be the sum of the parts (the server stores the sum either way). */
const priceMatchesParts = {
  check: (v: { price?: number; parts?: { price: number }[] }) => v.price === undefined || v.parts === undefined || v.price === priceOfParts(v.parts),
  params: { path: ['price'], message: messages.priceNotSumOfParts.id },
}

/** POST /agreement (docs/PRODUCT.md §3 "Create payload"). */
export const CreateAgreementRequest = z
  .object({
    /** A client-made id (UUID) so an agreement created offline keeps it. */
    id: z.uuid().optional(),
    memberName: personName(messages.memberNameRequired.id),
    emailAddress: z.string({ error: messages.invalidEmail.id }).trim().toLowerCase().max(254, messages.invalidEmail.id).pipe(z.email(messages.invalidEmail.id)),
    companyId: z.uuid({ error: messages.required.id }),
    paymentProviderId: z.uuid({ error: messages.paymentProviderRequired.id }),
    /** Address ids of the company (at least one). */
    linkedAddress: z.array(z.uuid(), { error: messages.addressesRequired.id }).min(1, messages.addressesRequired.id).max(50, messages.tooManyItems.id),
    /** Sum of the parts in øre; optional, checked when sent. */
    price: z.number().int().optional(),
    currency: Currency.optional(),
    startPaymentDate: calendarDate(messages.startPaymentDateRequired.id),
    paymentPeriod: PaymentPeriod,
    parts,
  })
  .refine(priceMatchesParts.check, { ...priceMatchesParts.params, when: (p) => typeof p.value === 'object' && p.value !== null })
  .meta({ id: 'CreateAgreementRequest' })
export type CreateAgreementRequest = z.output<typeof CreateAgreementRequest>
export type CreateAgreementInput = z.input<typeof CreateAgreementRequest>

/** PATCH /agreement/{id} (docs/PRODUCT.md §3 "Update payload"); absent fields stay. Send `If-Match: "<version>"`. */
export const UpdateAgreementRequest = z
  .object({
    nextRegularPaymentDate: calendarDate(messages.startPaymentDateRequired.id).optional(),
    paymentPeriod: PaymentPeriod.optional(),
    parts: parts.optional(),
    price: z.number().int().optional(),
    currency: Currency.optional(),
  })
  .refine(priceMatchesParts.check, { ...priceMatchesParts.params, when: (p) => typeof p.value === 'object' && p.value !== null })
  .meta({ id: 'UpdateAgreementRequest' })
export type UpdateAgreementRequest = z.output<typeof UpdateAgreementRequest>
export type UpdateAgreementInput = z.input<typeof UpdateAgreementRequest>

/** POST /agreement/{id}/cancel (docs/PRODUCT.md §3 "Terminate payload"). */
export const CancelAgreementRequest = z
  .object({
    terminationDate: calendarDate(messages.terminationDateRequired.id),
    /** Charge one last payment 3 days before the termination date (docs/PRODUCT.md §9). */
    finalPaymentRequired: z.boolean().default(false),
  })
  .meta({ id: 'CancelAgreementRequest' })
export type CancelAgreementRequest = z.output<typeof CancelAgreementRequest>

/** GET /agreement: filters, then cursor paging (shared/contract/paging.ts); sorted by company and external id. */
export const AgreementListQuery = z.object({
  companyId: z.uuid().optional(),
  status: AgreementStatus.optional(),
  /** Part of the member's name or e-mail (case-insensitive), or the start of the external id. */
  search: z
    .string()
    .trim()
    .max(100, messages.tooLong.id)
    .refine(isSingleLine, messages.controlCharacters.id)
    .optional()
    .meta({ description: "Part of the member's name or e-mail, or the start of the external id" }),
  ...pageQueryFields,
})
export type AgreementListQuery = z.output<typeof AgreementListQuery>

export const AgreementMember = z
  .object({
    userId: z.uuid(),
    /** Initials for the avatar. */
    title: z.string(),
    fullName: z.string(),
    emailAddress: z.string(),
    /** The member has a way to sign in (accepted the invitation, or had an account already). */
    isVerified: z.boolean(),
  })
  .meta({ id: 'AgreementMember' })

export const AgreementAddress = z
  .object({
    id: z.uuid(),
    street: z.string(),
    number: z.string(),
    floor: z.string().nullable(),
    side: z.string().nullable(),
    zip: z.string(),
    city: z.string(),
    country: z.string(),
  })
  .meta({ id: 'AgreementAddress' })

export const AgreementPart = z
  .object({
    id: z.string(),
    type: PartType,
    description: z.string(),
    /** øre */
    price: z.number().int(),
    vatRate: z.number().int(),
    currency: Currency,
  })
  .meta({ id: 'AgreementPart' })
export type AgreementPart = z.infer<typeof AgreementPart>

export const Agreement = z
  .object({
    id: z.uuid(),
    /** Human number, sequential per company ("1001", "1002", …). */
    externalId: z.string(),
    companyId: z.uuid(),
    paymentProviderId: z.uuid(),
    member: AgreementMember,
    addresses: z.array(AgreementAddress),
    /** Sum of the parts, øre. */
    price: z.number().int(),
    currency: Currency,
    status: AgreementStatus,
    /** A charge failed and nothing was collected since (docs/DOMAIN.md "Overdue"). */
    overdue: z.boolean(),
    /** Overdue long enough that the association's debt-collection process took over (the last overdue step, docs/DOMAIN.md "Debt collection"). Always sent by the server; optional for local previews. */
    debtCollection: z.boolean().optional(),
    /** When the last overdue step flagged it (ISO instant), or null. */
    debtCollectionSince: z.string().nullable().optional(),
    paymentPeriod: PaymentPeriod,
    startPaymentDate: z.string(),
    /** The next regular charge's date; null when no regular charge will come (ended, or a termination's last payment takes over). */
    nextRegularPaymentDate: z.string().nullable(),
    /** The next payment the member will be charged: the next regular one, else a termination's last payment; null when none will come (never after the termination date). Always sent by the server; optional for local previews. */
    nextPaymentDate: z.string().nullable().optional(),
    terminationDate: z.string().nullable(),
    finalPaymentRequired: z.boolean(),
    parts: z.array(AgreementPart),
    /** The agreement's id at Vipps MobilePay once the member accepted. */
    providerAgreementId: z.string().nullable(),
    /**
     * Why this ACCEPTED agreement is not charged, or null (decision 0036): NO_PROVIDER_AGREEMENT (no
     * agreement at Vipps MobilePay), PROVIDER_INACTIVE (the payment provider is switched off),
     * COMPANY_NOT_COLLECTING (the company is suspended or deactivated). Billing skips it until fixed.
     * Always sent by the server; optional for local previews.
     */
    collectionProblem: z.enum(collectionProblems).nullable().optional(),
    version: z.number().int(),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .meta({ id: 'Agreement' })
export type Agreement = z.infer<typeof Agreement>

export const AcceptAgreementResponse = z
  .object({ confirmationUrl: z.string().meta({ description: 'Send the browser here to approve the agreement in Vipps MobilePay' }) })
  .meta({ id: 'AcceptAgreementResponse' })
export type AcceptAgreementResponse = z.infer<typeof AcceptAgreementResponse>

export const chargeKinds = ['REGULAR', 'ONE_TIME', 'FINAL'] as const
export const ChargeHistoryEntry = z.object({
  event: z.string().meta({ description: 'CREATE, RESERVE, CAPTURE, REFUND, CANCEL or FAIL' }),
  /** øre */
  amount: z.number().int(),
  occurredAt: z.iso.datetime(),
})

export const Charge = z
  .object({
    id: z.uuid(),
    agreementId: z.uuid(),
    companyId: z.uuid(),
    /** REGULAR: the period's charge; ONE_TIME: an extra charge; FINAL: the last payment of a termination. */
    kind: z.enum(chargeKinds),
    /** Vipps charge type. */
    type: z.enum(['RECURRING', 'UNSCHEDULED']),
    /** øre */
    amount: z.number().int(),
    currency: Currency,
    description: z.string(),
    due: z.string(),
    status: ChargeStatus,
    invoiceId: z.string().nullable(),
    invoiceNumber: z.string().nullable(),
    history: z.array(ChargeHistoryEntry),
    version: z.number().int(),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .meta({ id: 'Charge' })
export type Charge = z.infer<typeof Charge>
