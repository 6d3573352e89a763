import { z } from '@hono/zod-openapi'
import { route } from '../../http/route'
import { Charge } from '../../../shared/contract/agreements'
import {
  DebtorListQuery,
  DebtorPage,
  MarkPaidRequest,
  OneTimeChargeRequest,
  Refund,
  RefundRequest,
  RetryRequest,
  WriteOffRequest,
} from '../../../shared/contract/billing'
import { Invoice, InvoiceListQuery } from '../../../shared/contract/invoices'
import { bearer, errorResponses as e, json, jsonBody, router, writeHeaders } from '../../http/openapi'
import { nextLinkHeader, setNextLink } from '../../http/paging'
import { requireActor } from '../../access/actor'
import type { BillingService } from './billing.service'
import { parseDebtorQuery } from './debtors.service'
import type { InvoicesService } from './invoices.service'
import { companyAdminStaffRoles } from '../../../shared/domain/roles'

const IdParam = z.object({ id: z.uuid() })

const oneTimeCharge = route({
  rules: { access: 'signed-in', data: 'write', scope: { of: 'agreement', roles: companyAdminStaffRoles } },
  method: 'post',
  path: '/agreement/{id}/requestOneTimeCharge',
  tags: ['Billing'],
  security: bearer,
  summary:
    'Request a one-time charge (company admin staff: administrator, accountant, chairman, or the super admin; a board member 403; ACCEPTED agreements only, else 409 INVALID_STATE). amount in øre ≥ 100, description ≤ 45 characters. ' +
    'The charge (UNSCHEDULED, due tomorrow) and its invoice are stored at once and sent to Vipps MobilePay by a worker with the charge id as Idempotency-Key.',
  request: { params: IdParam, headers: writeHeaders, ...jsonBody(OneTimeChargeRequest) },
  responses: {
    201: { description: 'The charge, status CREATED, with its invoice', ...json(Charge) },
    400: e[400],
    401: e[401],
    403: e[403],
    404: e[404],
    409: e[409],
  },
})
const refund = route({
  rules: { access: 'signed-in', data: 'write', scope: { of: 'agreement', roles: companyAdminStaffRoles } },
  method: 'post',
  path: '/agreement/{id}/refund',
  tags: ['Billing'],
  security: bearer,
  summary:
    'Refund (part of) a collected charge (company admin staff: administrator, accountant, chairman, or the super admin; not a board member or a resident). Only an EXECUTED charge; refunds total at most the captured amount, else 422 BUSINESS_RULE. ' +
    'A credit note referencing the invoice is issued at once; the refund is sent to Vipps MobilePay by a worker with the refund id as Idempotency-Key.',
  request: { params: IdParam, headers: writeHeaders, ...jsonBody(RefundRequest) },
  responses: {
    201: { description: 'The refund, PENDING until Vipps confirmed it', ...json(Refund) },
    400: e[400],
    401: e[401],
    403: e[403],
    404: e[404],
    409: e[409],
    422: e[422],
  },
})
const list = route({
  rules: { access: 'signed-in', data: 'read' },
  method: 'get',
  path: '/invoice',
  tags: ['Invoices'],
  security: bearer,
  summary:
    "Invoices and credit notes: with companyId, the company's for its staff (own ones for anyone else; 404 for a company the caller has nothing to do with); without, the caller's own. Filter by status. Newest first.",
  description:
    'A page of at most `limit` (1–200, default 200) documents, newest first by issue date, number and id. ' +
    'The next page is in the `Link: <…&cursor=…>; rel="next"` header, absent on the last page; a cursor that is not one of ours is 400 `VALIDATION_FAILED` on `cursor`.',
  request: { query: InvoiceListQuery },
  responses: {
    200: { description: 'A page of invoices, newest first', headers: nextLinkHeader, ...json(z.array(Invoice)) },
    400: e[400],
    401: e[401],
    404: e[404],
  },
})
const getOne = route({
  rules: { access: 'signed-in', data: 'read', scope: { of: 'invoice' } },
  method: 'get',
  path: '/invoice/{id}',
  tags: ['Invoices'],
  security: bearer,
  summary: 'An invoice or credit note with its articles (staff of its company, or its member)',
  request: { params: IdParam },
  responses: { 200: { description: 'The invoice', ...json(Invoice) }, 401: e[401], 404: e[404] },
})

const debtors = route({
  rules: { access: 'signed-in', data: 'read' },
  method: 'get',
  path: '/debtors',
  tags: ['Invoices'],
  security: bearer,
  summary:
    "The company's unpaid invoices: failed, or past their due date and not collected, and not settled by staff — also when a later month was paid. " +
    'Oldest due date first, a page at a time (cursor). Company admin staff and the super admin; a board member 403; a company the caller has nothing to do with 404.',
  request: { query: DebtorListQuery },
  responses: {
    200: { description: 'A page of unpaid invoices with the totals of all pages', ...json(DebtorPage) },
    400: e[400],
    401: e[401],
    403: e[403],
    404: e[404],
  },
})
const retry = route({
  rules: { access: 'signed-in', data: 'write', scope: { of: 'invoice', roles: companyAdminStaffRoles } },
  method: 'post',
  path: '/invoice/{id}/retry',
  tags: ['Invoices'],
  security: bearer,
  summary:
    'Collect an unpaid invoice again (company admin staff): a new one-time charge for the open amount on the same invoice, sent to Vipps MobilePay through the outbox. ' +
    'Only after its charge failed, with no retry under way, on an agreement active at Vipps (else 409 INVALID_STATE).',
  request: { params: IdParam, headers: writeHeaders, ...jsonBody(RetryRequest) },
  responses: { 201: { description: 'The new charge', ...json(Charge) }, 400: e[400], 401: e[401], 403: e[403], 404: e[404], 409: e[409] },
})
const markPaid = route({
  rules: { access: 'signed-in', data: 'write', scope: { of: 'invoice', roles: companyAdminStaffRoles } },
  method: 'post',
  path: '/invoice/{id}/markPaid',
  tags: ['Invoices'],
  security: bearer,
  summary:
    'Record that an unpaid invoice was paid outside Vipps MobilePay (company admin staff), with a note shown on the invoice. Collection at Vipps is cancelled. ' +
    'Statistics keep counting only money collected through Vipps. 409 INVALID_STATE when the invoice is not unpaid.',
  request: { params: IdParam, headers: writeHeaders, ...jsonBody(MarkPaidRequest) },
  responses: { 200: { description: 'The invoice with its settlement', ...json(Invoice) }, 400: e[400], 401: e[401], 403: e[403], 404: e[404], 409: e[409] },
})
const writeOff = route({
  rules: { access: 'signed-in', data: 'write', scope: { of: 'invoice', roles: companyAdminStaffRoles } },
  method: 'post',
  path: '/invoice/{id}/writeOff',
  tags: ['Invoices'],
  security: bearer,
  summary:
    'Write off an unpaid invoice (company admin staff): a credit note for the open amount (no money moves), with a note. Collection at Vipps is cancelled. ' +
    '409 INVALID_STATE when the invoice is not unpaid.',
  request: { params: IdParam, headers: writeHeaders, ...jsonBody(WriteOffRequest) },
  responses: { 201: { description: 'The credit note', ...json(Invoice) }, 400: e[400], 401: e[401], 403: e[403], 404: e[404], 409: e[409] },
})

export const billingRoutes = (billing: BillingService, invoices: InvoicesService) =>
  router()
    .openapi(oneTimeCharge, async (c) =>
      c.json(await billing.requestOneTimeCharge(requireActor(c.var.actor), c.req.valid('param').id, c.req.valid('json')), 201),
    )
    .openapi(refund, async (c) => c.json(await billing.refund(requireActor(c.var.actor), c.req.valid('param').id, c.req.valid('json')), 201))
    .openapi(list, async (c) => {
      const page = await invoices.list(requireActor(c.var.actor), c.req.valid('query'))
      setNextLink(c, page.next)
      return c.json(page.items, 200)
    })
    .openapi(getOne, async (c) => c.json(await invoices.get(requireActor(c.var.actor), c.req.valid('param').id), 200))
    .openapi(debtors, async (c) => c.json(await billing.debtors(requireActor(c.var.actor), parseDebtorQuery(c.req.valid('query'))), 200))
    .openapi(retry, async (c) => c.json(await billing.retry(requireActor(c.var.actor), c.req.valid('param').id, c.req.valid('json')), 201))
    .openapi(markPaid, async (c) =>
      c.json((await invoices.views([await billing.markPaidOutside(requireActor(c.var.actor), c.req.valid('param').id, c.req.valid('json'))]))[0]!, 200),
    )
    .openapi(writeOff, async (c) =>
      c.json((await invoices.views([await billing.writeOff(requireActor(c.var.actor), c.req.valid('param').id, c.req.valid('json'))]))[0]!, 201),
    )
