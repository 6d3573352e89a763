import { z } from 'zod'
import { documentCategories } from './values'
import { messages as m } from '../i18n-messages'
import { pageQueryFields } from './paging'
import { plainText } from './text'

/**
 * Documents of an association (docs/PRODUCT.md "Documents"): bylaws, minutes, budgets,
 * house rules, shared with every member, the board, or the administration only. The same schemas
 * check the client's form and the server's request.
 */
export { documentCategories }
export const DocumentCategory = z.enum(documentCategories, { error: m.optionInvalid.id })
export type DocumentCategory = z.infer<typeof DocumentCategory>

/**
 * Who reads a document: every member (residents and staff), the board (every company role), or the
 * administration (chairman, administrator, accountant). The super admin reads all.
 */
export const documentAudiences = ['MEMBERS', 'BOARD', 'STAFF'] as const
export const DocumentAudience = z.enum(documentAudiences, { error: m.optionInvalid.id })
export type DocumentAudience = z.infer<typeof DocumentAudience>

export const MAX_DOCUMENT_TITLE = 200
/** A document's file: at most 20 MB (checked by name, type and content, and by the virus-scanning hook). */
export const MAX_DOCUMENT_BYTES = 20 * 1024 * 1024

const title = plainText(MAX_DOCUMENT_TITLE, m.documentTitleRequired.id)

/** The fields of `POST /documents` beside the file (multipart form fields). */
export const DocumentUploadFields = z
  .object({
    companyId: z.uuid(),
    title,
    category: DocumentCategory,
    audience: DocumentAudience,
    /** The general assembly the document belongs to (its papers or minutes). */
    assemblyId: z.uuid().optional(),
  })
  .meta({ id: 'DocumentUploadFields' })
export type DocumentUploadFields = z.input<typeof DocumentUploadFields>

export const UpdateDocumentRequest = z
  .object({
    title: title.optional(),
    category: DocumentCategory.optional(),
    audience: DocumentAudience.optional(),
    assemblyId: z.uuid().nullable().optional(),
  })
  .meta({ id: 'UpdateDocumentRequest' })
export type UpdateDocumentRequest = z.input<typeof UpdateDocumentRequest>

export const Document = z
  .object({
    id: z.string(),
    companyId: z.string(),
    title: z.string(),
    category: DocumentCategory,
    audience: DocumentAudience,
    assemblyId: z.string().nullable(),
    /** Changes when the file is replaced (a copy kept offline under another id is outdated). */
    fileId: z.string(),
    fileName: z.string(),
    contentType: z.string(),
    size: z.number().int(),
    uploadedBy: z.object({ id: z.string(), fullName: z.string() }).nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
    version: z.number().int(),
  })
  .meta({ id: 'Document' })
export type Document = z.infer<typeof Document>

export const DocumentListQuery = z.object({
  companyId: z.uuid(),
  category: DocumentCategory.optional(),
  ...pageQueryFields,
})
export type DocumentListQuery = z.output<typeof DocumentListQuery>

export const documentActions = ['UPLOADED', 'EDITED', 'REPLACED', 'DELETED'] as const

/** One line of a document's audit trail: who did what, when. */
export const DocumentEvent = z
  .object({
    id: z.string(),
    documentId: z.string(),
    action: z.enum(documentActions),
    title: z.string(),
    user: z.object({ id: z.string().nullable(), fullName: z.string() }),
    details: z.record(z.string(), z.unknown()).nullable(),
    createdAt: z.string(),
  })
  .meta({ id: 'DocumentEvent' })
export type DocumentEvent = z.infer<typeof DocumentEvent>

/** Content types a browser shows itself (the rest are downloaded). */
export const shownInBrowser = (contentType: string): boolean =>
  contentType === 'application/pdf' || contentType.startsWith('image/') || contentType === 'text/plain'
