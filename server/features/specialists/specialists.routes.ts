import { createRoute, z } from '@hono/zod-openapi'
import { CreateSpecialistRequest, Specialist, SpecialistListQuery, UpdateSpecialistRequest } from '../../../shared/contract/specialists'
import { bearer, errorResponses as e, json, jsonBody, router, versionedWriteHeaders, writeHeaders } from '../../http/openapi'
import { nextLinkHeader, setNextLink } from '../../http/paging'
import { ifMatchVersion, setETag } from '../../http/versioning'
import { requireActor } from '../access/actor'
import type { SpecialistsService } from './specialists.service'

const tags = ['Specialists']
const IdParam = z.object({ id: z.uuid() })
const one = (description: string) => ({ description: `${description} (ETag: its version)`, ...json(Specialist) })
const WHO =
  'Members of the association read its specialists: its staff (every role) and its residents with a living agreement; the super admin reads all. Another association’s is 404.'
const WRITERS = 'The association’s staff (every role) and the super admin; a member who reads it gets 403.'

const list = createRoute({
  method: 'get',
  path: '/specialists',
  tags,
  security: bearer,
  summary: "A company's specialists by kind, then name",
  description: `${WHO} A page of at most \`limit\` (1–200, default 200); the next page is in the \`Link\` header.`,
  request: { query: SpecialistListQuery },
  responses: { 200: { description: 'A page of specialists', headers: nextLinkHeader, ...json(z.array(Specialist)) }, 400: e[400], 401: e[401], 404: e[404] },
})
const create = createRoute({
  method: 'post',
  path: '/specialists',
  tags,
  security: bearer,
  summary: 'Add a specialist (a client-made `id` makes a retried create one row)',
  description: WRITERS,
  request: { headers: writeHeaders, ...jsonBody(CreateSpecialistRequest) },
  responses: { 201: one('The specialist'), 400: e[400], 401: e[401], 403: e[403], 404: e[404], 409: e[409], 422: e[422] },
})
const getOne = createRoute({
  method: 'get',
  path: '/specialists/{id}',
  tags,
  security: bearer,
  summary: 'A specialist',
  description: WHO,
  request: { params: IdParam },
  responses: { 200: one('The specialist'), 401: e[401], 404: e[404] },
})
const update = createRoute({
  method: 'patch',
  path: '/specialists/{id}',
  tags,
  security: bearer,
  summary: "Change a specialist's kind, name, contact details or notes (an empty text clears an optional field)",
  description: WRITERS,
  request: { params: IdParam, headers: versionedWriteHeaders, ...jsonBody(UpdateSpecialistRequest) },
  responses: { 200: one('The specialist'), 400: e[400], 401: e[401], 403: e[403], 404: e[404], 409: e[409], 412: e[412], 422: e[422] },
})
const remove = createRoute({
  method: 'delete',
  path: '/specialists/{id}',
  tags,
  security: bearer,
  summary: 'Remove a specialist',
  description: WRITERS,
  request: { params: IdParam, headers: versionedWriteHeaders },
  responses: { 204: { description: 'Deleted' }, 401: e[401], 403: e[403], 404: e[404], 409: e[409], 412: e[412] },
})

export const specialistsRoutes = (specialists: SpecialistsService) =>
  router()
    .openapi(list, async (c) => {
      const page = await specialists.list(requireActor(c.var.actor), c.req.valid('query'))
      setNextLink(c, page.next)
      return c.json(page.items, 200)
    })
    .openapi(create, async (c) => {
      const s = await specialists.create(requireActor(c.var.actor), c.req.valid('json'))
      setETag(c, s.version)
      return c.json(s, 201)
    })
    .openapi(getOne, async (c) => {
      const s = await specialists.view(requireActor(c.var.actor), c.req.valid('param').id)
      setETag(c, s.version)
      return c.json(s, 200)
    })
    .openapi(update, async (c) => {
      const s = await specialists.update(requireActor(c.var.actor), c.req.valid('param').id, c.req.valid('json'), ifMatchVersion(c))
      setETag(c, s.version)
      return c.json(s, 200)
    })
    .openapi(remove, async (c) => {
      await specialists.remove(requireActor(c.var.actor), c.req.valid('param').id, ifMatchVersion(c))
      return c.body(null, 204)
    })
