import { CreateSpecialistRequest, Specialist, SpecialistListQuery, UpdateSpecialistRequest } from '../../../shared/contract/specialists'
import { itemRoutes, PAGED } from '../../http/item-routes'
import { router } from '../../http/openapi'
import { setNextLink } from '../../http/paging'
import { ifMatchVersion, setETag } from '../../http/versioning'
import { requireActor } from '../../access/actor'
import type { SpecialistsService } from './specialists.service'

const r = itemRoutes({ tags: ['Specialists'], entity: Specialist, name: 'specialist', scope: 'specialist' })
const WHO =
  'Members of the association read its specialists: its staff (every role) and its residents with a living agreement; the super admin reads all. Another association’s is 404.'
const WRITERS = 'The association’s staff (every role) and the super admin; a member who reads it gets 403.'

const list = r.page('/specialists', { summary: "A company's specialists by kind, then name", description: `${WHO} ${PAGED}`, query: SpecialistListQuery })
const create = r.create('/specialists', {
  scope: { of: 'association', in: 'body', param: 'companyId', act: 'specialists:write' },
  summary: 'Add a specialist (a client-made `id` makes a retried create one row)',
  description: WRITERS,
  body: CreateSpecialistRequest,
})
const getOne = r.read('/specialists/{id}', { summary: 'A specialist', description: WHO })
const update = r.update('/specialists/{id}', {
  summary: "Change a specialist's kind, name, contact details or notes (an empty text clears an optional field)",
  description: WRITERS,
  body: UpdateSpecialistRequest,
})
const remove = r.remove('/specialists/{id}', { summary: 'Remove a specialist', description: WRITERS })

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
