import { z } from '@hono/zod-openapi'
import { route } from '../../http/route'
import { CreateLogRequest, LogEntry, LogQuery } from '../../../shared/contract/logger'
import { bearer, errorResponses as e, json, jsonBody, router, writeHeaders } from '../../http/openapi'
import type { RateLimiter } from '../../http/rate-limit'
import { requireActor } from '../../access/actor'
import type { LogsService } from './logs.service'

const tags = ['System logs']

const report = route({
  rules: { access: 'signed-in', data: 'write' },
  method: 'post',
  path: '/logger',
  tags,
  security: bearer,
  summary: 'Report a client error or warning (rate limited; message and context are capped)',
  request: { headers: writeHeaders, ...jsonBody(CreateLogRequest) },
  responses: { 204: { description: 'Recorded' }, 400: e[400], 401: e[401], 429: e[429] },
})
const list = route({
  rules: { access: 'super-admin', data: 'read' },
  method: 'get',
  path: '/logger',
  tags,
  security: bearer,
  summary: 'Log entries, newest first (super admin)',
  request: { query: LogQuery },
  responses: { 200: { description: 'A page of entries', ...json(z.array(LogEntry)) }, 401: e[401], 403: e[403] },
})

export const logsRoutes = (logs: LogsService, limiter: RateLimiter) =>
  router()
    .openapi(report, async (c) => {
      const actor = requireActor(c.var.actor)
      limiter.hit(`user:${actor.userId}`)
      await logs.report(actor, c.req.valid('json'))
      return c.body(null, 204)
    })
    .openapi(list, async (c) => {
      const { skip, take, search } = c.req.valid('query')
      return c.json(await logs.list(requireActor(c.var.actor), skip, take, search), 200)
    })
