import { z } from 'zod'
import { messages as m } from '../i18n-messages'
import { ALLOCATION_PLACES, AREA_PLACES, decimalToScaled, householdTypes, residentKinds } from '../domain/household'
import { calendarDate } from './agreements'
import { pageQueryFields } from './paging'
import { isSingleLine, optionalPlainText, personName } from './text'

/**
 * Households (docs/PRODUCT.md "Households", docs/decisions/0090): an address of the association
 * with its type, area, allocation figure (fordelingstal), a co-op's share value, the previous
 * administrator's number, and its residents over time.
 */
export const HouseholdType = z.enum(householdTypes, { error: m.optionInvalid.id })
export type HouseholdType = z.infer<typeof HouseholdType>
export const ResidentKind = z.enum(residentKinds, { error: m.optionInvalid.id })
export type ResidentKind = z.infer<typeof ResidentKind>

/** A decimal figure as text ("74.5" or "74,5"); '' or null clears it. */
const figure = (places: number, message: string) =>
  z.union([
    z.literal('').transform(() => null),
    z.null(),
    z
      .string({ error: message })
      .trim()
      .refine((v) => decimalToScaled(v, places) !== null, message),
  ])

const email = z.string({ error: m.invalidEmail.id }).trim().toLowerCase().max(254, m.invalidEmail.id).pipe(z.email(m.invalidEmail.id))

export const Resident = z
  .object({
    id: z.string(),
    householdId: z.string(),
    userId: z.string(),
    fullName: z.string(),
    /** Only for the association's staff. */
    emailAddress: z.string().nullable(),
    moveInDate: z.string(),
    /** The first day they no longer live there; null while they do. */
    moveOutDate: z.string().nullable(),
    kind: ResidentKind,
    isPayer: z.boolean(),
  })
  .meta({ id: 'Resident' })
export type Resident = z.infer<typeof Resident>

export const Household = z
  .object({
    /** The address's id: a household is one of the association's addresses. */
    id: z.string(),
    companyId: z.string(),
    street: z.string(),
    number: z.string(),
    floor: z.string().nullable(),
    side: z.string().nullable(),
    zip: z.string(),
    city: z.string(),
    type: HouseholdType,
    /** m² as decimal text ("74.5"), null when not known. */
    area: z.string().nullable(),
    /** The allocation figure (fordelingstal) as decimal text ("1.25"), null when not known. */
    allocation: z.string().nullable(),
    /** A co-op's share value (andel), øre; null when not kept (always for a CONDO). */
    share: z.number().int().nullable(),
    /** The previous administrator's number, unique in the association. */
    externalId: z.string().nullable(),
    /** Everyone who lived there, by move-in date (a resident reads only the current ones). */
    residents: z.array(Resident),
    version: z.number().int(),
    updatedAt: z.string().nullable(),
  })
  .meta({ id: 'Household' })
export type Household = z.infer<typeof Household>

export const HouseholdListQuery = z.object({
  companyId: z.uuid(),
  /** Part of the address, the external number or a resident's name (case-insensitive). */
  search: z.string().trim().max(100, m.tooLong.id).refine(isSingleLine, m.controlCharacters.id).optional(),
  ...pageQueryFields,
})
export type HouseholdListQuery = z.output<typeof HouseholdListQuery>

/** PATCH /households/{id} with If-Match; absent fields stay, '' or null clears an optional one. */
export const UpdateHouseholdRequest = z
  .object({
    type: HouseholdType.optional(),
    area: figure(AREA_PLACES, m.householdAreaInvalid.id).optional(),
    allocation: figure(ALLOCATION_PLACES, m.householdAllocationInvalid.id).optional(),
    share: z
      .number({ error: m.amountInvalid.id })
      .int(m.amountInvalid.id)
      .min(0, m.amountInvalid.id)
      .max(100_000_000_000, m.amountInvalid.id)
      .nullable()
      .optional(),
    externalId: optionalPlainText(40),
  })
  .meta({ id: 'UpdateHouseholdRequest' })
export type UpdateHouseholdRequest = z.output<typeof UpdateHouseholdRequest>
export type UpdateHouseholdInput = z.input<typeof UpdateHouseholdRequest>

/** Someone moving in: a person of the association by id, or anyone by name and e-mail (invited when new). */
const person = {
  userId: z.uuid().optional(),
  fullName: personName(m.residentPersonRequired.id).optional(),
  emailAddress: email.optional(),
  kind: ResidentKind,
  isPayer: z.boolean().default(false),
}
const hasPerson = (p: { userId?: string; fullName?: string; emailAddress?: string }) =>
  p.userId !== undefined || (p.fullName !== undefined && p.emailAddress !== undefined)

export const AddResidentRequest = z
  .object({
    /** Made by the client so a retried add is one resident. */
    id: z.uuid().optional(),
    ...person,
    moveInDate: calendarDate(m.required.id),
    moveOutDate: calendarDate(m.required.id).nullable().optional(),
  })
  .refine(hasPerson, { message: m.residentPersonRequired.id, path: ['fullName'] })
  .meta({ id: 'AddResidentRequest' })
export type AddResidentRequest = z.output<typeof AddResidentRequest>
export type AddResidentInput = z.input<typeof AddResidentRequest>

export const UpdateResidentRequest = z
  .object({
    moveInDate: calendarDate(m.required.id).optional(),
    moveOutDate: calendarDate(m.required.id).nullable().optional(),
    kind: ResidentKind.optional(),
    isPayer: z.boolean().optional(),
  })
  .meta({ id: 'UpdateResidentRequest' })
export type UpdateResidentRequest = z.output<typeof UpdateResidentRequest>

export const ResidentParams = z.object({ id: z.uuid(), residentId: z.uuid() })

export const SettlementQuery = z.object({ date: calendarDate(m.required.id) })

const LastPayment = z.object({ from: z.string(), through: z.string(), due: z.string(), amount: z.number().int() })
const PaidAhead = z.object({ chargeId: z.string(), from: z.string(), through: z.string(), amount: z.number().int() })

/** The leaving payer's final settlement (docs/DOMAIN.md "Moves and the final settlement"), øre. */
export const MoveSettlement = z
  .object({
    moveDate: z.string(),
    /** The leaving payer's agreement; null when the household has none running. */
    agreementId: z.string().nullable(),
    agreementNumber: z.string().nullable(),
    payerName: z.string().nullable(),
    /** Whether a last payment can be charged (an agreement accepted at Vipps MobilePay). */
    lastPaymentPossible: z.boolean(),
    regularToCome: z.number().int(),
    lastPayment: LastPayment.nullable(),
    paidAhead: z.array(PaidAhead),
    openBalance: z.number().int(),
    total: z.number().int(),
  })
  .meta({ id: 'MoveSettlement' })
export type MoveSettlement = z.infer<typeof MoveSettlement>

export const RegisterMoveRequest = z
  .object({
    /** Made by the client: the same move sent again is one move. */
    id: z.uuid().optional(),
    moveDate: calendarDate(m.required.id),
    /** Residents (ids) moving out on the move date. */
    leaving: z.array(z.uuid()).max(20, m.tooManyItems.id).default([]),
    /** People moving in on the move date; the payer among them gets a new agreement with the household's parts. */
    arriving: z
      .array(z.object(person).refine(hasPerson, { message: m.residentPersonRequired.id, path: ['fullName'] }))
      .max(20, m.tooManyItems.id)
      .default([]),
  })
  .refine((b) => b.leaving.length + b.arriving.length > 0, { message: m.moveNothingToDo.id, path: ['leaving'] })
  .refine((b) => b.arriving.filter((a) => a.isPayer).length <= 1, { message: m.moveOnePayer.id, path: ['arriving'] })
  .meta({ id: 'RegisterMoveRequest' })
export type RegisterMoveRequest = z.output<typeof RegisterMoveRequest>
export type RegisterMoveInput = z.input<typeof RegisterMoveRequest>

export const Move = z
  .object({
    id: z.string(),
    householdId: z.string(),
    moveDate: z.string(),
    endedAgreementId: z.string().nullable(),
    newAgreementId: z.string().nullable(),
    settlement: MoveSettlement.nullable(),
    household: Household,
  })
  .meta({ id: 'Move' })
export type Move = z.infer<typeof Move>
