import { z } from '@hono/zod-openapi'
import { route } from '../../http/route'
import {
  AccountPlan,
  AccountPlanView,
  ClosedMonth,
  CloseMonthRequest,
  CompanyParam,
  ExportParam,
  ExportRequest,
  JournalExport,
  JournalPage,
  JournalQuery,
} from '../../../shared/contract/bookkeeping'
import { bearer, errorResponses as e, json, jsonBody, router, versionedWriteHeaders, writeHeaders } from '../../http/openapi'
import { ifMatchVersion, setETag } from '../../http/versioning'
import { requireActor } from '../../access/actor'
import type { RouteScope } from '../../access/scope'
import type { BookkeepingService } from './bookkeeping.service'

/** The books are kept by company admin staff: a board member hears why not (403), an outsider 404 (docs/BOOKKEEPING.md). */
const books: RouteScope = { of: 'company', param: 'companyId', roles: ['CHAIRMAN', 'ADMINISTRATOR', 'ACCOUNTANT'] }

const tags = ['Bookkeeping']
const WHO = 'Company admin staff (chairman, administrator, accountant) and the super admin; for anyone else the company is 404.'
const binary = z.any().meta({ type: 'string', format: 'binary' })

const getPlan = route({
  rules: { access: 'signed-in', data: 'read', scope: books },
  method: 'get',
  path: '/bookkeeping/{companyId}/accounts',
  tags,
  security: bearer,
  summary: "The company's account plan (the defaults until changed, version 1); ETag: its version",
  description: WHO,
  request: { params: CompanyParam },
  responses: { 200: { description: 'The account plan', ...json(AccountPlanView) }, 401: e[401], 404: e[404] },
})
const putPlan = route({
  rules: { access: 'signed-in', data: 'write', scope: books },
  method: 'put',
  path: '/bookkeeping/{companyId}/accounts',
  tags,
  security: bearer,
  summary: 'Change the account plan: accounts are 1–10 digits, VAT codes at most 10 letters or digits (`If-Match`: the version changed)',
  description: WHO,
  request: { params: CompanyParam, headers: versionedWriteHeaders, ...jsonBody(AccountPlan) },
  responses: { 200: { description: 'The account plan', ...json(AccountPlanView) }, 400: e[400], 401: e[401], 404: e[404], 409: e[409], 412: e[412] },
})
const journal = route({
  rules: { access: 'signed-in', data: 'read', scope: books },
  method: 'get',
  path: '/bookkeeping/{companyId}/journal',
  tags,
  security: bearer,
  summary:
    'The journal of a period (Copenhagen dates, at most 366 days): a page of entries in date and voucher order, with the whole period’s totals per account (debit-positive øre)',
  description: `${WHO} \`onlyNew=true\`: only entries no export has included yet. The next page starts at \`nextCursor\`.`,
  request: { params: CompanyParam, query: JournalQuery },
  responses: { 200: { description: 'A page of the journal', ...json(JournalPage) }, 400: e[400], 401: e[401], 404: e[404] },
})
const listExports = route({
  rules: { access: 'signed-in', data: 'read', scope: books },
  method: 'get',
  path: '/bookkeeping/{companyId}/exports',
  tags,
  security: bearer,
  summary: 'The 20 latest exports of the journal, newest first',
  description: WHO,
  request: { params: CompanyParam },
  responses: { 200: { description: 'Exports', ...json(z.array(JournalExport)) }, 401: e[401], 404: e[404] },
})
const createExport = route({
  rules: { access: 'signed-in', data: 'write', scope: books },
  method: 'post',
  path: '/bookkeeping/{companyId}/exports',
  tags,
  security: bearer,
  summary:
    'Export the journal of a period as CSV or xlsx: marks every entry no export in the same format included before as this export’s (so "only new" never posts an entry twice from one format). The same client-made `id` again answers the same export; download its file from `…/exports/{id}/file`.',
  description: WHO,
  request: { params: CompanyParam, headers: writeHeaders, ...jsonBody(ExportRequest) },
  responses: {
    200: { description: 'The export, made before with this id', ...json(JournalExport) },
    201: { description: 'The export', ...json(JournalExport) },
    400: e[400],
    401: e[401],
    404: e[404],
    409: e[409],
  },
})
const exportFile = route({
  rules: { access: 'signed-in', data: 'read', scope: books },
  method: 'get',
  path: '/bookkeeping/{companyId}/exports/{id}/file',
  tags,
  security: bearer,
  summary: 'An export\'s file: the entries it included (and, unless it was "only new", those exported before it, with that date), as CSV or xlsx',
  description: WHO,
  request: { params: ExportParam },
  responses: {
    200: {
      description: 'The file (`Content-Disposition: attachment`)',
      content: { 'text/csv': { schema: binary }, 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': { schema: binary } },
    },
    401: e[401],
    404: e[404],
  },
})
const listClosed = route({
  rules: { access: 'signed-in', data: 'read', scope: books },
  method: 'get',
  path: '/bookkeeping/{companyId}/closed-months',
  tags,
  security: bearer,
  summary: "The company's closes, newest first: every month up to and including the first (the latest) is closed",
  description: WHO,
  request: { params: CompanyParam },
  responses: { 200: { description: 'Closed months', ...json(z.array(ClosedMonth)) }, 401: e[401], 404: e[404] },
})
const close = route({
  rules: { access: 'signed-in', data: 'write', scope: books },
  method: 'post',
  path: '/bookkeeping/{companyId}/closed-months',
  tags,
  security: bearer,
  summary:
    'Close a month (`YYYY-MM`) that has ended (422 otherwise), and with it every month before it, keeping today’s account plan for them: afterwards invoices, credit notes and payments dated in them cannot change (409). A month already closed (it or a later month) answers the close that closed it; a closed month is never reopened.',
  description: WHO,
  request: { params: CompanyParam, headers: writeHeaders, ...jsonBody(CloseMonthRequest) },
  responses: {
    200: { description: 'Already closed', ...json(ClosedMonth) },
    201: { description: 'Closed', ...json(ClosedMonth) },
    400: e[400],
    401: e[401],
    404: e[404],
    422: e[422],
  },
})

export const bookkeepingRoutes = (bookkeeping: BookkeepingService) =>
  router()
    .openapi(getPlan, async (c) => {
      const view = await bookkeeping.plan(requireActor(c.var.actor), c.req.valid('param').companyId)
      setETag(c, view.version)
      return c.json(view, 200)
    })
    .openapi(putPlan, async (c) => {
      const view = await bookkeeping.savePlan(requireActor(c.var.actor), c.req.valid('param').companyId, c.req.valid('json'), ifMatchVersion(c))
      setETag(c, view.version)
      return c.json(view, 200)
    })
    .openapi(journal, async (c) => c.json(await bookkeeping.journal(requireActor(c.var.actor), c.req.valid('param').companyId, c.req.valid('query')), 200))
    .openapi(listExports, async (c) => c.json(await bookkeeping.exports(requireActor(c.var.actor), c.req.valid('param').companyId), 200))
    .openapi(createExport, async (c) => {
      const r = await bookkeeping.exportJournal(requireActor(c.var.actor), c.req.valid('param').companyId, c.req.valid('json'))
      return r.created ? c.json(r.export, 201) : c.json(r.export, 200)
    })
    .openapi(exportFile, async (c) => {
      const { companyId, id } = c.req.valid('param')
      const file = await bookkeeping.exportFile(requireActor(c.var.actor), companyId, id)
      return c.body(file.bytes as never, 200, {
        'Content-Type': file.contentType,
        'Content-Disposition': `attachment; filename="${file.name}"`,
        'Cache-Control': 'no-store',
      }) as never
    })
    .openapi(listClosed, async (c) => c.json(await bookkeeping.closedMonths(requireActor(c.var.actor), c.req.valid('param').companyId), 200))
    .openapi(close, async (c) => {
      const r = await bookkeeping.closeMonth(requireActor(c.var.actor), c.req.valid('param').companyId, c.req.valid('json').month)
      return r.created ? c.json(r.month, 201) : c.json(r.month, 200)
    })
