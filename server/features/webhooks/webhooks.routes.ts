import { z } from '@hono/zod-openapi'
import { route } from '../../http/route'
import { RegisterWebhookRequest, Webhook, WebhookProviderSummary } from '../../../shared/contract/webhooks'
import { bearer, errorResponses as e, json, jsonBody, router, writeHeaders } from '../../http/openapi'
import { requireActor } from '../../access/actor'
import type { WebhooksService } from './webhooks.service'

const tags = ['Webhooks']
const ProviderParam = z.object({ providerId: z.uuid() })

const receive = route({
  rules: { access: 'public', data: 'write', unbatched: true },
  method: 'post',
  path: '/webhooks/vipps/{providerId}',
  tags,
  summary:
    'Receives a Vipps webhook (signed with HMAC-SHA256; a bad signature, body hash or date answers 401 and changes nothing, and so does an unknown provider id)',
  request: { params: ProviderParam },
  responses: { 202: { description: 'Accepted (also for a repeated delivery)' }, 400: e[400], 401: e[401] },
})
const providers = route({
  rules: { access: 'signed-in', data: 'read' },
  method: 'get',
  path: '/webhook/providers',
  tags,
  security: bearer,
  summary: 'Payment providers whose webhooks the caller manages (super admin)',
  responses: { 200: { description: 'Providers', ...json(z.array(WebhookProviderSummary)) }, 401: e[401], 403: e[403] },
})
const list = route({
  rules: { access: 'signed-in', data: 'read', scope: { of: 'webhookProvider', param: 'providerId' } },
  method: 'get',
  path: '/webhook/{providerId}',
  tags,
  security: bearer,
  summary: 'Webhooks registered at Vipps for a provider',
  request: { params: ProviderParam },
  responses: { 200: { description: 'Webhooks', ...json(z.array(Webhook)) }, 401: e[401], 403: e[403], 404: e[404] },
})
const register = route({
  rules: { access: 'signed-in', data: 'own-steps', calls: 'vipps', scope: { of: 'webhookProvider', param: 'providerId' } },
  method: 'post',
  path: '/webhook/register/{providerId}',
  tags,
  security: bearer,
  summary: 'Register a webhook URL for events at Vipps (not while the provider is inactive)',
  request: { params: ProviderParam, headers: writeHeaders, ...jsonBody(RegisterWebhookRequest) },
  responses: {
    201: { description: 'Registered', ...json(Webhook) },
    400: e[400],
    401: e[401],
    403: e[403],
    404: e[404],
    409: e[409],
    422: e[422],
    503: { description: 'Vipps could not be reached', ...json(z.object({ message: z.string(), code: z.string() })) },
  },
})
const remove = route({
  rules: { access: 'signed-in', data: 'own-steps', calls: 'vipps', scope: { of: 'webhookProvider', param: 'providerId' } },
  method: 'delete',
  path: '/webhook/{providerId}',
  tags,
  security: bearer,
  summary: 'Delete a webhook at Vipps and here',
  request: { params: ProviderParam, query: z.object({ hookId: z.uuid() }), headers: writeHeaders },
  responses: { 204: { description: 'Deleted' }, 401: e[401], 403: e[403], 404: e[404], 409: e[409], 503: { description: 'Vipps could not be reached' } },
})

export const webhooksRoutes = (webhooks: WebhooksService) =>
  router()
    .openapi(receive, async (c) => {
      const url = new URL(c.req.url)
      await webhooks.receive(c.req.valid('param').providerId, {
        body: await c.req.text(),
        pathAndQuery: url.pathname + url.search,
        host: c.req.header('Host') ?? url.host,
        headers: { date: c.req.header('x-ms-date'), contentSha: c.req.header('x-ms-content-sha256'), authorization: c.req.header('Authorization') },
      })
      return c.body(null, 202)
    })
    .openapi(providers, async (c) => c.json(await webhooks.providerSummaries(requireActor(c.var.actor)), 200))
    .openapi(list, async (c) => c.json(await webhooks.list(requireActor(c.var.actor), c.req.valid('param').providerId), 200))
    .openapi(register, async (c) => c.json(await webhooks.register(requireActor(c.var.actor), c.req.valid('param').providerId, c.req.valid('json')), 201))
    .openapi(remove, async (c) => {
      await webhooks.remove(requireActor(c.var.actor), c.req.valid('param').providerId, c.req.valid('query').hookId)
      return c.body(null, 204)
    })
