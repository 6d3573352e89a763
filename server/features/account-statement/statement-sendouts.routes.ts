import { z } from '@hono/zod-openapi'
import { route } from '../../http/route'
import { ResendStatementsBody, ResendStatementsParams, SendStatementsParams, StatementSendout } from '../../../shared/contract/account-statement'
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
  summary:
    'The account statements sent (or queued) to all members, newest year first: yearly and interim ones, each with how many it was for and how many it did not reach ' +
    '(no e-mail address, or the mail failed), resends counted',
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
    "Sends the year's yearly account statement to every member (a notification and an e-mail in their language with a link to the printable statement), once the year has ended (Copenhagen; decision 0081). " +
    'Queued at once and sent within seconds by the `statements` job, once: a year already queued or sent answers 409 CONFLICT, so a double click or a retry sends nothing twice. ' +
    'A year still running answers 422 BUSINESS_RULE, saying from when it can be sent and offering the interim statement; a year not begun yet is 400.',
  description: WHO,
  request: { headers: writeHeaders, params: SendStatementsParams },
  responses: { 202: { description: 'Queued', ...json(StatementSendout) }, 400: e[400], 401: e[401], 403: e[403], 404: e[404], 409: e[409], 422: e[422] },
})

const interim = route({
  rules: { access: 'signed-in', data: 'write' },
  method: 'post',
  path: '/companies/{companyId}/account-statement-sendouts/{year}/interim',
  tags,
  security: bearer,
  summary:
    "Sends an interim statement of the running year, 1 January to today (Copenhagen), to every member, marked as such in the mail and on the statement (decision 0081). It leaves the year's yearly statement unsent. " +
    'At most one a day: a second the same day answers 409; once the year has ended 422 (send the yearly statement); a year not begun yet 400.',
  description: WHO,
  request: { headers: writeHeaders, params: SendStatementsParams },
  responses: { 202: { description: 'Queued', ...json(StatementSendout) }, 400: e[400], 401: e[401], 403: e[403], 404: e[404], 409: e[409], 422: e[422] },
})

const resend = route({
  rules: { access: 'signed-in', data: 'write' },
  method: 'post',
  path: '/companies/{companyId}/account-statement-sendouts/{sendoutId}/resend',
  tags,
  security: bearer,
  summary:
    'Resends a sent statement (yearly or interim, the same period) to one of its members (`userId`: one who lost it or changed address) or to those it did not reach ' +
    '(no address then, or the mail failed) who have an address now (decision 0081). Queued for the `statements` job. ' +
    'Nobody is resent to twice: a member with a resend on its way answers 409 (and so does nobody left to reach), and a retry with the same Idempotency-Key is answered from its record. ' +
    'A sendout still going out is 409; a member not among its recipients, or a sendout of another association, 404; a member without an address 422.',
  description: WHO,
  request: { headers: writeHeaders, params: ResendStatementsParams, body: { ...json(ResendStatementsBody), required: false } },
  responses: { 202: { description: 'Queued', ...json(StatementSendout) }, 400: e[400], 401: e[401], 403: e[403], 404: e[404], 409: e[409], 422: e[422] },
})

export const statementSendoutsRoutes = (sendouts: StatementSendoutsService) =>
  router()
    .openapi(list, async (c) => c.json(await sendouts.list(requireActor(c.var.actor), c.req.valid('param').companyId), 200))
    .openapi(send, async (c) => {
      const p = c.req.valid('param')
      return c.json(await sendouts.send(requireActor(c.var.actor), p.companyId, p.year), 202)
    })
    .openapi(interim, async (c) => {
      const p = c.req.valid('param')
      return c.json(await sendouts.sendInterim(requireActor(c.var.actor), p.companyId, p.year), 202)
    })
    .openapi(resend, async (c) => {
      const p = c.req.valid('param')
      const body = (c.req.valid('json') as ResendStatementsBody | undefined) ?? {}
      return c.json(await sendouts.resend(requireActor(c.var.actor), p.companyId, p.sendoutId, body.userId), 202)
    })
