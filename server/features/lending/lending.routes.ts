import { createRoute, z } from '@hono/zod-openapi'
import {
  CreateLendingItemRequest,
  ItemLoansQuery,
  LendingItem,
  LendingItemListQuery,
  Loan,
  LoanRequest,
  UpdateLendingItemRequest,
} from '../../../shared/contract/lending'
import { messages as m } from '../../../shared/i18n-messages'
import { bearer, errorResponses as e, json, jsonBody, router, versionedWriteHeaders, writeHeaders } from '../../http/openapi'
import { nextLinkHeader, setNextLink } from '../../http/paging'
import type { RateLimiter } from '../../http/rate-limit'
import { storedFileAnswer, uploadedFile } from '../../http/stored-files'
import { ifMatchVersion, setETag } from '../../http/versioning'
import { requireActor } from '../access/actor'
import type { LendingService } from './lending.service'
import type { LoansService } from './loans.service'

const tags = ['Lending']
const IdParam = z.object({ id: z.uuid() })
const one = (description: string) => ({ description: `${description} (ETag: its version)`, ...json(LendingItem) })
const binary = z.any().meta({ type: 'string', format: 'binary' })
const WHO =
  'Members of the association: its staff (every role) and its residents with a living agreement; the super admin reads all. ' +
  'Another association’s item is 404.'

const list = createRoute({
  method: 'get',
  path: '/lending',
  tags,
  security: bearer,
  summary: "A company's items to borrow, newest first",
  description: `${WHO} A page of at most \`limit\` (1–200, default 200); the next page is in the \`Link\` header.`,
  request: { query: LendingItemListQuery },
  responses: { 200: { description: 'A page of items', headers: nextLinkHeader, ...json(z.array(LendingItem)) }, 400: e[400], 401: e[401], 404: e[404] },
})
const create = createRoute({
  method: 'post',
  path: '/lending',
  tags,
  security: bearer,
  summary:
    'Lend something: a member lends their own; `lender: ASSOCIATION` lends the association’s (its chairman, administrator or accountant). A client-made `id` makes a retried create one item.',
  request: { headers: writeHeaders, ...jsonBody(CreateLendingItemRequest) },
  responses: { 201: one('The item'), 400: e[400], 401: e[401], 403: e[403], 404: e[404], 409: e[409], 422: e[422] },
})
const getOne = createRoute({
  method: 'get',
  path: '/lending/{id}',
  tags,
  security: bearer,
  summary: 'An item',
  description: WHO,
  request: { params: IdParam },
  responses: { 200: one('The item'), 401: e[401], 404: e[404] },
})
const update = createRoute({
  method: 'patch',
  path: '/lending/{id}',
  tags,
  security: bearer,
  summary: "Change an item's title, description, rules, location or deposit (its lender only; a new deposit applies to later requests)",
  request: { params: IdParam, headers: versionedWriteHeaders, ...jsonBody(UpdateLendingItemRequest) },
  responses: { 200: one('The item'), 400: e[400], 401: e[401], 403: e[403], 404: e[404], 409: e[409], 412: e[412], 422: e[422] },
})
const remove = createRoute({
  method: 'delete',
  path: '/lending/{id}',
  tags,
  security: bearer,
  summary:
    'Delete an item (its lender, the association’s staff or the super admin) once none of its loans is open (422 otherwise); an item that has had loans is archived instead (kept for them, no longer listed or requestable)',
  request: { params: IdParam, headers: versionedWriteHeaders },
  responses: { 204: { description: 'Deleted' }, 401: e[401], 403: e[403], 404: e[404], 409: e[409], 412: e[412], 422: e[422] },
})
const photo = createRoute({
  method: 'get',
  path: '/lending/{id}/photo',
  tags,
  security: bearer,
  summary: 'The item’s photo, for those who read the item (404 when it has none). `ETag` is the photo’s id.',
  request: { params: IdParam },
  responses: { 200: { description: 'The image', content: { 'application/octet-stream': { schema: binary } } }, 401: e[401], 404: e[404] },
})
const setPhoto = createRoute({
  method: 'put',
  path: '/lending/{id}/photo',
  tags,
  security: bearer,
  summary:
    'Set or replace the photo (multipart field `file`; the lender only): PNG, JPEG, GIF or WebP, at most 5 MB, checked by content and by the virus-scanning hook',
  request: {
    params: IdParam,
    headers: versionedWriteHeaders,
    body: { content: { 'multipart/form-data': { schema: z.object({ file: binary }) } }, required: true },
  },
  responses: { 200: one('The item'), 400: e[400], 401: e[401], 403: e[403], 404: e[404], 409: e[409], 412: e[412], 413: e[413], 422: e[422], 429: e[429] },
})
const itemLoans = createRoute({
  method: 'get',
  path: '/lending/{id}/loans',
  tags,
  security: bearer,
  summary: "An item's loans, newest first: its calendar and history. Members see who borrows it when; the contract only its parties and the staff.",
  request: { params: IdParam, query: ItemLoansQuery },
  responses: { 200: { description: 'A page of loans', headers: nextLinkHeader, ...json(z.array(Loan)) }, 400: e[400], 401: e[401], 404: e[404] },
})
const requestLoan = createRoute({
  method: 'post',
  path: '/lending/{id}/loans',
  tags,
  security: bearer,
  summary:
    'Ask to borrow an item from one day to another (a member, not its lender). Dates that overlap an accepted, confirmed or handed-over loan are 409. A client-made `id` makes a retried request one loan.',
  request: { params: IdParam, headers: writeHeaders, ...jsonBody(LoanRequest) },
  responses: {
    201: { description: 'The loan, REQUESTED (ETag: its version)', ...json(Loan) },
    400: e[400],
    401: e[401],
    403: e[403],
    404: e[404],
    409: e[409],
    422: e[422],
  },
})

export const lendingRoutes = (lending: LendingService, loans: LoansService, limits: { photo: RateLimiter }) =>
  router()
    .openapi(list, async (c) => {
      const page = await lending.list(requireActor(c.var.actor), c.req.valid('query'))
      setNextLink(c, page.next)
      return c.json(page.items, 200)
    })
    .openapi(create, async (c) => {
      const item = await lending.create(requireActor(c.var.actor), c.req.valid('json'))
      setETag(c, item.version)
      return c.json(item, 201)
    })
    .openapi(getOne, async (c) => {
      const item = await lending.view(requireActor(c.var.actor), c.req.valid('param').id)
      setETag(c, item.version)
      return c.json(item, 200)
    })
    .openapi(update, async (c) => {
      const item = await lending.update(requireActor(c.var.actor), c.req.valid('param').id, c.req.valid('json'), ifMatchVersion(c))
      setETag(c, item.version)
      return c.json(item, 200)
    })
    .openapi(remove, async (c) => {
      await lending.remove(requireActor(c.var.actor), c.req.valid('param').id, ifMatchVersion(c))
      return c.body(null, 204)
    })
    .openapi(photo, async (c) => {
      const found = await lending.photo(requireActor(c.var.actor), c.req.valid('param').id)
      return storedFileAnswer(c, { contentType: found.contentType, bytes: found.bytes, etag: found.photoId }) as never
    })
    .openapi(setPhoto, async (c) => {
      const actor = requireActor(c.var.actor)
      limits.photo.hit(`lending-photo:${actor.userId}`)
      const file = await uploadedFile(await c.req.parseBody(), m.documentFileRequired.id)
      const item = await lending.setPhoto(actor, c.req.valid('param').id, file, ifMatchVersion(c))
      setETag(c, item.version)
      return c.json(item, 200)
    })
    .openapi(itemLoans, async (c) => {
      const page = await loans.ofItem(requireActor(c.var.actor), c.req.valid('param').id, c.req.valid('query'))
      setNextLink(c, page.next)
      return c.json(page.items, 200)
    })
    .openapi(requestLoan, async (c) => {
      const loan = await loans.request(requireActor(c.var.actor), c.req.valid('param').id, c.req.valid('json'))
      setETag(c, loan.version)
      return c.json(loan, 201)
    })
