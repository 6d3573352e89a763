import { route } from '../../http/route'
import { SyncQuery, SyncResponse } from '../../../shared/contract/sync'
import { bearer, errorResponses as e, json, router } from '../../http/openapi'
import { nextLinkHeader, setNextLink } from '../../http/paging'
import { requireActor } from '../../access/actor'
import type { SyncService } from './sync.service'

const pull = route({
  rules: { access: 'signed-in', data: 'read' },
  method: 'get',
  path: '/sync',
  tags: ['Sync'],
  security: bearer,
  summary:
    'Changes the caller may see, oldest first. Start without a cursor; follow `cursor` while `hasMore` (the same next page is in the `Link` header, so a client may ask for it before reading the body); on `reset` drop the local copy and apply the changes as a fresh copy',
  request: { query: SyncQuery },
  responses: { 200: { description: 'A page of changes', headers: nextLinkHeader, ...json(SyncResponse) }, 400: e[400], 401: e[401] },
})

export const syncRoutes = (sync: SyncService) =>
  router().openapi(pull, async (c) => {
    const { cursor, limit } = c.req.valid('query')
    const page = await sync.pull(requireActor(c.var.actor), cursor, limit)
    setNextLink(c, page.hasMore ? page.cursor : null)
    return c.json(page, 200)
  })
