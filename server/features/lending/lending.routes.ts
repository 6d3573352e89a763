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
import { IdParam, itemRoutes, PAGED } from '../../http/item-routes'
import { json, jsonBody, router, writeHeaders } from '../../http/openapi'
import { setNextLink } from '../../http/paging'
import type { RateLimiter } from '../../http/rate-limit'
import { storedFileAnswer, uploadedFile } from '../../http/stored-files'
import { ifMatchVersion, setETag } from '../../http/versioning'
import { requireActor } from '../../access/actor'
import type { LendingService } from './lending.service'
import type { LoansService } from './loans.service'

const r = itemRoutes({ tags: ['Lending'], entity: LendingItem, name: 'item', scope: 'lendingItem' })
const WHO =
  'Members of the association: its staff (every role) and its residents with a living agreement; the super admin reads all. ' +
  'Another association’s item is 404.'

const list = r.page('/lending', { summary: "A company's items to borrow, newest first", description: `${WHO} ${PAGED}`, query: LendingItemListQuery })
const create = r.create('/lending', {
  scope: { of: 'association', in: 'body', param: 'companyId', act: 'lending:lend', reads: ['lender'] },
  summary:
    'Lend something: a member lends their own; `lender: ASSOCIATION` lends the association’s (its chairman, administrator or accountant). A client-made `id` makes a retried create one item.',
  body: CreateLendingItemRequest,
})
const getOne = r.read('/lending/{id}', { summary: 'An item', description: WHO })
const update = r.update('/lending/{id}', {
  summary: "Change an item's title, description, rules, location or deposit (its lender only; a new deposit applies to later requests)",
  body: UpdateLendingItemRequest,
})
const remove = r.remove('/lending/{id}', {
  summary:
    'Delete an item (its lender, the association’s staff or the super admin) once none of its loans is open (422 otherwise); an item that has had loans is archived instead (kept for them, no longer listed or requestable)',
  errors: [401, 403, 404, 409, 412, 422],
})
const photo = r.file('/lending/{id}/photo', {
  summary: 'The item’s photo, for those who read the item (404 when it has none). `ETag` is the photo’s id.',
  what: 'The image',
})
const setPhoto = r.setFile('/lending/{id}/photo', {
  size: 'attachment',
  summary:
    'Set or replace the photo (multipart field `file`; the lender only): PNG, JPEG, GIF or WebP, at most 5 MB, checked by content and by the virus-scanning hook',
})
const itemLoans = r.page('/lending/{id}/loans', {
  summary: "An item's loans, newest first: its calendar and history. Members see who borrows it when; the contract only its parties and the staff.",
  params: IdParam,
  query: ItemLoansQuery,
  items: Loan,
  of: 'loans',
})
const requestLoan = r.route({
  rules: { access: 'signed-in', data: 'write', scope: { of: 'lendingItem', act: 'loan:request' } },
  method: 'post',
  path: '/lending/{id}/loans',
  summary:
    'Ask to borrow an item from one day to another (a member, not its lender). Dates that overlap an accepted, confirmed or handed-over loan are 409. A client-made `id` makes a retried request one loan.',
  request: { params: IdParam, headers: writeHeaders, ...jsonBody(LoanRequest) },
  ok: { 201: { description: 'The loan, REQUESTED (ETag: its version)', ...json(Loan) } },
  errors: [400, 401, 403, 404, 409, 422],
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
      const file = await uploadedFile(c, await c.req.parseBody(), m.documentFileRequired.id)
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
