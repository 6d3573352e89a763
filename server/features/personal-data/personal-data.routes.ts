import { z } from '@hono/zod-openapi'
import { route } from '../../http/route'
import { EraseMemberRequest, Erasure, PersonalDataExport } from '../../../shared/contract/personal-data'
import { bearer, errorResponses as e, json, jsonBody, router, writeHeaders } from '../../http/openapi'
import type { MiddlewareHandler } from 'hono'
import type { AppEnv } from '../../http/app-env'
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
const erase = route({
  rules: { access: 'signed-in', data: 'write' },
  method: 'post',
  path: '/companies/{companyId}/members/{userId}/erase',
  tags,
  security: bearer,
  summary:
    'Erase a member’s personal data on their request (the association’s chairman or administrator, or the super admin). ' +
    'Invoices and credit notes keep the name and address on the voucher (Bookkeeping Act, 5 years) and lose e-mail and phone; the account is anonymised and can no longer sign in (docs/PRIVACY.md).',
  description:
    '409 CONFLICT while the member has an active agreement, an unpaid invoice or a loan in progress, when they also belong to another association (only the super admin erases a shared account), ' +
    'for the caller themselves, a super admin, or an account already erased. A member of another association, or no member at all, is 404.',
  request: { params: z.object({ companyId: z.uuid(), userId: z.uuid() }), headers: writeHeaders, ...jsonBody(EraseMemberRequest) },
  responses: {
    200: { description: 'Erased: the entry of the erasure log', ...json(Erasure) },
    400: e[400],
    401: e[401],
    403: e[403],
    404: e[404],
    409: e[409],
  },
})

const noStore = { 'Cache-Control': 'no-store' }
const uuid = z.uuid()

/**
 * Runs before the body is validated: another association's company, or a user who is not a member
 * of this one, answers 404 whatever the body holds (a 400 would tell the caller the path exists).
 * Malformed ids are left to the parameter check (400).
 */
const reachableFirst =
  (service: PersonalDataService): MiddlewareHandler<AppEnv> =>
  async (c, next) => {
    const companyId = c.req.param('companyId')
    const userId = c.req.param('userId')
    if (uuid.safeParse(companyId).success && uuid.safeParse(userId).success) await service.assertMayReach(requireActor(c.var.actor), companyId!, userId!)
    await next()
  }

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
    // After the route's own rules (sign-in, the write transaction), never instead of them.
    .openapi({ ...erase, middleware: [erase.middleware, reachableFirst(service)] }, async (c) => {
      const { companyId, userId } = c.req.valid('param')
      return c.json(await service.erase(requireActor(c.var.actor), companyId, userId, c.req.valid('json')), 200)
    })
