import { z } from 'zod'
import { messages as m } from '../i18n-messages'

/**
 * Personal data (decision 0069, docs/PRIVACY.md): what a member downloads about
 * themselves, and the erase request their association's staff handle. The same schemas check the
 * client's dialog and the server's request.
 */

/** Why the data is erased: codes only, so the erasure log itself holds no personal data. */
export const erasureReasons = ['MEMBER_REQUEST', 'NO_LONGER_NEEDED'] as const
export const ErasureReason = z.enum(erasureReasons, { error: m.optionInvalid.id })
export type ErasureReason = z.infer<typeof ErasureReason>

/** A calendar day `YYYY-MM-DD` that exists (the server also refuses a day after today). */
export const ErasureDate = z
  .string({ error: m.erasureDateInvalid.id })
  .regex(/^\d{4}-\d{2}-\d{2}$/, { error: m.erasureDateInvalid.id })
  .refine((v) => !Number.isNaN(Date.parse(`${v}T00:00:00Z`)) && new Date(`${v}T00:00:00Z`).toISOString().startsWith(v), { error: m.erasureDateInvalid.id })

export const EraseMemberRequest = z
  .object({
    reason: ErasureReason,
    /** The day the member asked. */
    requestedOn: ErasureDate,
  })
  .meta({ id: 'EraseMemberRequest' })
export type EraseMemberRequest = z.infer<typeof EraseMemberRequest>

export const Erasure = z
  .object({
    id: z.string(),
    companyId: z.string(),
    userId: z.string(),
    reason: ErasureReason,
    requestedOn: z.string(),
    erasedAt: z.string(),
  })
  .meta({ id: 'Erasure' })
export type Erasure = z.infer<typeof Erasure>

/** The name an erased account keeps (its rows stay for the vouchers that refer to it): shown through `personName`. */
export { ERASED_NAME } from '../erased-person'

/**
 * The download: one object per kind of record, each a list of rows as stored (secrets, token
 * hashes and sealed provider secrets left out). `format` names this shape's version.
 */
export const PersonalDataExport = z
  .object({
    format: z.literal('boligkasse-personal-data/1'),
    exportedAt: z.string(),
    user: z.record(z.string(), z.unknown()),
    signInMethods: z.array(z.record(z.string(), z.unknown())),
    sessions: z.array(z.record(z.string(), z.unknown())),
    memberships: z.array(z.record(z.string(), z.unknown())),
    agreements: z.array(z.record(z.string(), z.unknown())),
    agreementParts: z.array(z.record(z.string(), z.unknown())),
    charges: z.array(z.record(z.string(), z.unknown())),
    invoices: z.array(z.record(z.string(), z.unknown())),
    invoiceLines: z.array(z.record(z.string(), z.unknown())),
    notifications: z.array(z.record(z.string(), z.unknown())),
    messagesSent: z.array(z.record(z.string(), z.unknown())),
    messagesReceived: z.array(z.record(z.string(), z.unknown())),
    forumThreads: z.array(z.record(z.string(), z.unknown())),
    forumPosts: z.array(z.record(z.string(), z.unknown())),
    marketListings: z.array(z.record(z.string(), z.unknown())),
    lendingItems: z.array(z.record(z.string(), z.unknown())),
    loans: z.array(z.record(z.string(), z.unknown())),
    assemblyProposals: z.array(z.record(z.string(), z.unknown())),
    documentsUploaded: z.array(z.record(z.string(), z.unknown())),
    articlesWritten: z.array(z.record(z.string(), z.unknown())),
    pushDevices: z.array(z.record(z.string(), z.unknown())),
    /** Where they lived: their stays in the associations' households (decision 0090). */
    homes: z.array(z.record(z.string(), z.unknown())),
  })
  .meta({ id: 'PersonalDataExport' })
export type PersonalDataExport = z.infer<typeof PersonalDataExport>
export type PersonalDataSection = Exclude<keyof PersonalDataExport, 'format' | 'exportedAt'>

/**
 * Erasure only on request (decision 0080, docs/PRIVACY.md): the member files a request in the app
 * (`APP`), or staff record one the member made another way; another staff member (or the super
 * admin) approves it, and only then the erasure runs.
 */
export const erasureChannels = ['APP', 'LETTER', 'EMAIL', 'PHONE', 'IN_PERSON', 'OTHER'] as const
export type ErasureChannel = (typeof erasureChannels)[number]
/** The ways staff record a request the member made outside the app. */
export const recordedChannels = ['LETTER', 'EMAIL', 'PHONE', 'IN_PERSON', 'OTHER'] as const
export const erasureRequestStatuses = ['PENDING', 'APPROVED', 'REJECTED', 'WITHDRAWN'] as const
export type ErasureRequestStatus = (typeof erasureRequestStatuses)[number]

/** The member's own request, to one of their associations. */
export const FileErasureRequest = z.object({ companyId: z.uuid({ error: m.optionInvalid.id }) }).meta({ id: 'FileErasureRequest' })
export type FileErasureRequest = z.infer<typeof FileErasureRequest>

/** A request the member made by letter, e-mail, phone or in person, recorded by staff. */
export const RecordErasureRequest = z
  .object({
    userId: z.uuid({ error: m.optionInvalid.id }),
    channel: z.enum(recordedChannels, { error: m.optionInvalid.id }),
    /** The day the member asked. */
    requestedOn: ErasureDate,
  })
  .meta({ id: 'RecordErasureRequest' })
export type RecordErasureRequest = z.infer<typeof RecordErasureRequest>

/** Why staff reject (or cancel) a request: shown to staff and kept in the audit. */
export const RejectErasureRequest = z
  .object({
    note: z.string({ error: m.erasureNoteRequired.id }).trim().min(1, { error: m.erasureNoteRequired.id }).max(500, { error: m.erasureNoteRequired.id }),
  })
  .meta({ id: 'RejectErasureRequest' })
export type RejectErasureRequest = z.infer<typeof RejectErasureRequest>

/** A request with its audit: who asked or recorded it and how, who decided and when. Names as stored (an erased one is `ERASED_NAME`). */
export const ErasureRequest = z
  .object({
    id: z.string(),
    companyId: z.string(),
    companyName: z.string(),
    userId: z.string(),
    personName: z.string(),
    channel: z.enum(erasureChannels),
    requestedOn: z.string(),
    recordedByUserId: z.string(),
    recordedByName: z.string(),
    recordedAt: z.string(),
    status: z.enum(erasureRequestStatuses),
    decidedByUserId: z.string().nullable(),
    decidedByName: z.string().nullable(),
    decidedAt: z.string().nullable(),
    decisionNote: z.string().nullable(),
    erasureId: z.string().nullable(),
  })
  .meta({ id: 'ErasureRequest' })
export type ErasureRequest = z.infer<typeof ErasureRequest>
export const ErasureRequestList = z.array(ErasureRequest).meta({ id: 'ErasureRequestList' })

/** The profile's view: the member's requests, and the associations they may ask (those they hold a role or an agreement in). */
export const MyErasureRequests = z
  .object({
    companies: z.array(z.object({ id: z.string(), name: z.string() })),
    requests: ErasureRequestList,
  })
  .meta({ id: 'MyErasureRequests' })
export type MyErasureRequests = z.infer<typeof MyErasureRequests>
