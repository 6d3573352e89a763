import { z } from '@hono/zod-openapi'
import { route } from '../../http/route'
import { ChargeStatistics, StatisticsQuery } from '../../../shared/contract/statistics'
import { bearer, errorResponses as e, json, router } from '../../http/openapi'
import { requireActor } from '../../access/actor'
import type { StatisticsService } from './statistics.service'

const chargeStatistics = route({
  rules: { access: 'signed-in', data: 'read', scope: { of: 'company' } },
  method: 'get',
  path: '/company/{id}/charges-statistics',
  tags: ['Statistics'],
  security: bearer,
  summary:
    "What was actually withdrawn from members' bank accounts, per member address and charge category, in øre (company admin staff; another company answers 404). " +
    "Executed invoices add their lines, executed credit notes (refunds) subtract theirs, each on its payment date; the category is the line's agreement part type. " +
    'Addresses netting to 0 are left out. 422 BUSINESS_RULE for `heating-water` when the company has no period stored.',
  request: { params: z.object({ id: z.uuid() }), query: StatisticsQuery },
  responses: {
    200: { description: 'The statistics of the period', ...json(ChargeStatistics) },
    400: e[400],
    401: e[401],
    403: e[403],
    404: e[404],
    422: e[422],
  },
})

export const statisticsRoutes = (statistics: StatisticsService) =>
  router().openapi(
    chargeStatistics,
    // The service writes the JSON text itself (decision 0056), so it is sent as it is rather than
    // parsed into objects for `c.json` to serialise again; its bytes are the ones `c.json` sent.
    async (c) =>
      c.body(await statistics.chargeStatisticsJson(requireActor(c.var.actor), c.req.valid('param').id, c.req.valid('query')), 200, {
        'Content-Type': 'application/json',
      }) as never,
  )
