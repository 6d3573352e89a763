import { z } from '@hono/zod-openapi'
import { route } from '../../http/route'
import { CreateProviderRequest, PaymentProvider, TestConnectionResponse, UpdateProviderRequest } from '../../../shared/contract/payment-providers'
import { bearer, errorResponses as e, json, jsonBody, router, versionedWriteHeaders, writeHeaders } from '../../http/openapi'
import { ifMatchVersion, setETag } from '../../http/versioning'
import { requireActor } from '../../access/actor'
import type { RouteScope } from '../../access/scope'
import type { ProvidersService } from './providers.service'

const tags = ['Payment providers']
const CompanyParam = z.object({ id: z.uuid() })
const ProviderParam = CompanyParam.extend({ providerId: z.uuid() })
/** Providers are the platform's to manage: the company's staff read them and hear 403 for a change, before the body; anyone else 404. */
const manage: RouteScope = { of: 'company', act: 'providers:manage' }
const one = { description: 'The provider (secrets masked; ETag: its version)', ...json(PaymentProvider) }

const list = route({
  rules: { access: 'signed-in', data: 'read', scope: { of: 'company' } },
  method: 'get',
  path: '/company/{id}/payment-providers',
  tags,
  security: bearer,
  summary: 'Providers of the company (secrets masked); company staff and the super admin may read them',
  request: { params: CompanyParam },
  responses: { 200: { description: 'Providers', ...json(z.array(PaymentProvider)) }, 401: e[401], 404: e[404] },
})
const create = route({
  rules: { access: 'signed-in', data: 'write', scope: manage },
  method: 'post',
  path: '/company/{id}/payment-providers',
  tags,
  security: bearer,
  summary: 'Add a Vipps MobilePay provider (super admin); isTest defaults to true; secrets are stored encrypted',
  request: { params: CompanyParam, headers: writeHeaders, ...jsonBody(CreateProviderRequest) },
  responses: { 201: one, 400: e[400], 401: e[401], 403: e[403], 404: e[404], 409: e[409] },
})
const getOne = route({
  rules: { access: 'signed-in', data: 'read', scope: { of: 'company' } },
  method: 'get',
  path: '/company/{id}/payment-providers/{providerId}',
  tags,
  security: bearer,
  summary: 'One provider with its webhooks (secrets masked)',
  request: { params: ProviderParam },
  responses: { 200: one, 401: e[401], 404: e[404] },
})
const update = route({
  rules: { access: 'signed-in', data: 'write', scope: manage },
  method: 'patch',
  path: '/company/{id}/payment-providers/{providerId}',
  tags,
  security: bearer,
  summary: 'Change config, isTest or isActive (super admin). A secret sent masked or empty keeps the stored one.',
  request: { params: ProviderParam, headers: versionedWriteHeaders, ...jsonBody(UpdateProviderRequest) },
  responses: { 200: one, 400: e[400], 401: e[401], 403: e[403], 404: e[404], 409: e[409], 412: e[412] },
})
const toggle = route({
  rules: { access: 'signed-in', data: 'write', scope: manage },
  method: 'patch',
  path: '/company/{id}/payment-providers/{providerId}/toggle-active',
  tags,
  security: bearer,
  summary: 'Switch the provider between active and inactive (super admin)',
  request: { params: ProviderParam, headers: versionedWriteHeaders },
  responses: { 200: one, 401: e[401], 403: e[403], 404: e[404], 409: e[409], 412: e[412] },
})
const testConnection = route({
  rules: { access: 'signed-in', data: 'own-steps', calls: 'vipps', scope: manage },
  method: 'post',
  path: '/company/{id}/payment-providers/{providerId}/test-connection',
  tags,
  security: bearer,
  summary: 'Fetch a Vipps access token with the stored credentials (super admin); 422 when Vipps refuses them, 503 when unreachable',
  request: { params: ProviderParam, headers: writeHeaders },
  responses: {
    200: { description: 'Vipps accepted the credentials', ...json(TestConnectionResponse) },
    401: e[401],
    403: e[403],
    404: e[404],
    409: e[409],
    422: e[422],
    503: { description: 'Vipps could not be reached (`PROVIDER_UNAVAILABLE`)', ...json(z.object({ message: z.string(), code: z.string() })) },
  },
})

export const providersRoutes = (providers: ProvidersService) =>
  router()
    .openapi(list, async (c) => c.json(await providers.list(requireActor(c.var.actor), c.req.valid('param').id), 200))
    .openapi(create, async (c) => {
      const p = await providers.create(requireActor(c.var.actor), c.req.valid('param').id, c.req.valid('json'))
      setETag(c, p.version)
      return c.json(p, 201)
    })
    .openapi(getOne, async (c) => {
      const { id, providerId } = c.req.valid('param')
      const p = await providers.get(requireActor(c.var.actor), id, providerId)
      setETag(c, p.version)
      return c.json(p, 200)
    })
    .openapi(update, async (c) => {
      const { id, providerId } = c.req.valid('param')
      const p = await providers.update(requireActor(c.var.actor), id, providerId, c.req.valid('json'), ifMatchVersion(c))
      setETag(c, p.version)
      return c.json(p, 200)
    })
    .openapi(toggle, async (c) => {
      const { id, providerId } = c.req.valid('param')
      const p = await providers.toggleActive(requireActor(c.var.actor), id, providerId, ifMatchVersion(c))
      setETag(c, p.version)
      return c.json(p, 200)
    })
    .openapi(testConnection, async (c) => {
      const { id, providerId } = c.req.valid('param')
      return c.json(await providers.testConnection(requireActor(c.var.actor), id, providerId), 200)
    })
