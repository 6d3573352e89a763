import { createRoute, z } from '@hono/zod-openapi'
import { Document, DocumentEvent, DocumentListQuery, DocumentUploadFields, UpdateDocumentRequest } from '../../../shared/contract/documents'
import { messages as m } from '../../../shared/i18n-messages'
import { validation } from '../../errors'
import { issuesOf } from '../../http/error-mapper'
import { bearer, errorResponses as e, json, jsonBody, router, versionedWriteHeaders, writeHeaders } from '../../http/openapi'
import { nextLinkHeader, setNextLink } from '../../http/paging'
import { storedFileAnswer, uploadedFile } from '../../http/stored-files'
import { ifMatchVersion, setETag } from '../../http/versioning'
import { requireActor } from '../access/actor'
import type { DocumentsService } from './documents.service'

const tags = ['Documents']
const IdParam = z.object({ id: z.uuid() })
const one = (description: string) => ({ description: `${description} (ETag: its version)`, ...json(Document) })
const binary = z.any().meta({ type: 'string', format: 'binary' })
/** The uploaded file of a multipart form: a missing one, or a text in its place, is "Please choose a file". */
const fileField = z.custom<File>((v) => v instanceof File, { error: m.documentFileRequired.id }).meta({ type: 'string', format: 'binary' })
const WHO_READS =
  'Who reads a document is its audience: MEMBERS (residents of the association and its staff), BOARD (every company role), STAFF (chairman, administrator, accountant); the super admin reads all. ' +
  'Another association’s document, or one the caller may not read, is 404.'

const list = createRoute({
  method: 'get',
  path: '/documents',
  tags,
  security: bearer,
  summary: "A company's documents the caller reads, newest first (a company the caller has nothing to do with is 404)",
  description: `${WHO_READS} A page of at most \`limit\` (1–200, default 200); the next page is in the \`Link\` header.`,
  request: { query: DocumentListQuery },
  responses: { 200: { description: 'A page of documents', headers: nextLinkHeader, ...json(z.array(Document)) }, 400: e[400], 401: e[401], 404: e[404] },
})
const upload = createRoute({
  method: 'post',
  path: '/documents',
  tags,
  security: bearer,
  summary:
    'Upload a document (multipart: `file` and the fields of DocumentUploadFields). Staff of the company (every role) and the super admin; a board member cannot choose the STAFF audience. ' +
    'PDF, PNG, JPEG, GIF, WebP, text, Word or Excel, at most 20 MB; checked by content and by the virus-scanning hook. Recorded in the audit trail.',
  request: {
    headers: writeHeaders,
    body: { content: { 'multipart/form-data': { schema: DocumentUploadFields.extend({ file: fileField }) } }, required: true },
  },
  responses: { 201: one('The document'), 400: e[400], 401: e[401], 403: e[403], 404: e[404], 409: e[409], 413: e[413], 422: e[422] },
})
const getOne = createRoute({
  method: 'get',
  path: '/documents/{id}',
  tags,
  security: bearer,
  summary: 'A document (its description; the bytes are at /documents/{id}/file)',
  description: WHO_READS,
  request: { params: IdParam },
  responses: { 200: one('The document'), 401: e[401], 404: e[404] },
})
const update = createRoute({
  method: 'patch',
  path: '/documents/{id}',
  tags,
  security: bearer,
  summary: "Change a document's title, category, audience or general assembly (staff of the company). Recorded in the audit trail.",
  request: { params: IdParam, headers: versionedWriteHeaders, ...jsonBody(UpdateDocumentRequest) },
  responses: { 200: one('The document'), 400: e[400], 401: e[401], 403: e[403], 404: e[404], 409: e[409], 412: e[412], 422: e[422] },
})
const remove = createRoute({
  method: 'delete',
  path: '/documents/{id}',
  tags,
  security: bearer,
  summary: 'Delete a document (staff of the company); the audit trail keeps who deleted it',
  request: { params: IdParam, headers: versionedWriteHeaders },
  responses: { 204: { description: 'Deleted' }, 401: e[401], 403: e[403], 404: e[404], 409: e[409], 412: e[412] },
})
const file = createRoute({
  method: 'get',
  path: '/documents/{id}/file',
  tags,
  security: bearer,
  summary: 'The document’s file, for those who read the document. `ETag` is the file’s id: it changes when the file is replaced.',
  request: { params: IdParam },
  responses: { 200: { description: 'The bytes', content: { 'application/octet-stream': { schema: binary } } }, 401: e[401], 404: e[404] },
})
const replace = createRoute({
  method: 'put',
  path: '/documents/{id}/file',
  tags,
  security: bearer,
  summary: 'Replace the file (multipart field `file`; staff of the company). The document gets a new `fileId`; recorded in the audit trail.',
  request: {
    params: IdParam,
    headers: versionedWriteHeaders,
    body: { content: { 'multipart/form-data': { schema: z.object({ file: binary }) } }, required: true },
  },
  responses: { 200: one('The document'), 400: e[400], 401: e[401], 403: e[403], 404: e[404], 409: e[409], 412: e[412], 413: e[413], 422: e[422] },
})
const history = createRoute({
  method: 'get',
  path: '/documents/{id}/history',
  tags,
  security: bearer,
  summary: 'Who uploaded and changed the document, newest first (staff of the company and the super admin; a resident who reads the document gets 403)',
  request: { params: IdParam },
  responses: { 200: { description: 'The audit trail', ...json(z.array(DocumentEvent)) }, 401: e[401], 403: e[403], 404: e[404] },
})

/** The uploaded file of a multipart body (400 on `file` when there is none). */
const fileOf = (form: Record<string, unknown>) => uploadedFile(form, m.documentFileRequired.id)

export const documentsRoutes = (documents: DocumentsService) =>
  router()
    .openapi(list, async (c) => {
      const page = await documents.list(requireActor(c.var.actor), c.req.valid('query'))
      setNextLink(c, page.next)
      return c.json(page.items, 200)
    })
    .openapi(upload, async (c) => {
      const actor = requireActor(c.var.actor)
      const form = await c.req.parseBody()
      const fields = DocumentUploadFields.safeParse(
        Object.fromEntries(Object.entries(form).filter(([k, v]) => k !== 'file' && typeof v === 'string' && v !== '')),
      )
      if (!fields.success) throw validation(issuesOf(fields.error))
      const document = await documents.upload(actor, fields.data, await fileOf(form))
      setETag(c, document.version)
      return c.json(document, 201)
    })
    .openapi(getOne, async (c) => {
      const document = await documents.view(requireActor(c.var.actor), c.req.valid('param').id)
      setETag(c, document.version)
      return c.json(document, 200)
    })
    .openapi(update, async (c) => {
      const document = await documents.update(requireActor(c.var.actor), c.req.valid('param').id, c.req.valid('json'), ifMatchVersion(c))
      setETag(c, document.version)
      return c.json(document, 200)
    })
    .openapi(remove, async (c) => {
      await documents.remove(requireActor(c.var.actor), c.req.valid('param').id, ifMatchVersion(c))
      return c.body(null, 204)
    })
    .openapi(file, async (c) => {
      const found = await documents.file(requireActor(c.var.actor), c.req.valid('param').id)
      return storedFileAnswer(c, { ...found, etag: found.fileId }) as never
    })
    .openapi(replace, async (c) => {
      const form = await c.req.parseBody()
      const document = await documents.replaceFile(requireActor(c.var.actor), c.req.valid('param').id, await fileOf(form), ifMatchVersion(c))
      setETag(c, document.version)
      return c.json(document, 200)
    })
    .openapi(history, async (c) => c.json(await documents.history(requireActor(c.var.actor), c.req.valid('param').id), 200))
