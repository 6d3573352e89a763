import { companyAdminStaffRoles } from '../../../shared/domain/roles'
import {
  AddResidentRequest,
  Household,
  HouseholdListQuery,
  Move,
  MoveSettlement,
  RegisterMoveRequest,
  ResidentParams,
  SettlementQuery,
  UpdateHouseholdRequest,
  UpdateResidentRequest,
} from '../../../shared/contract/households'
import { IdParam, itemRoutes, PAGED } from '../../http/item-routes'
import { json, jsonBody, router, versionedWriteHeaders, writeHeaders } from '../../http/openapi'
import { setNextLink } from '../../http/paging'
import { ifMatchVersion, setETag } from '../../http/versioning'
import { requireActor } from '../../access/actor'
import type { HouseholdsService } from './households.service'

const r = itemRoutes({ tags: ['Households'], entity: Household, name: 'household', scope: 'household' })
const READERS =
  'The association’s staff (every role) and the super admin read its households; a resident reads the households they live in, with their current residents. Another association’s is 404.'
const WRITERS = 'The association’s chairman, administrator and accountant, and the super admin; other readers get 403 (docs/decisions/0090).'
const ADMIN = { of: 'household', roles: companyAdminStaffRoles } as const

const list = r.page('/households', {
  summary:
    "A company's households (its addresses with their figures and residents), by address; `search` looks in the address, the external number and the residents' names",
  description: `The association’s staff (every role) and the super admin; a resident gets 403, another association 404. ${PAGED}`,
  query: HouseholdListQuery,
  errors: [400, 401, 403, 404],
})
const getOne = r.read('/households/{id}', { summary: 'A household with its residents over time', description: READERS })
const update = r.route({
  rules: { access: 'signed-in', data: 'write', scope: ADMIN, syncs: ['household'] },
  method: 'patch',
  path: '/households/{id}',
  summary: "Change a household's type, area (m², decimal text), allocation figure (decimal text), co-op share (øre) or external number",
  description: WRITERS,
  request: { params: IdParam, headers: versionedWriteHeaders, ...jsonBody(UpdateHouseholdRequest) },
  ok: { 200: r.one() },
  errors: [400, 401, 403, 404, 409, 412, 422],
})
const addResident = r.route({
  rules: { access: 'signed-in', data: 'write', scope: ADMIN, syncs: ['household'] },
  method: 'post',
  path: '/households/{id}/residents',
  summary:
    'Add a resident: a person of the association by `userId`, or anyone by name and e-mail (invited when new); a client-made `id` makes a retry one resident',
  description: WRITERS,
  request: { params: IdParam, headers: writeHeaders, ...jsonBody(AddResidentRequest) },
  ok: { 201: r.one('The household with its residents') },
  errors: [400, 401, 403, 404, 409, 422],
})
const updateResident = r.route({
  rules: { access: 'signed-in', data: 'write', scope: ADMIN, syncs: ['household'] },
  method: 'patch',
  path: '/households/{id}/residents/{residentId}',
  summary: "Change a resident's move-in or move-out date, owner or tenant, or whether they are the payer",
  description: WRITERS,
  request: { params: ResidentParams, headers: writeHeaders, ...jsonBody(UpdateResidentRequest) },
  ok: { 200: r.one('The household with its residents') },
  errors: [400, 401, 403, 404, 422],
})
const settlement = r.route({
  rules: { access: 'signed-in', data: 'read', scope: ADMIN },
  method: 'get',
  path: '/households/{id}/settlement',
  summary: 'The final settlement a move on `date` would make for the leaving payer\'s agreement (docs/DOMAIN.md "Moves and the final settlement"), øre',
  description: WRITERS,
  request: { params: IdParam, query: SettlementQuery },
  ok: { 200: { description: 'The settlement', ...json(MoveSettlement) } },
  errors: [400, 401, 403, 404],
})
const move = r.route({
  rules: { access: 'signed-in', data: 'write', scope: ADMIN, syncs: ['household', 'agreement', 'charge', 'invoice'] },
  method: 'post',
  path: '/households/{id}/moves',
  summary:
    "Register a move: the leaving residents move out on `moveDate`, the leaving payer's agreement ends then with its final settlement (a last payment, refunds of days paid ahead), and the people moving in become residents — the payer among them with a new agreement from that date with the household's parts. One action: a client-made `id` (and the Idempotency-Key) makes a retry one move.",
  description: WRITERS,
  request: { params: IdParam, headers: writeHeaders, ...jsonBody(RegisterMoveRequest) },
  ok: { 201: { description: 'The move, its settlement and the household now', ...json(Move) } },
  errors: [400, 401, 403, 404, 409, 422],
})

export const householdsRoutes = (households: HouseholdsService) =>
  router()
    .openapi(list, async (c) => {
      const page = await households.list(requireActor(c.var.actor), c.req.valid('query'))
      setNextLink(c, page.next)
      return c.json(page.items, 200)
    })
    .openapi(getOne, async (c) => {
      const h = await households.get(requireActor(c.var.actor), c.req.valid('param').id)
      setETag(c, h.version)
      return c.json(h, 200)
    })
    .openapi(update, async (c) => {
      const h = await households.update(requireActor(c.var.actor), c.req.valid('param').id, c.req.valid('json'), ifMatchVersion(c))
      setETag(c, h.version)
      return c.json(h, 200)
    })
    .openapi(addResident, async (c) => {
      const h = await households.addResident(requireActor(c.var.actor), c.req.valid('param').id, c.req.valid('json'))
      setETag(c, h.version)
      return c.json(h, 201)
    })
    .openapi(updateResident, async (c) => {
      const { id, residentId } = c.req.valid('param')
      const h = await households.updateResident(requireActor(c.var.actor), id, residentId, c.req.valid('json'))
      setETag(c, h.version)
      return c.json(h, 200)
    })
    .openapi(settlement, async (c) => {
      return c.json(await households.preview(requireActor(c.var.actor), c.req.valid('param').id, c.req.valid('query').date), 200)
    })
    .openapi(move, async (c) => {
      return c.json(await households.registerMove(requireActor(c.var.actor), c.req.valid('param').id, c.req.valid('json')), 201)
    })
