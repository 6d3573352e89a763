import { z } from '@hono/zod-openapi'
import { route } from '../../http/route'
import { AccountStatementResponse, MemberStatementQuery, OwnStatementQuery } from '../../../shared/contract/account-statement'
import { bearer, errorResponses as e, json, router } from '../../http/openapi'
import { requireActor } from '../../access/actor'
import type { AccountStatementService } from './account-statement.service'

const tags = ['Account statements']
const ROWS =
  'Every invoice (debit), payment (credit), failed charge (0, with its reason when known), credit note (credit), refund paid out (debit), ' +
  'write-off (credit) and payment outside Vipps MobilePay (credit) of the year in date order, each with the running balance in øre ' +
  '(above 0 the member owes, below 0 in their favour); the balance before 1 January is the first row (OPENING_BALANCE). ' +
  'Only vouchers dated in the period count (decision 0081). A year not ended yet, or `through` (a day of the year), gives an interim statement ' +
  '(`interim`: 1 January to `to`, today at the latest while the year runs).'

const own = route({
  rules: { access: 'signed-in', data: 'read' },
  method: 'get',
  path: '/account-statement',
  tags,
  security: bearer,
  summary: "The caller's own account statement (kontokort) in an association for a calendar year",
  description: `${ROWS} An association the caller has no account with (and is not staff of) answers 404.`,
  request: { query: OwnStatementQuery },
  responses: { 200: { description: 'The statement', ...json(AccountStatementResponse) }, 400: e[400], 401: e[401], 404: e[404] },
})

const ofMember = route({
  rules: { access: 'signed-in', data: 'read' },
  method: 'get',
  path: '/companies/{companyId}/members/{userId}/account-statement',
  tags,
  security: bearer,
  summary: "A member's account statement for the association's staff (every role) and the super admin",
  description: `${ROWS} Another association, or a person without an account (no agreement, no invoice) in this one, answers 404.`,
  request: { params: z.object({ companyId: z.uuid(), userId: z.uuid() }), query: MemberStatementQuery },
  responses: { 200: { description: 'The statement', ...json(AccountStatementResponse) }, 400: e[400], 401: e[401], 404: e[404] },
})

export const accountStatementRoutes = (statements: AccountStatementService) =>
  router()
    .openapi(own, async (c) => {
      const q = c.req.valid('query')
      return c.json(await statements.own(requireActor(c.var.actor), q.companyId, q.year, q.through), 200)
    })
    .openapi(ofMember, async (c) => {
      const p = c.req.valid('param')
      const q = c.req.valid('query')
      return c.json(await statements.ofMember(requireActor(c.var.actor), p.companyId, p.userId, q.year, q.through), 200)
    })
