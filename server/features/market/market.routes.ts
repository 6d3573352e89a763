import { ContactSellerRequest, CreateListingRequest, Listing, ListingListQuery, UpdateListingRequest } from '../../../shared/contract/market'
import { messages as m } from '../../../shared/i18n-messages'
import { IdParam, itemRoutes, PAGED } from '../../http/item-routes'
import { jsonBody, router, versionedWriteHeaders, writeHeaders } from '../../http/openapi'
import { setNextLink } from '../../http/paging'
import type { RateLimiter } from '../../http/rate-limit'
import { storedFileAnswer, uploadedFile } from '../../http/stored-files'
import { ifMatchVersion, setETag } from '../../http/versioning'
import { requireActor } from '../../access/actor'
import type { MarketService } from './market.service'

const r = itemRoutes({ tags: ['Market'], entity: Listing, name: 'listing', scope: 'listing' })
const WHO =
  'Members of the association read its market: its staff (every role) and its residents with a living agreement; the super admin reads all. ' +
  'Another association’s listing is 404.'

const list = r.page('/market', {
  summary: "A company's market listings, newest first: the caller's own, and others' that have not expired",
  description: `${WHO} ${PAGED}`,
  query: ListingListQuery,
})
const create = r.create('/market', {
  scope: { of: 'association', in: 'body', param: 'companyId', act: 'market:list' },
  summary: 'List something (a member of the association; a client-made `id` makes a retried create one listing). It expires in 30 days unless renewed.',
  body: CreateListingRequest,
})
const getOne = r.read('/market/{id}', { summary: 'A listing (an expired one only for its seller: 404 for others)', description: WHO })
const update = r.update('/market/{id}', {
  summary: "Change a listing's title, description, price (BUY only) or status (the seller only)",
  body: UpdateListingRequest,
})
const remove = r.remove('/market/{id}', { summary: 'Delete a listing: the seller, the association’s staff (moderation) or the super admin' })
const renew = r.route({
  rules: { access: 'signed-in', data: 'write', scope: { of: 'listing' } },
  method: 'post',
  path: '/market/{id}/renew',
  summary: 'Renew a listing: it expires 30 days from now (the seller only; 422 for a listing marked gone)',
  request: { params: IdParam, headers: versionedWriteHeaders },
  ok: { 200: r.one() },
  errors: [401, 403, 404, 409, 412, 422],
})
const photo = r.file('/market/{id}/photo', {
  summary: 'The listing’s photo, for those who read the listing (404 when it has none). `ETag` is the photo’s id.',
  what: 'The image',
})
const setPhoto = r.setFile('/market/{id}/photo', {
  size: 'attachment',
  summary:
    'Set or replace the photo (multipart field `file`; the seller only): PNG, JPEG, GIF or WebP, at most 5 MB, checked by content and by the virus-scanning hook',
})
const contact = r.route({
  rules: { access: 'signed-in', data: 'write', scope: { of: 'listing' } },
  method: 'post',
  path: '/market/{id}/contact',
  summary:
    'Write to the seller: they are told in-app and by e-mail, in their language, with the writer’s name, e-mail and text. Any member but the seller, about a listing that is neither gone nor expired (422); 10 per hour per user and 3 a day per listing',
  request: { params: IdParam, headers: writeHeaders, ...jsonBody(ContactSellerRequest) },
  ok: { 202: { description: 'Sent' } },
  errors: [400, 401, 404, 422, 429],
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
      const file = await uploadedFile(c, await c.req.parseBody(), m.documentFileRequired.id)
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
