import { z } from '@hono/zod-openapi'
import { route } from '../../http/route'
import { AddressSearchQuery, AddressSuggestion } from '../../../shared/contract/companies'
import { bearer, errorResponses as e, json, router } from '../../http/openapi'
import { requireActor } from '../../access/actor'
import type { AddressSearchService } from './address-search.service'

const search = route({
  rules: { access: 'signed-in', data: 'read' },
  method: 'get',
  path: '/address-search',
  tags: ['Company addresses'],
  security: bearer,
  summary: 'Danish address suggestions (company staff and super admin; at least 3 characters). Provider: ADDRESS_PROVIDER (builtin sample or dataforsyningen).',
  request: { query: AddressSearchQuery },
  responses: {
    200: { description: 'Suggestions, best first', ...json(z.array(AddressSuggestion)) },
    400: e[400],
    401: e[401],
    403: e[403],
    503: { description: 'The address provider could not be reached (`PROVIDER_UNAVAILABLE`)', ...json(z.object({ message: z.string(), code: z.string() })) },
  },
})

export const addressSearchRoutes = (addresses: AddressSearchService) =>
  router().openapi(search, async (c) => {
    const { q, limit } = c.req.valid('query')
    return c.json(await addresses.search(requireActor(c.var.actor), q, limit), 200)
  })
