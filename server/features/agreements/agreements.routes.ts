import { z } from '@hono/zod-openapi'
import { route } from '../../http/route'
import {
  AcceptAgreementResponse,
  Agreement,
  AgreementListQuery,
  CancelAgreementRequest,
  Charge,
  CreateAgreementRequest,
  UpdateAgreementRequest,
} from '../../../shared/contract/agreements'
import { PageQuery } from '../../../shared/contract/paging'
import { bearer, errorResponses as e, json, jsonBody, router, versionedWriteHeaders, writeHeaders } from '../../http/openapi'
import { nextLinkHeader, setNextLink } from '../../http/paging'
import { ifMatchVersion, setETag } from '../../http/versioning'
import { ErrorBody } from '../../../shared/contract/common'
import { requireActor } from '../../access/actor'
import type { AgreementsService } from './agreements.service'
import { companyAdminStaffRoles } from '../../../shared/domain/roles'

const tags = ['Agreements']
const IdParam = z.object({ id: z.uuid() })
const one = (description: string) => ({ description: `${description} (ETag: its version)`, ...json(Agreement) })
const unavailable = { description: 'Vipps MobilePay could not be reached (`PROVIDER_UNAVAILABLE`); nothing changed, try again', ...json(ErrorBody) }

const list = route({
  rules: { access: 'signed-in', data: 'read' },
  method: 'get',
  path: '/agreement',
  tags,
  security: bearer,
  summary:
    "Agreements the caller may see: staff get their companies' agreements, everyone their own; filter by companyId (404 for a company the caller has nothing to do with), status and search",
  description:
    'A page of at most `limit` (1–200, default 200) agreements, sorted by company, external id and id. ' +
    'The next page is in the `Link: <…&cursor=…>; rel="next"` header, absent on the last page; a cursor that is not one of ours is 400 `VALIDATION_FAILED` on `cursor`.',
  request: { query: AgreementListQuery },
  responses: {
    200: { description: 'A page of agreements by company and external id', headers: nextLinkHeader, ...json(z.array(Agreement)) },
    400: e[400],
    401: e[401],
    404: e[404],
  },
})
const create = route({
  // Its admin staff create agreements; a board member hears 403 before the body, anyone else (its residents too) 404.
  rules: { access: 'signed-in', data: 'write', scope: { of: 'company', in: 'body', param: 'companyId', roles: companyAdminStaffRoles } },
  method: 'post',
  path: '/agreement',
  tags,
  security: bearer,
  summary:
    'Create an agreement (company admin staff — administrator, accountant, chairman — or the super admin; a board member 403). The member is found or invited by e-mail and asked to accept; for someone the caller does not know the answer shows what the caller typed. price = sum of the parts (øre). A client-made `id` makes an offline create safe to repeat.',
  request: { headers: writeHeaders, ...jsonBody(CreateAgreementRequest) },
  responses: { 201: one('Created in status CREATED'), 400: e[400], 401: e[401], 403: e[403], 404: e[404], 409: e[409] },
})
const getOne = route({
  rules: { access: 'signed-in', data: 'read', scope: { of: 'agreement' } },
  method: 'get',
  path: '/agreement/{id}',
  tags,
  security: bearer,
  summary: 'An agreement with member, addresses and parts (staff of its company, or its member)',
  request: { params: IdParam },
  responses: { 200: one('The agreement'), 401: e[401], 404: e[404] },
})
const update = route({
  rules: { access: 'signed-in', data: 'write', scope: { of: 'agreement', roles: companyAdminStaffRoles } },
  method: 'patch',
  path: '/agreement/{id}',
  tags,
  security: bearer,
  summary:
    'Change next payment date, payment period and parts (company admin staff; CREATED or ACCEPTED and not terminating, else 409 INVALID_STATE). A new price of an ACCEPTED agreement is sent to Vipps.',
  request: { params: IdParam, headers: versionedWriteHeaders, ...jsonBody(UpdateAgreementRequest) },
  responses: { 200: one('The changed agreement'), 400: e[400], 401: e[401], 403: e[403], 404: e[404], 409: e[409], 412: e[412] },
})
const charges = route({
  rules: { access: 'signed-in', data: 'read', scope: { of: 'agreement' } },
  method: 'get',
  path: '/agreement/{id}/charges',
  tags,
  security: bearer,
  summary: 'Charges of the agreement, by due date, with their Vipps history',
  description:
    'A page of at most `limit` (1–200, default 200) charges, by due date, creation and id. ' +
    'The next page is in the `Link: <…?cursor=…>; rel="next"` header, absent on the last page; a cursor that is not one of ours is 400 `VALIDATION_FAILED` on `cursor`.',
  request: { params: IdParam, query: PageQuery },
  responses: {
    200: { description: 'A page of charges by due date', headers: nextLinkHeader, ...json(z.array(Charge)) },
    400: e[400],
    401: e[401],
    404: e[404],
  },
})
const accept = (method: 'get' | 'post') =>
  route({
    rules: { access: 'signed-in', data: 'own-steps', calls: 'vipps', scope: { of: 'agreement' } },
    method,
    path: '/agreement/{id}/accept',
    tags,
    security: bearer,
    summary:
      'The member accepts a CREATED agreement: the Vipps agreement is created and the status becomes PENDING; send the browser to `confirmationUrl`. ' +
      'Accepting a PENDING agreement again answers the same URL. Vipps then moves it to ACCEPTED, REJECTED or EXPIRED.' +
      (method === 'get' ? ' The GET form stays for compatibility; clients use POST.' : ''),
    request: method === 'post' ? { params: IdParam, headers: writeHeaders } : { params: IdParam },
    responses: {
      200: { description: 'Where to approve it', ...json(AcceptAgreementResponse) },
      401: e[401],
      403: e[403],
      404: e[404],
      409: e[409],
      422: e[422],
      503: unavailable,
    },
  })
const reject = (method: 'get' | 'post') =>
  route({
    rules: { access: 'signed-in', data: 'write', scope: { of: 'agreement' } },
    method,
    path: '/agreement/{id}/reject',
    tags,
    security: bearer,
    summary: 'The member rejects a CREATED agreement (status REJECTED).' + (method === 'get' ? ' The GET form stays for compatibility; clients use POST.' : ''),
    request: method === 'post' ? { params: IdParam, headers: writeHeaders } : { params: IdParam },
    responses: { 200: one('The rejected agreement'), 401: e[401], 403: e[403], 404: e[404], 409: e[409] },
  })
const cancel = route({
  rules: { access: 'signed-in', data: 'write', scope: { of: 'agreement', roles: companyAdminStaffRoles } },
  method: 'post',
  path: '/agreement/{id}/cancel',
  tags,
  security: bearer,
  summary:
    'Terminate (company admin staff; not when CANCELED, CLOSED or already terminating). terminationDate today or later. Without a final payment the agreement is CANCELED and stopped at Vipps; ' +
    'with `finalPaymentRequired` (ACCEPTED only, date at least 4 days ahead) a FINAL charge is due 3 days before the date, and the agreement is stopped and CANCELED once it settles. ' +
    "The last payment takes the place of the last period's regular charge: its full price when the date ends that period, else its share of days up to the date; 400 when everything up to the date is already charged.",
  request: { params: IdParam, headers: writeHeaders, ...jsonBody(CancelAgreementRequest) },
  responses: { 200: one('The terminating or canceled agreement'), 400: e[400], 401: e[401], 403: e[403], 404: e[404], 409: e[409] },
})

export const agreementsRoutes = (agreements: AgreementsService) => {
  const r = router()
    .openapi(list, async (c) => {
      const page = await agreements.list(requireActor(c.var.actor), c.req.valid('query'))
      setNextLink(c, page.next)
      return c.json(page.items, 200)
    })
    .openapi(create, async (c) => {
      const agreement = await agreements.create(requireActor(c.var.actor), c.req.valid('json'))
      setETag(c, agreement.version)
      return c.json(agreement, 201)
    })
    .openapi(getOne, async (c) => {
      const agreement = await agreements.get(requireActor(c.var.actor), c.req.valid('param').id)
      setETag(c, agreement.version)
      return c.json(agreement, 200)
    })
    .openapi(update, async (c) => {
      const agreement = await agreements.update(requireActor(c.var.actor), c.req.valid('param').id, c.req.valid('json'), ifMatchVersion(c))
      setETag(c, agreement.version)
      return c.json(agreement, 200)
    })
    .openapi(charges, async (c) => {
      const page = await agreements.charges(requireActor(c.var.actor), c.req.valid('param').id, c.req.valid('query'))
      setNextLink(c, page.next)
      return c.json(page.items, 200)
    })
    .openapi(cancel, async (c) => {
      const agreement = await agreements.cancel(requireActor(c.var.actor), c.req.valid('param').id, c.req.valid('json'))
      setETag(c, agreement.version)
      return c.json(agreement, 200)
    })
  for (const method of ['get', 'post'] as const) {
    r.openapi(accept(method), async (c) => c.json(await agreements.accept(requireActor(c.var.actor), c.req.valid('param').id), 200))
    r.openapi(reject(method), async (c) => {
      const agreement = await agreements.reject(requireActor(c.var.actor), c.req.valid('param').id)
      setETag(c, agreement.version)
      return c.json(agreement, 200)
    })
  }
  return r
}
