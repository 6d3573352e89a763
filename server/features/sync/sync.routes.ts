import { createRoute } from '@hono/zod-openapi'
import { SyncQuery, SyncResponse } from '../../../shared/contract/sync'
import { bearer, errorResponses as e, json, router } from '../../http/openapi'
import { requireActor } from '../access/actor'
import type { SyncService } from './sync.service'

const pull = createRoute({
  method: 'get',
  path: '/sync',
  tags: ['Sync'],
  security: bearer,
  summary:
    'Changes the caller may see, oldest first. Start without a cursor; follow `cursor` while `hasMore`; on `reset` drop the local copy and apply the changes as a fresh copy',
  request: { query: SyncQuery },
  responses: { 200: { description: 'A page of changes', ...json(SyncResponse) }, 400: e[400], 401: e[401] },
})

export const syncRoutes = (sync: SyncService) =>
  router().openapi(pull, (c) => {
    const { cursor, limit } = c.req.valid('query')
    return c.json(sync.pull(requireActor(c.var.actor), cursor, limit), 200)
  })
