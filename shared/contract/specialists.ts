import { z } from 'zod'
import { messages as m } from '../i18n-messages'
import { pageQueryFields } from './paging'
import { isCleanMultiLine, optionalPlainText, plainText } from './text'

/**
 * The association's linked specialists (docs/PRODUCT.md "Specialists", decision 0065):
 * a directory of the plumber, electrician, administrator, lawyer and others the association uses,
 * with contact details and notes. Its staff write it; its members read it.
 */
export const specialistKinds = ['PLUMBER', 'ELECTRICIAN', 'ADMINISTRATOR', 'LAWYER', 'OTHER'] as const
export const SpecialistKind = z.enum(specialistKinds, { error: m.optionInvalid.id })
export type SpecialistKind = z.infer<typeof SpecialistKind>

export const MAX_SPECIALIST_NOTES = 2000

/** Empty text is "none" (null). */
const none = z.literal('').transform(() => null)
const phone = z
  .string()
  .trim()
  .regex(/^\+?[\d ()-]{6,24}$/, m.specialistPhoneInvalid.id)
  .refine((v) => (v.match(/\d/g) ?? []).length >= 6, m.specialistPhoneInvalid.id)
const email = z.string().trim().toLowerCase().max(254, m.invalidEmail.id).pipe(z.email(m.invalidEmail.id))
const website = z
  .string()
  .trim()
  .max(300, m.specialistWebsiteInvalid.id)
  .transform((v) => (/^https?:\/\//i.test(v) ? v : `https://${v}`))
  .pipe(z.url({ protocol: /^https?$/, hostname: /^[^.\s]+(\.[^.\s]+)+$/, error: m.specialistWebsiteInvalid.id }))
const notes = z.string().trim().max(MAX_SPECIALIST_NOTES, m.tooLong.id).refine(isCleanMultiLine, m.multiLineControlCharacters.id)

const fields = {
  kind: SpecialistKind,
  name: plainText(120, m.specialistNameRequired.id),
  companyName: optionalPlainText(160),
  phone: z.union([phone, none, z.null()]).optional(),
  email: z.union([email, none, z.null()]).optional(),
  website: z.union([website, none, z.null()]).optional(),
  address: optionalPlainText(200),
  notes: notes.optional(),
}

export const CreateSpecialistRequest = z
  .object({
    /** Made by the client so an offline create is one row however often it is sent. */
    id: z.uuid().optional(),
    companyId: z.uuid(),
    ...fields,
  })
  .meta({ id: 'CreateSpecialistRequest' })
export type CreateSpecialistRequest = z.input<typeof CreateSpecialistRequest>

export const UpdateSpecialistRequest = z
  .object({ ...fields, kind: fields.kind.optional(), name: fields.name.optional() })
  .meta({ id: 'UpdateSpecialistRequest' })
export type UpdateSpecialistRequest = z.input<typeof UpdateSpecialistRequest>

export const Specialist = z
  .object({
    id: z.string(),
    companyId: z.string(),
    kind: SpecialistKind,
    name: z.string(),
    companyName: z.string().nullable(),
    phone: z.string().nullable(),
    email: z.string().nullable(),
    website: z.string().nullable(),
    address: z.string().nullable(),
    notes: z.string(),
    createdAt: z.string(),
    updatedAt: z.string(),
    version: z.number().int(),
  })
  .meta({ id: 'Specialist' })
export type Specialist = z.infer<typeof Specialist>

export const SpecialistListQuery = z.object({ companyId: z.uuid(), kind: SpecialistKind.optional(), ...pageQueryFields })
export type SpecialistListQuery = z.output<typeof SpecialistListQuery>

/** A phone number as a tel: link (digits and a leading +). */
export const telHref = (phone: string): string => `tel:${phone.replace(/[^\d+]/g, '')}`
