import { z } from 'zod'
import { isPlaceholderCvr, isValidCvr } from '../domain/cvr'
import { ANY_YEAR, isValidDayMonth } from '../domain/day-month'
import { companyStatuses } from '../domain/company-status'
import { companyRoles } from '../domain/roles'
import { messages } from '../i18n-messages'
import { emailAddress, mobileNumber } from './account'
import { Language } from './common'
import { optionalPlainText, personName, plainText } from './text'

export const unionTypes = ['COOP', 'CONDO'] as const
export const UnionType = z.enum(unionTypes, {
  error: (iss) => (iss.input === undefined || iss.input === null || iss.input === '' ? messages.unionTypeRequired.id : messages.unionTypeInvalid.id),
})
export type UnionType = z.infer<typeof UnionType>
export const CompanyStatus = z.enum(companyStatuses)

/** Single-line texts (shared/contract/text.ts): missing or empty answers the docs/PRODUCT.md §5 message, over the limit names it. */
export const companyName = plainText(200, messages.companyNameRequired.id)
export const acronym = plainText(50, messages.acronymRequired.id)
/**
 * 8 digits with a valid modulus-11 check (docs/DOMAIN.md "CVR"); spaces are ignored. 00000000 passes
 * the check (its weighted sum is 0) but is no company's number, so it is refused on its own.
 */
export const cvr = z
  .string({ error: messages.cvrRequired.id })
  .transform((v) => v.replace(/\s+/g, ''))
  .pipe(
    z
      .string()
      .min(1, { message: messages.cvrRequired.id, abort: true })
      .refine((v) => !isPlaceholderCvr(v), { message: messages.cvrNotReal.id, abort: true })
      .refine(isValidCvr, messages.cvrInvalid.id),
  )

/**
 * A heating-water period date `dd.mm` (docs/PRODUCT.md §5). The schema accepts 29.02 (it cannot know the
 * year); the server checks again against the current year. Empty or null clears the date.
 */
export const heatingWaterDate = z.union([
  z
    .string()
    .trim()
    .refine((v) => isValidDayMonth(v, ANY_YEAR), messages.heatingDateInvalid.id),
  z.literal('').transform(() => null),
  z.null(),
])

export const Company = z
  .object({
    id: z.uuid(),
    name: z.string(),
    acronym: z.string(),
    cvr: z.string(),
    unionType: z.enum(unionTypes),
    status: CompanyStatus,
    heatingWaterPeriodStartDate: z.string().nullable().meta({ description: 'dd.mm' }),
    heatingWaterPeriodEndDate: z.string().nullable().meta({ description: 'dd.mm' }),
    membersCount: z.number().int(),
    agreementsCount: z.number().int(),
    invoicesCount: z.number().int(),
    version: z.number().int(),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .meta({ id: 'Company' })
export type Company = z.infer<typeof Company>

export const CreateCompanyRequest = z
  .object({
    /** A client-made id (UUID) so an offline-created company keeps it. */
    id: z.uuid().optional(),
    name: companyName,
    acronym,
    cvr,
    unionType: UnionType,
    heatingWaterPeriodStartDate: heatingWaterDate.optional(),
    heatingWaterPeriodEndDate: heatingWaterDate.optional(),
  })
  .meta({ id: 'CreateCompanyRequest' })
export type CreateCompanyRequest = z.input<typeof CreateCompanyRequest>

export const CreatedResponse = z.object({ id: z.uuid() }).meta({ id: 'CreatedResponse' })

/** The fields of the Overview tab; each can also be changed alone with PATCH …/field/{fieldName}. */
export const companyFields = ['name', 'acronym', 'cvr', 'unionType', 'heatingWaterPeriodStartDate', 'heatingWaterPeriodEndDate'] as const
export const CompanyField = z.enum(companyFields, { error: messages.fieldNotEditable.id })
export type CompanyField = z.infer<typeof CompanyField>

export const companyFieldSchemas = {
  name: companyName,
  acronym,
  cvr,
  unionType: UnionType,
  heatingWaterPeriodStartDate: heatingWaterDate,
  heatingWaterPeriodEndDate: heatingWaterDate,
} as const

/** PUT /company/{id}: the fields to change (absent ones stay as they are). */
export const UpdateCompanyRequest = z
  .object({
    name: companyName.optional(),
    acronym: acronym.optional(),
    cvr: cvr.optional(),
    unionType: UnionType.optional(),
    heatingWaterPeriodStartDate: heatingWaterDate.optional(),
    heatingWaterPeriodEndDate: heatingWaterDate.optional(),
  })
  .meta({ id: 'UpdateCompanyRequest' })
export type UpdateCompanyRequest = z.output<typeof UpdateCompanyRequest>

export const PatchCompanyFieldRequest = z.object({ value: z.unknown() }).meta({ id: 'PatchCompanyFieldRequest' })

// ---- Members ---------------------------------------------------------------------------------

export const CompanyRoleSchema = z.enum(companyRoles, { error: messages.roleRequired.id })

export const CompanyMember = z
  .object({
    id: z.uuid(),
    companyId: z.uuid(),
    userId: z.uuid(),
    name: z.string(),
    email: z.string(),
    phone: z.string().nullable(),
    role: z.enum(companyRoles),
    /** Moves when the role changes; send it back as If-Match. */
    version: z.number().int(),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: 'CompanyMember' })
export type CompanyMember = z.infer<typeof CompanyMember>

/** PATCH /company/{id}/member/{memberId}: the member's new role (decision 0038). */
export const ChangeMemberRoleRequest = z.object({ role: CompanyRoleSchema }).meta({ id: 'ChangeMemberRoleRequest' })
export type ChangeMemberRoleRequest = z.output<typeof ChangeMemberRoleRequest>

/**
 * docs/PRODUCT.md §7: an existing user (`userId`) or a new one (`user: {name, email, phone}`), with a role.
 * A new user receives an invitation e-mail with a link to choose a password.
 */
export const AddMemberRequest = z
  .object({
    id: z.uuid().optional(),
    userId: z.uuid().optional(),
    user: z
      .object({
        name: personName(),
        email: emailAddress,
        phone: z.union([mobileNumber, z.literal('').transform(() => null), z.null()]).optional(),
        /** The invitation's language; the inviter's language when absent. */
        language: Language.optional(),
      })
      .optional(),
    role: CompanyRoleSchema,
  })
  // Runs even when other fields failed, so an empty form shows every message at once.
  .refine((v) => (v.userId === undefined) !== (v.user === undefined), {
    path: ['userId'],
    message: messages.memberTargetRequired.id,
    when: (payload) => typeof payload.value === 'object' && payload.value !== null,
  })
  .meta({ id: 'AddMemberRequest' })
export type AddMemberRequest = z.output<typeof AddMemberRequest>

// ---- Addresses -------------------------------------------------------------------------------

export const Address = z
  .object({
    id: z.uuid(),
    companyId: z.uuid(),
    referenceId: z.string().nullable(),
    street: z.string(),
    number: z.string(),
    floor: z.string().nullable(),
    side: z.string().nullable(),
    city: z.string(),
    zip: z.string(),
    country: z.string(),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: 'Address' })
export type Address = z.infer<typeof Address>

export const AddAddressRequest = z
  .object({
    id: z.uuid().optional(),
    referenceId: optionalPlainText(100),
    street: plainText(200),
    number: plainText(20),
    floor: optionalPlainText(20),
    side: optionalPlainText(20),
    city: plainText(100),
    zip: z
      .string({ error: messages.required.id })
      .trim()
      .regex(/^\d{4}$/, messages.zipInvalid.id),
    /** Always Denmark (docs/PRODUCT.md §3); other values are refused. */
    country: z
      .string()
      .trim()
      .refine((c) => ['denmark', 'danmark', 'dk'].includes(c.toLowerCase()), messages.countryDenmark.id)
      .optional(),
  })
  .meta({ id: 'AddAddressRequest' })
export type AddAddressRequest = z.output<typeof AddAddressRequest>

export const AddressSuggestion = z
  .object({
    referenceId: z.string(),
    street: z.string(),
    number: z.string(),
    floor: z.string().nullable(),
    side: z.string().nullable(),
    city: z.string(),
    zip: z.string(),
    /** The address on one line, for the suggestion list. */
    text: z.string(),
  })
  .meta({ id: 'AddressSuggestion' })
export type AddressSuggestion = z.infer<typeof AddressSuggestion>

export const AddressSearchQuery = z.object({
  q: z.string().trim().min(3, messages.searchTooShort.id).max(100),
  limit: z.coerce.number().int().min(1).max(20).default(10),
})
