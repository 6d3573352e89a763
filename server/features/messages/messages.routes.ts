import { z } from '@hono/zod-openapi'
import { route } from '../../http/route'
import {
  AnonymousMessageRequest,
  AnonymousMessageResponse,
  ContactRequest,
  CreateMessageRequest,
  Message,
  MessageListQuery,
  SendMessageRequest,
  UpdateMessageRequest,
} from '../../../shared/contract/messages'
import { MessageResponse } from '../../../shared/contract/common'
import { DomainError, validation } from '../../errors'
import { issuesOf } from '../../http/error-mapper'
import { bearer, errorResponses as e, json, jsonBody, router, versionedWriteHeaders, writeHeaders } from '../../http/openapi'
import { nextLinkHeader, setNextLink } from '../../http/paging'
import { storedFileAnswer, uploadedFile } from '../../http/stored-files'
import { ifMatchVersion, setETag } from '../../http/versioning'
import type { RateLimiter } from '../../http/rate-limit'
import { translate } from '../../i18n/i18n'
import { requireActor } from '../../access/actor'
import type { ContactService } from './contact.service'
import type { MessagesService } from './messages.service'

const tags = ['Messages']
const IdParam = z.object({ id: z.uuid() })
const AttachmentParam = z.object({ id: z.uuid(), attachmentId: z.uuid() })
const one = (description: string) => ({ description: `${description} (ETag: its version)`, ...json(Message) })

const list = route({
  rules: { access: 'signed-in', data: 'read' },
  method: 'get',
  path: '/messages',
  tags,
  security: bearer,
  summary:
    'Messages the caller may see, newest first: their drafts, what they sent, what they received, and (staff) every sent message of their companies; companyId narrows them (404 for a company the caller has nothing to do with)',
  description:
    'A page of at most `limit` (1–200, default 200) messages, newest first by creation and id. ' +
    'The next page is in the `Link: <…&cursor=…>; rel="next"` header, absent on the last page; a cursor that is not one of ours is 400 `VALIDATION_FAILED` on `cursor`.',
  request: { query: MessageListQuery },
  responses: {
    200: { description: 'A page of messages, newest first', headers: nextLinkHeader, ...json(z.array(Message)) },
    400: e[400],
    401: e[401],
    404: e[404],
  },
})
const create = route({
  rules: { access: 'signed-in', data: 'write' },
  method: 'post',
  path: '/messages',
  tags,
  security: bearer,
  summary:
    'Write a draft. Staff (every company role) and the super admin write to one member, all members, the board or everyone at an address, as a message, notice or reminder; ' +
    'a resident (member through an agreement) writes a message to the board. A client-made `id` makes an offline create safe to repeat. `scheduledAt` (Copenhagen time) schedules it.',
  request: { headers: writeHeaders, ...jsonBody(CreateMessageRequest) },
  responses: { 201: one('The draft'), 400: e[400], 401: e[401], 403: e[403], 404: e[404], 409: e[409], 422: e[422] },
})
const anonymous = route({
  rules: {
    access: 'signed-in',
    data: 'own-steps',
    why: 'takes the write lock itself, so that no Idempotency-Key record keyed by its sender is written',
    unlogged: true,
    unbatched: true,
  },
  method: 'post',
  path: '/messages/anonymous',
  tags,
  security: bearer,
  summary:
    'Send a message to the board anonymously (a resident or board member of the company). Stored without any link to the sender: no sender column, no idempotency record, ' +
    'no request log line, no change-log entry for the caller. Sent at once; not retried by the client, so not idempotent.',
  request: jsonBody(AnonymousMessageRequest),
  responses: {
    201: { description: 'Sent to the board', ...json(AnonymousMessageResponse) },
    400: e[400],
    401: e[401],
    404: e[404],
    409: e[409],
    422: e[422],
    429: e[429],
  },
})
const getOne = route({
  rules: { access: 'signed-in', data: 'read', scope: { of: 'message' } },
  method: 'get',
  path: '/messages/{id}',
  tags,
  security: bearer,
  summary: "A message: its author and, once sent, its recipients, the company's staff and the super admin (a recipient sees only their own tracking row)",
  request: { params: IdParam },
  responses: { 200: one('The message'), 401: e[401], 404: e[404] },
})
const update = route({
  rules: { access: 'signed-in', data: 'write', scope: { of: 'message' } },
  method: 'patch',
  path: '/messages/{id}',
  tags,
  security: bearer,
  summary: 'Change a draft (its author only; a sent message answers 409 INVALID_STATE). `scheduledAt: null` unschedules.',
  request: { params: IdParam, headers: versionedWriteHeaders, ...jsonBody(UpdateMessageRequest) },
  responses: { 200: one('The draft'), 400: e[400], 401: e[401], 403: e[403], 404: e[404], 409: e[409], 412: e[412], 422: e[422] },
})
const remove = route({
  rules: { access: 'signed-in', data: 'write', scope: { of: 'message' } },
  method: 'delete',
  path: '/messages/{id}',
  tags,
  security: bearer,
  summary: 'Delete a draft (its author only) with its attachments',
  request: { params: IdParam, headers: writeHeaders },
  responses: { 204: { description: 'Deleted' }, 401: e[401], 403: e[403], 404: e[404], 409: e[409] },
})
const send = route({
  rules: { access: 'signed-in', data: 'write', scope: { of: 'message' } },
  method: 'post',
  path: '/messages/{id}/send',
  tags,
  security: bearer,
  summary:
    'Send a draft now (recipients are fixed now; each gets a notification and an e-mail in their language), or with `scheduledAt` (Copenhagen time, in the future) schedule it for the job. ' +
    'Status: SENT, then DELIVERED when every e-mail has left or every recipient opened it, then READ.',
  request: { params: IdParam, headers: writeHeaders, body: { ...json(SendMessageRequest), required: false } },
  responses: { 200: one('The sent or scheduled message'), 400: e[400], 401: e[401], 403: e[403], 404: e[404], 409: e[409], 422: e[422] },
})
const viewed = route({
  rules: { access: 'signed-in', data: 'write', scope: { of: 'message' } },
  method: 'post',
  path: '/messages/{id}/view',
  tags,
  security: bearer,
  summary: 'The caller (a recipient) opened the message: sets their Viewed (and Received) time once; for anyone else it changes nothing',
  request: { params: IdParam, headers: writeHeaders },
  responses: { 200: one('The message'), 401: e[401], 404: e[404] },
})
const upload = route({
  rules: { access: 'signed-in', data: 'write', body: 'attachment', scope: { of: 'message' } },
  method: 'post',
  path: '/messages/{id}/attachments',
  tags,
  security: bearer,
  summary:
    'Attach a file to a draft (multipart field `file`): PDF, PNG, JPEG, GIF, WebP, text, Word or Excel, at most 5 MB, 10 per message; checked by content and by the virus-scanning hook',
  request: {
    params: IdParam,
    headers: writeHeaders,
    body: { content: { 'multipart/form-data': { schema: z.object({ file: z.any().meta({ type: 'string', format: 'binary' }) }) } }, required: true },
  },
  responses: { 201: one('The draft with the attachment'), 400: e[400], 401: e[401], 403: e[403], 404: e[404], 409: e[409], 413: e[413], 422: e[422] },
})
const download = route({
  rules: { access: 'signed-in', data: 'read', scope: { of: 'message' } },
  method: 'get',
  path: '/messages/{id}/attachments/{attachmentId}',
  tags,
  security: bearer,
  summary: 'The file (for those who may read the message)',
  request: { params: AttachmentParam },
  responses: {
    200: { description: 'The bytes', content: { 'application/octet-stream': { schema: z.any().meta({ type: 'string', format: 'binary' }) } } },
    401: e[401],
    404: e[404],
  },
})
const removeAttachment = route({
  rules: { access: 'signed-in', data: 'write', scope: { of: 'message' } },
  method: 'delete',
  path: '/messages/{id}/attachments/{attachmentId}',
  tags,
  security: bearer,
  summary: 'Remove an attachment from a draft',
  request: { params: AttachmentParam, headers: writeHeaders },
  responses: { 200: one('The draft'), 401: e[401], 403: e[403], 404: e[404], 409: e[409] },
})
const contact = route({
  rules: { access: 'public', data: 'write' },
  method: 'post',
  path: '/contact',
  tags: ['Contact'],
  summary:
    "The contact form (docs/PRODUCT.md §2 Contact): the message is e-mailed to the platform's contact address (CONTACT_EMAIL). Guests and signed-in users; 5 per hour per address",
  request: { headers: writeHeaders, ...jsonBody(ContactRequest) },
  responses: { 202: { description: 'Queued for sending', ...json(MessageResponse) }, 400: e[400], 429: e[429] },
})

export const messagesRoutes = (messages: MessagesService, contactService: ContactService, limits: { anonymous: RateLimiter; contact: RateLimiter }) =>
  router()
    .openapi(list, async (c) => {
      const page = await messages.list(requireActor(c.var.actor), c.req.valid('query'))
      setNextLink(c, page.next)
      return c.json(page.items, 200)
    })
    .openapi(create, async (c) => {
      const message = await messages.create(requireActor(c.var.actor), c.req.valid('json'))
      setETag(c, message.version)
      return c.json(message, 201)
    })
    .openapi(anonymous, async (c) => {
      const actor = requireActor(c.var.actor)
      // Counted in memory only (never stored or logged): nothing persistent ties the message to the caller.
      limits.anonymous.hit(`anon:${actor.userId}`)
      return c.json(await messages.sendAnonymous(actor, c.req.valid('json')), 201)
    })
    .openapi(getOne, async (c) => {
      const message = await messages.view(requireActor(c.var.actor), c.req.valid('param').id)
      setETag(c, message.version)
      return c.json(message, 200)
    })
    .openapi(update, async (c) => {
      const message = await messages.update(requireActor(c.var.actor), c.req.valid('param').id, c.req.valid('json'), ifMatchVersion(c))
      setETag(c, message.version)
      return c.json(message, 200)
    })
    .openapi(remove, async (c) => {
      await messages.remove(requireActor(c.var.actor), c.req.valid('param').id)
      return c.body(null, 204)
    })
    .openapi(send, async (c) => {
      const text = await c.req.text()
      let body: unknown = {}
      try {
        if (text) body = JSON.parse(text)
      } catch {
        throw new DomainError('MALFORMED_JSON', 'The request body is not valid JSON.')
      }
      const parsed = SendMessageRequest.safeParse(body)
      if (!parsed.success) throw validation(issuesOf(parsed.error))
      return c.json(await messages.send(requireActor(c.var.actor), c.req.valid('param').id, parsed.data), 200)
    })
    .openapi(viewed, async (c) => c.json(await messages.markViewed(requireActor(c.var.actor), c.req.valid('param').id), 200))
    .openapi(upload, async (c) => {
      const file = await uploadedFile(c, await c.req.parseBody(), 'This field is required')
      const message = await messages.addAttachment(requireActor(c.var.actor), c.req.valid('param').id, file)
      return c.json(message, 201)
    })
    .openapi(download, async (c) => {
      const { id, attachmentId } = c.req.valid('param')
      const file = await messages.attachment(requireActor(c.var.actor), id, attachmentId)
      return storedFileAnswer(c, file) as never
    })
    .openapi(removeAttachment, async (c) => {
      const { id, attachmentId } = c.req.valid('param')
      return c.json(await messages.removeAttachment(requireActor(c.var.actor), id, attachmentId), 200)
    })
    .openapi(contact, async (c) => {
      limits.contact.hit(`contact:${c.var.clientIp}`)
      await contactService.send(c.var.actor ?? null, c.req.valid('json'))
      return c.json({ message: translate(c.var.locale, /*i18n*/ { id: "Message sent successfully! We'll get back to you soon." }) }, 202)
    })

/** The anonymous route runs outside the request transaction: no idempotency record keyed by the sender (write-transaction.ts). */
export const isAnonymousMessagePath = (method: string, path: string) => method === 'POST' && path === '/api/messages/anonymous'
