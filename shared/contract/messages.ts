import { z } from 'zod'
import { messageStatuses } from './values'
import { messages as m } from '../i18n-messages'
import { pageQueryFields } from './paging'
import { multiLineText, plainText } from './text'

/**
 * Messages (docs/PRODUCT.md §2 Messages, §3 Message, §5 message rules, decision 0025). The same schemas check
 * the client's form and the server's request, so docs/PRODUCT.md §5's wording appears in either place.
 */
export { messageStatuses }
export const MessageStatus = z.enum(messageStatuses)
export type MessageStatus = z.infer<typeof MessageStatus>

export const messageTypes = ['MESSAGE', 'NOTICE', 'REMINDER'] as const
export const MessageType = z.enum(messageTypes)
export type MessageType = z.infer<typeof MessageType>

export const recipientKinds = ['MEMBER', 'ALL_MEMBERS', 'BOARD', 'ADDRESS'] as const
export type RecipientKind = (typeof recipientKinds)[number]

/** Who a message goes to: one member, every member of the company, the board, or everyone at an address. */
export const RecipientTarget = z
  .discriminatedUnion(
    'kind',
    [
      z.object({ kind: z.literal('MEMBER'), userId: z.uuid({ error: m.messageRecipientRequired.id }) }),
      z.object({ kind: z.literal('ALL_MEMBERS') }),
      z.object({ kind: z.literal('BOARD') }),
      z.object({ kind: z.literal('ADDRESS'), addressId: z.uuid({ error: m.messageRecipientRequired.id }) }),
    ],
    { error: m.messageRecipientRequired.id },
  )
  .meta({ id: 'RecipientTarget' })
export type RecipientTarget = z.infer<typeof RecipientTarget>

export const MAX_SUBJECT = 200
/** Characters of (HTML) body. */
export const MAX_BODY = 50_000

/** A subject is one line (shared/contract/text.ts); the body keeps its line breaks. */
const subject = plainText(MAX_SUBJECT, m.messageSubjectRequired.id)
const body = multiLineText(MAX_BODY, m.messageContentRequired.id).meta({
  description: 'HTML (sanitized by the server: the tags of shared/domain/html-policy.ts); line breaks are kept',
})

/** A wall-clock time in Copenhagen, `YYYY-MM-DDTHH:mm` (what a datetime-local field gives). */
export const CopenhagenDateTime = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/, m.messageScheduleInvalid.id)
  .meta({ description: 'Local time in Europe/Copenhagen, YYYY-MM-DDTHH:mm' })

export const CreateMessageRequest = z
  .object({
    /** A client-made id (UUID) so a draft written offline keeps it. */
    id: z.uuid().optional(),
    companyId: z.uuid(),
    type: MessageType.default('MESSAGE'),
    subject,
    body,
    recipient: RecipientTarget,
    /** Send at this Copenhagen time (the job sends it); null or absent: a draft until sent. */
    scheduledAt: CopenhagenDateTime.nullable().optional(),
  })
  .meta({ id: 'CreateMessageRequest' })
export type CreateMessageRequest = z.input<typeof CreateMessageRequest>

export const UpdateMessageRequest = z
  .object({
    type: MessageType.optional(),
    subject: subject.optional(),
    body: body.optional(),
    recipient: RecipientTarget.optional(),
    scheduledAt: CopenhagenDateTime.nullable().optional(),
  })
  .meta({ id: 'UpdateMessageRequest' })
export type UpdateMessageRequest = z.input<typeof UpdateMessageRequest>

export const SendMessageRequest = z
  .object({ scheduledAt: CopenhagenDateTime.nullable().optional() })
  .meta({ id: 'SendMessageRequest', description: 'Without scheduledAt the draft is sent now; with one in the future it is scheduled.' })
export type SendMessageRequest = z.input<typeof SendMessageRequest>

export const AnonymousMessageRequest = z.object({ companyId: z.uuid(), subject, body }).meta({ id: 'AnonymousMessageRequest' })
export type AnonymousMessageRequest = z.input<typeof AnonymousMessageRequest>

export const AnonymousMessageResponse = z
  .object({ sent: z.literal(true), recipients: z.number().int() })
  .meta({ id: 'AnonymousMessageResponse', description: 'Deliberately without the message id: nothing ties the message to the caller.' })

export const MessageRecipient = z
  .object({
    id: z.string(),
    userId: z.string(),
    fullName: z.string(),
    emailAddress: z.string(),
    /** When the recipient got it: the e-mail was handed to the mail server, or they opened it in the app. */
    receivedAt: z.string().nullable(),
    viewedAt: z.string().nullable(),
  })
  .meta({ id: 'MessageRecipient' })
export type MessageRecipient = z.infer<typeof MessageRecipient>

export const MessageAttachment = z
  .object({ id: z.string(), name: z.string(), contentType: z.string(), size: z.number().int() })
  .meta({ id: 'MessageAttachment' })
export type MessageAttachment = z.infer<typeof MessageAttachment>

export const Message = z
  .object({
    id: z.string(),
    companyId: z.string(),
    companyName: z.string(),
    type: MessageType,
    subject: z.string(),
    body: z.string(),
    status: MessageStatus,
    anonymous: z.boolean(),
    /** null for an anonymous message. */
    sender: z.object({ id: z.string(), fullName: z.string(), emailAddress: z.string() }).nullable(),
    recipient: z.object({ kind: z.enum(recipientKinds), userId: z.string().nullable(), addressId: z.string().nullable(), label: z.string().nullable() }),
    /** Every recipient for the sender and staff; a recipient sees only their own row. */
    recipients: z.array(MessageRecipient),
    attachments: z.array(MessageAttachment),
    /** Scheduled sending as Copenhagen wall time, and as an instant. */
    scheduledAt: z.string().nullable(),
    sendAt: z.string().nullable(),
    sentAt: z.string().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
    version: z.number().int(),
  })
  .meta({ id: 'Message' })
export type Message = z.infer<typeof Message>

export const MessageListQuery = z.object({
  companyId: z.uuid().optional(),
  status: MessageStatus.optional(),
  ...pageQueryFields,
})
export type MessageListQuery = z.output<typeof MessageListQuery>

/** POST /contact (docs/PRODUCT.md §2 Contact): the message goes to the platform's contact address. */
export const ContactRequest = z
  .object({
    message: multiLineText(5000, m.contactMessageRequired.id),
    /** A guest may leave an address to be answered at; a signed-in user's own is used. */
    email: z.email({ error: m.invalidEmail.id }).max(254).optional(),
  })
  .meta({ id: 'ContactRequest' })
export type ContactRequest = z.input<typeof ContactRequest>

/** Attachments: at most 5 MB each, 10 per message, of these types (checked by name, type and content). */
export const MAX_ATTACHMENT_BYTES = 5 * 1024 * 1024
export const MAX_ATTACHMENTS = 10
export const attachmentTypes: Record<string, string> = {
  pdf: 'application/pdf',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  txt: 'text/plain',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
}
