import { z } from '@hono/zod-openapi'
import { route } from '../../http/route'
import {
  ErasureRequest,
  ErasureRequestList,
  FileErasureRequest,
  MyErasureRequests,
  PersonalDataExport,
  RecordErasureRequest,
  RejectErasureRequest,
} from '../../../shared/contract/personal-data'
import { bearer, errorResponses as e, json, jsonBody, router, writeHeaders } from '../../http/openapi'
import type { RateLimiter } from '../../http/rate-limit'
import { requireActor } from '../../access/actor'
import type { PersonalDataService } from './personal-data.service'

const tags = ['Personal data']
const fileName = (ext: string, at: string) => `boligkasse-personal-data-${at.slice(0, 10)}.${ext}`

const download = route({
  rules: { access: 'signed-in', data: 'read' },
  method: 'get',
  path: '/account/personal-data',
  tags,
  security: bearer,
  summary: 'Everything Boligkasse holds about the signed-in user, as JSON (a file download; at most 10 an hour)',
  description:
    'Every role, the super admin included. Secrets are left out: no password or token hashes, no session tokens, no sealed provider secrets. ' +
    'Invoices and credit notes come with their lines; messages received never name the sender of an anonymous one.',
  responses: { 200: { description: 'The data (Content-Disposition: attachment)', ...json(PersonalDataExport) }, 401: e[401], 429: e[429] },
})
const downloadHtml = route({
  rules: { access: 'signed-in', data: 'read' },
  method: 'get',
  path: '/account/personal-data.html',
  tags,
  security: bearer,
  summary: 'The same as a printable page in the user’s language, rendered on the server with every value escaped (a file download; shares the hourly limit)',
  responses: {
    200: { description: 'A self-contained HTML page (Content-Disposition: attachment)', content: { 'text/html': { schema: z.string() } } },
    401: e[401],
    429: e[429],
  },
})
const requestAudit =
  'Each request carries its audit: the member, how and on which day they asked (`APP` when they filed it themselves), who recorded it and when, and, once decided, who decided, when and why (a rejection). ' +
  'Names are as stored: an erased account reads "Erased member" in the reader’s language on the client (docs/PRIVACY.md).'
const requestParams = z.object({ companyId: z.uuid(), requestId: z.uuid() })

const myRequests = route({
  rules: { access: 'signed-in', data: 'read' },
  method: 'get',
  path: '/account/erasure-requests',
  tags,
  security: bearer,
  summary: 'The signed-in member’s requests to erase their personal data, in every association, newest first, and the associations they may ask',
  description: `The associations are those the caller holds a role or an agreement (in any state) in. ${requestAudit}`,
  responses: { 200: { description: 'The requests and associations', ...json(MyErasureRequests) }, 401: e[401] },
})
const fileRequest = route({
  rules: { access: 'signed-in', data: 'write' },
  method: 'post',
  path: '/account/erasure-requests',
  tags,
  security: bearer,
  summary: 'Ask one of one’s associations to erase one’s personal data (docs/decisions/0080): it waits until another of its staff approves it',
  description:
    'The association must be one the caller belongs to (a role or an agreement), else 404. 422 BUSINESS_RULE while the caller holds a role on an association’s staff ' +
    '(the last chairman or administrator told so); 409 CONFLICT for a super admin, or when a request already waits.',
  request: { headers: writeHeaders, ...jsonBody(FileErasureRequest) },
  responses: { 201: { description: 'Filed, waiting for approval', ...json(ErasureRequest) }, 400: e[400], 401: e[401], 404: e[404], 409: e[409], 422: e[422] },
})
const withdrawRequest = route({
  rules: { access: 'signed-in', data: 'write' },
  method: 'post',
  path: '/account/erasure-requests/{requestId}/withdraw',
  tags,
  security: bearer,
  summary: 'Withdraw one’s own request while it waits',
  description: 'Anyone else’s request is 404; one already decided is 409 INVALID_STATE.',
  request: { params: z.object({ requestId: z.uuid() }), headers: writeHeaders },
  responses: { 200: { description: 'Withdrawn', ...json(ErasureRequest) }, 400: e[400], 401: e[401], 404: e[404], 409: e[409] },
})
const companyRequests = route({
  rules: { access: 'signed-in', data: 'read' },
  method: 'get',
  path: '/companies/{companyId}/erasure-requests',
  tags,
  security: bearer,
  summary: 'The association’s erasure requests with their audit, newest first (its staff, or the super admin)',
  description: `${requestAudit} Its residents 403; anyone else 404.`,
  request: { params: z.object({ companyId: z.uuid() }) },
  responses: { 200: { description: 'The requests', ...json(ErasureRequestList) }, 401: e[401], 403: e[403], 404: e[404] },
})
const recordRequest = route({
  // Its staff record a request; its residents hear 403, anyone else 404, before the body (docs/API.md "Refusals").
  rules: { access: 'signed-in', data: 'write', scope: { of: 'association', param: 'companyId', act: 'erasure:record' } },
  method: 'post',
  path: '/companies/{companyId}/erasure-requests',
  tags,
  security: bearer,
  summary:
    'Record a request a member made by letter, e-mail, phone or in person (the association’s staff, or the super admin): it waits until another approves it',
  description:
    'Someone who is not a member of the association is 404. 422 BUSINESS_RULE for a member of an association’s staff (the last chairman or administrator told so); ' +
    '409 CONFLICT for a super admin, an account already erased, or when a request already waits. A day after today is 400 on `requestedOn`.',
  request: { params: z.object({ companyId: z.uuid() }), headers: writeHeaders, ...jsonBody(RecordErasureRequest) },
  responses: {
    201: { description: 'Recorded, waiting for approval', ...json(ErasureRequest) },
    400: e[400],
    401: e[401],
    403: e[403],
    404: e[404],
    409: e[409],
    422: e[422],
  },
})
const approveRequest = route({
  rules: { access: 'signed-in', data: 'write' },
  method: 'post',
  path: '/companies/{companyId}/erasure-requests/{requestId}/approve',
  tags,
  security: bearer,
  summary:
    'Approve a waiting request, which erases the member’s personal data (the association’s chairman or administrator, or the super admin; never the member nor whoever recorded it). ' +
    'Invoices and credit notes keep the name and address on the voucher (Bookkeeping Act, 5 years) and lose e-mail and phone; the account is anonymised and can no longer sign in (docs/PRIVACY.md).',
  description:
    'Runs once: the request is claimed in the erase’s transaction, so a second approval (a double click, a retry under another Idempotency-Key) is 409 INVALID_STATE, and a retry under the same key gets the stored answer. ' +
    '422 BUSINESS_RULE for the approver’s own recording or own data, and for a member of an association’s staff (the last chairman or administrator told so). ' +
    '409 CONFLICT while the member has an active agreement, an unpaid invoice or a loan in progress, when they also belong to another association (only the super admin approves for a shared account), ' +
    'for a super admin or an account already erased. Another association’s request is 404; its other staff and residents 403.',
  request: { params: requestParams, headers: writeHeaders },
  responses: {
    200: { description: 'Approved and erased: the request, with the erasure log entry’s id', ...json(ErasureRequest) },
    400: e[400],
    401: e[401],
    403: e[403],
    404: e[404],
    409: e[409],
    422: e[422],
  },
})
const rejectRequest = route({
  rules: { access: 'signed-in', data: 'write', scope: { of: 'association', param: 'companyId', act: 'erasure:reject' } },
  method: 'post',
  path: '/companies/{companyId}/erasure-requests/{requestId}/reject',
  tags,
  security: bearer,
  summary: 'Reject or cancel a waiting request, saying why (the association’s chairman or administrator, the super admin, or the staff member who recorded it)',
  description: 'One already decided is 409 INVALID_STATE. Another association’s request is 404 whatever the body.',
  request: { params: requestParams, headers: writeHeaders, ...jsonBody(RejectErasureRequest) },
  responses: { 200: { description: 'Rejected', ...json(ErasureRequest) }, 400: e[400], 401: e[401], 403: e[403], 404: e[404], 409: e[409] },
})

const noStore = { 'Cache-Control': 'no-store' }

export const personalDataRoutes = (service: PersonalDataService, limits: { download: RateLimiter }) =>
  router()
    .openapi(download, async (c) => {
      const actor = requireActor(c.var.actor)
      limits.download.hit(`personal-data:${actor.userId}`)
      const data = await service.export(actor)
      return c.json(data, 200, { ...noStore, 'Content-Disposition': `attachment; filename="${fileName('json', data.exportedAt)}"` })
    })
    .openapi(downloadHtml, async (c) => {
      const actor = requireActor(c.var.actor)
      limits.download.hit(`personal-data:${actor.userId}`)
      const { page, exportedAt } = await service.exportHtml(actor)
      return c.html(page, 200, {
        ...noStore,
        'Content-Disposition': `attachment; filename="${fileName('html', exportedAt)}"`,
        // A page of our origin that only styles itself: no script, no form, no request anywhere.
        'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; sandbox",
      })
    })
    .openapi(myRequests, async (c) => c.json(await service.myRequests(requireActor(c.var.actor)), 200))
    .openapi(fileRequest, async (c) => c.json(await service.file(requireActor(c.var.actor), c.req.valid('json')), 201))
    .openapi(withdrawRequest, async (c) => c.json(await service.withdraw(requireActor(c.var.actor), c.req.valid('param').requestId), 200))
    .openapi(companyRequests, async (c) => c.json(await service.companyRequests(requireActor(c.var.actor), c.req.valid('param').companyId), 200))
    .openapi(recordRequest, async (c) => {
      const { companyId } = c.req.valid('param')
      return c.json(await service.record(requireActor(c.var.actor), companyId, c.req.valid('json')), 201)
    })
    .openapi(approveRequest, async (c) => {
      const { companyId, requestId } = c.req.valid('param')
      return c.json(await service.approve(requireActor(c.var.actor), companyId, requestId), 200)
    })
    .openapi(rejectRequest, async (c) => {
      const { companyId, requestId } = c.req.valid('param')
      return c.json(await service.reject(requireActor(c.var.actor), companyId, requestId, c.req.valid('json').note), 200)
    })
