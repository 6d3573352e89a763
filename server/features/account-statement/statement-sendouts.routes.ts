import { z } from '@hono/zod-openapi'
import { route } from '../../http/route'
import { SendStatementsParams, StatementSendout } from '../../../shared/contract/account-statement'
import { bearer, errorResponses as e, json, router, writeHeaders } from '../../http/openapi'
import { requireActor } from '../../access/actor'
import type { StatementSendoutsService } from './statement-sendouts.service'

const tags = ['Account statements']
const WHO = "The association's chairman, administrator and accountant, and the super admin; a board member 403; another association 404."

const list = route({
  rules: { access: 'signed-in', data: 'read' },
  method: 'get',
  path: '/companies/{companyId}/account-statement-sendouts',
  tags,
  security: bearer,
  summary: 'The yearly account statements sent (or queued) to all members, newest year first',
  description: WHO,
  request: { params: z.object({ companyId: z.uuid() }) },
  responses: { 200: { description: 'The sendouts', ...json(z.array(StatementSendout)) }, 401: e[401], 403: e[403], 404: e[404] },
})

const send = route({
  rules: { access: 'signed-in', data: 'write' },
  method: 'post',
  path: '/companies/{companyId}/account-statement-sendouts/{year}',
  tags,
  security: bearer,
  summary:
    "Sends the year's account statement to every member (a notification and an e-mail in their language with a link to the printable statement). " +
    'Queued at once and sent within seconds by the `statements` job, once: a year already queued or sent answers 409 CONFLICT, so a double click or a retry sends nothing twice. ' +
    'A year not begun yet is 400.',
  description: WHO,
  request: { headers: writeHeaders, params: SendStatementsParams },
  responses: { 202: { description: 'Queued', ...json(StatementSendout) }, 400: e[400], 401: e[401], 403: e[403], 404: e[404], 409: e[409] },
})

export const statementSendoutsRoutes = (sendouts: StatementSendoutsService) =>
  router()
    .openapi(list, async (c) => c.json(await sendouts.list(requireActor(c.var.actor), c.req.valid('param').companyId), 200))
    .openapi(send, async (c) => {
      const p = c.req.valid('param')
      return c.json(await sendouts.send(requireActor(c.var.actor), p.companyId, p.year), 202)
    })
