import { z } from '@hono/zod-openapi'
import type { Context } from 'hono'
import type { AppEnv } from '../../http/app-env'
import { Document, DocumentEvent, DocumentListQuery, DocumentUploadFields, UpdateDocumentRequest } from '../../../shared/contract/documents'
import { messages as m } from '../../../shared/i18n-messages'
import { validation } from '../../errors'
import { issuesOf } from '../../http/error-mapper'
import { IdParam, itemRoutes, PAGED } from '../../http/item-routes'
import { json, router, writeHeaders } from '../../http/openapi'
import { setNextLink } from '../../http/paging'
import { storedFileAnswer, uploadedFile } from '../../http/stored-files'
import { ifMatchVersion, setETag } from '../../http/versioning'
import { requireActor } from '../../access/actor'
import type { DocumentsService } from './documents.service'

const r = itemRoutes({ tags: ['Documents'], entity: Document, name: 'document', scope: 'document' })
/** The uploaded file of a multipart form: a missing one, or a text in its place, is "Please choose a file". */
const fileField = z.custom<File>((v) => v instanceof File, { error: m.documentFileRequired.id }).meta({ type: 'string', format: 'binary' })
const WHO_READS =
  'Who reads a document is its audience: MEMBERS (residents of the association and its staff), BOARD (every company role), STAFF (chairman, administrator, accountant); the super admin reads all. ' +
  'Another association’s document, or one the caller may not read, is 404.'

const list = r.page('/documents', {
  summary: "A company's documents the caller reads, newest first (a company the caller has nothing to do with is 404)",
  description: `${WHO_READS} ${PAGED}`,
  query: DocumentListQuery,
})
const upload = r.route({
  rules: { access: 'signed-in', data: 'write', body: 'document', scope: { of: 'association', in: 'body', param: 'companyId' } },
  method: 'post',
  path: '/documents',
  summary:
    'Upload a document (multipart: `file` and the fields of DocumentUploadFields). Staff of the company (every role) and the super admin; a board member cannot choose the STAFF audience. ' +
    'PDF, PNG, JPEG, GIF, WebP, text, Word or Excel, at most 20 MB; checked by content and by the virus-scanning hook. Recorded in the audit trail.',
  request: {
    headers: writeHeaders,
    body: { content: { 'multipart/form-data': { schema: DocumentUploadFields.extend({ file: fileField }) } }, required: true },
  },
  ok: { 201: r.one() },
  errors: [400, 401, 403, 404, 409, 413, 422],
})
const getOne = r.read('/documents/{id}', { summary: 'A document (its description; the bytes are at /documents/{id}/file)', description: WHO_READS })
const update = r.update('/documents/{id}', {
  summary: "Change a document's title, category, audience or general assembly (staff of the company). Recorded in the audit trail.",
  body: UpdateDocumentRequest,
})
const remove = r.remove('/documents/{id}', { summary: 'Delete a document (staff of the company); the audit trail keeps who deleted it' })
const file = r.file('/documents/{id}/file', {
  summary: 'The document’s file, for those who read the document. `ETag` is the file’s id: it changes when the file is replaced.',
  what: 'The bytes',
})
const replace = r.setFile('/documents/{id}/file', {
  size: 'document',
  summary: 'Replace the file (multipart field `file`; staff of the company). The document gets a new `fileId`; recorded in the audit trail.',
  errors: [400, 401, 403, 404, 409, 412, 413, 422],
})
const history = r.route({
  rules: { access: 'signed-in', data: 'read', scope: { of: 'document' } },
  method: 'get',
  path: '/documents/{id}/history',
  summary: 'Who uploaded and changed the document, newest first (staff of the company and the super admin; a resident who reads the document gets 403)',
  request: { params: IdParam },
  ok: { 200: { description: 'The audit trail', ...json(z.array(DocumentEvent)) } },
  errors: [401, 403, 404],
})

/** The uploaded file of a multipart body (400 on `file` when there is none). */
const fileOf = (c: Context<AppEnv>, form: Record<string, unknown>) => uploadedFile(c, form, m.documentFileRequired.id)

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
      if (!fields.success) {
        await c.var.accessProbe?.()
        throw validation(issuesOf(fields.error))
      }
      const document = await documents.upload(actor, fields.data, await fileOf(c, form))
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
      const document = await documents.replaceFile(requireActor(c.var.actor), c.req.valid('param').id, await fileOf(c, form), ifMatchVersion(c))
      setETag(c, document.version)
      return c.json(document, 200)
    })
    .openapi(history, async (c) => c.json(await documents.history(requireActor(c.var.actor), c.req.valid('param').id), 200))
