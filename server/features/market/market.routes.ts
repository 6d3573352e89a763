import { createRoute, z } from '@hono/zod-openapi'
import { ContactSellerRequest, CreateListingRequest, Listing, ListingListQuery, UpdateListingRequest } from '../../../shared/contract/market'
import { messages as m } from '../../../shared/i18n-messages'
import { bearer, errorResponses as e, json, jsonBody, router, versionedWriteHeaders, writeHeaders } from '../../http/openapi'
import { nextLinkHeader, setNextLink } from '../../http/paging'
import type { RateLimiter } from '../../http/rate-limit'
import { storedFileAnswer, uploadedFile } from '../../http/stored-files'
import { ifMatchVersion, setETag } from '../../http/versioning'
import { requireActor } from '../access/actor'
import type { MarketService } from './market.service'

const tags = ['Market']
const IdParam = z.object({ id: z.uuid() })
const one = (description: string) => ({ description: `${description} (ETag: its version)`, ...json(Listing) })
const binary = z.any().meta({ type: 'string', format: 'binary' })
const WHO =
  'Members of the association read its market: its staff (every role) and its residents with a living agreement; the super admin reads all. ' +
  'Another association’s listing is 404.'

const list = createRoute({
  method: 'get',
  path: '/market',
  tags,
  security: bearer,
  summary: "A company's market listings, newest first: the caller's own, and others' that have not expired",
  description: `${WHO} A page of at most \`limit\` (1–200, default 200); the next page is in the \`Link\` header.`,
  request: { query: ListingListQuery },
  responses: { 200: { description: 'A page of listings', headers: nextLinkHeader, ...json(z.array(Listing)) }, 400: e[400], 401: e[401], 404: e[404] },
})
const create = createRoute({
  method: 'post',
  path: '/market',
  tags,
  security: bearer,
  summary: 'List something (a member of the association; a client-made `id` makes a retried create one listing). It expires in 30 days unless renewed.',
  request: { headers: writeHeaders, ...jsonBody(CreateListingRequest) },
  responses: { 201: one('The listing'), 400: e[400], 401: e[401], 403: e[403], 404: e[404], 409: e[409], 422: e[422] },
})
const getOne = createRoute({
  method: 'get',
  path: '/market/{id}',
  tags,
  security: bearer,
  summary: 'A listing (an expired one too: `expiresAt` is past)',
  description: WHO,
  request: { params: IdParam },
  responses: { 200: one('The listing'), 401: e[401], 404: e[404] },
})
const update = createRoute({
  method: 'patch',
  path: '/market/{id}',
  tags,
  security: bearer,
  summary: "Change a listing's title, description, price (BUY only) or status (the seller only)",
  request: { params: IdParam, headers: versionedWriteHeaders, ...jsonBody(UpdateListingRequest) },
  responses: { 200: one('The listing'), 400: e[400], 401: e[401], 403: e[403], 404: e[404], 409: e[409], 412: e[412], 422: e[422] },
})
const remove = createRoute({
  method: 'delete',
  path: '/market/{id}',
  tags,
  security: bearer,
  summary: 'Delete a listing: the seller, the association’s staff (moderation) or the super admin',
  request: { params: IdParam, headers: versionedWriteHeaders },
  responses: { 204: { description: 'Deleted' }, 401: e[401], 403: e[403], 404: e[404], 409: e[409], 412: e[412] },
})
const renew = createRoute({
  method: 'post',
  path: '/market/{id}/renew',
  tags,
  security: bearer,
  summary: 'Renew a listing: it expires 30 days from now (the seller only)',
  request: { params: IdParam, headers: versionedWriteHeaders },
  responses: { 200: one('The listing'), 401: e[401], 403: e[403], 404: e[404], 409: e[409], 412: e[412] },
})
const photo = createRoute({
  method: 'get',
  path: '/market/{id}/photo',
  tags,
  security: bearer,
  summary: 'The listing’s photo, for those who read the listing (404 when it has none). `ETag` is the photo’s id.',
  request: { params: IdParam },
  responses: { 200: { description: 'The image', content: { 'application/octet-stream': { schema: binary } } }, 401: e[401], 404: e[404] },
})
const setPhoto = createRoute({
  method: 'put',
  path: '/market/{id}/photo',
  tags,
  security: bearer,
  summary:
    'Set or replace the photo (multipart field `file`; the seller only): PNG, JPEG, GIF or WebP, at most 5 MB, checked by content and by the virus-scanning hook',
  request: {
    params: IdParam,
    headers: versionedWriteHeaders,
    body: { content: { 'multipart/form-data': { schema: z.object({ file: binary }) } }, required: true },
  },
  responses: { 200: one('The listing'), 400: e[400], 401: e[401], 403: e[403], 404: e[404], 409: e[409], 412: e[412], 413: e[413], 422: e[422], 429: e[429] },
})
const contact = createRoute({
  method: 'post',
  path: '/market/{id}/contact',
  tags,
  security: bearer,
  summary:
    'Write to the seller: they are told in-app and by e-mail, in their language, with the writer’s name, e-mail and text. Any member but the seller; 10 per hour per user',
  request: { params: IdParam, headers: writeHeaders, ...jsonBody(ContactSellerRequest) },
  responses: { 202: { description: 'Sent' }, 400: e[400], 401: e[401], 404: e[404], 422: e[422], 429: e[429] },
})

export const marketRoutes = (market: MarketService, limits: { contact: RateLimiter; photo: RateLimiter }) =>
  router()
    .openapi(list, async (c) => {
      const page = await market.list(requireActor(c.var.actor), c.req.valid('query'))
      setNextLink(c, page.next)
      return c.json(page.items, 200)
    })
    .openapi(create, async (c) => {
      const listing = await market.create(requireActor(c.var.actor), c.req.valid('json'))
      setETag(c, listing.version)
      return c.json(listing, 201)
    })
    .openapi(getOne, async (c) => {
      const listing = await market.view(requireActor(c.var.actor), c.req.valid('param').id)
      setETag(c, listing.version)
      return c.json(listing, 200)
    })
    .openapi(update, async (c) => {
      const listing = await market.update(requireActor(c.var.actor), c.req.valid('param').id, c.req.valid('json'), ifMatchVersion(c))
      setETag(c, listing.version)
      return c.json(listing, 200)
    })
    .openapi(remove, async (c) => {
      await market.remove(requireActor(c.var.actor), c.req.valid('param').id, ifMatchVersion(c))
      return c.body(null, 204)
    })
    .openapi(renew, async (c) => {
      const listing = await market.renew(requireActor(c.var.actor), c.req.valid('param').id, ifMatchVersion(c))
      setETag(c, listing.version)
      return c.json(listing, 200)
    })
    .openapi(photo, async (c) => {
      const found = await market.photo(requireActor(c.var.actor), c.req.valid('param').id)
      return storedFileAnswer(c, { contentType: found.contentType, bytes: found.bytes, etag: found.photoId }) as never
    })
    .openapi(setPhoto, async (c) => {
      const actor = requireActor(c.var.actor)
      limits.photo.hit(`market-photo:${actor.userId}`)
      const file = await uploadedFile(await c.req.parseBody(), m.documentFileRequired.id)
      const listing = await market.setPhoto(actor, c.req.valid('param').id, file, ifMatchVersion(c))
      setETag(c, listing.version)
      return c.json(listing, 200)
    })
    .openapi(contact, async (c) => {
      const actor = requireActor(c.var.actor)
      limits.contact.hit(`market-contact:${actor.userId}`)
      await market.contact(actor, c.req.valid('param').id, c.req.valid('json'))
      return c.body(null, 202)
    })
