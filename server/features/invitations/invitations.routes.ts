import { z } from '@hono/zod-openapi'
import { route } from '../../http/route'
import { InvitationProgress, InvitationProgressQuery, InvitationSettings, InviteRequest, InviteResult } from '../../../shared/contract/invitations'
import { bearer, errorResponses as e, json, router, writeHeaders } from '../../http/openapi'
import { requireActor } from '../../access/actor'
import type { RouteScope } from '../../access/scope'
import { companyAdminStaffRoles } from '../../../shared/domain/roles'
import type { InvitationsService } from './invitations.service'

const tags = ['Invitations']
const CompanyParam = z.object({ companyId: z.uuid() })
/** Company admin staff act: a board member hears 403 before the body (docs/API.md "Refusals"). */
const adminStaff: RouteScope = { of: 'company', param: 'companyId', roles: companyAdminStaffRoles }
const ADMIN = "The association's chairman, administrator and accountant, and the super admin; a board member 403; anyone else 404."

const progress = route({
  rules: { access: 'signed-in', data: 'read' },
  method: 'get',
  path: '/companies/{companyId}/invitations',
  tags,
  security: bearer,
  summary:
    'How the invitations of the association stand (docs/decisions/0091): of everyone with an agreement here, how many signed in, how many accepted every agreement in Vipps MobilePay, ' +
    'how many addresses bounced, how many are not invited yet and how many mails are queued; the reminder rules; and a page of those not done yet by name, ' +
    'each with the date of their last invitation or reminder. Staff of the association (every role) and the super admin; anyone else 404.',
  request: { params: CompanyParam, query: InvitationProgressQuery },
  responses: { 200: { description: 'The progress', ...json(InvitationProgress) }, 400: e[400], 401: e[401], 403: e[403], 404: e[404] },
})

const invite = route({
  rules: { access: 'signed-in', data: 'write', scope: adminStaff },
  method: 'post',
  path: '/companies/{companyId}/invitations',
  tags,
  security: bearer,
  summary:
    'Invites everyone with an agreement in the association who has never signed in (or only `userIds` of them): one e-mail each, in their language, with a set-password link ' +
    '(single use, 7 days) and their agreements to accept in Vipps MobilePay. Queued in one statement and sent by the `invitations` job; a person is invited once, ' +
    'so a double click, a retry or a second request queues nobody twice (the answer counts those invited before). An address that bounced is left out. ' +
    'At most 30 requests an hour per association (429).',
  description: ADMIN,
  request: { headers: writeHeaders, params: CompanyParam, body: { ...json(InviteRequest), required: false } },
  responses: { 202: { description: 'Queued', ...json(InviteResult) }, 400: e[400], 401: e[401], 403: e[403], 404: e[404], 409: e[409], 429: e[429] },
})

const settings = route({
  rules: { access: 'signed-in', data: 'write', scope: adminStaff },
  method: 'put',
  path: '/companies/{companyId}/invitations/settings',
  tags,
  security: bearer,
  summary:
    'Sets the reminder rules of the association: reminders on or off, after how many days (1–60) since the last invitation or reminder, and at most how many (0–5). ' +
    'A reminder goes to those who still have not signed in, or have an agreement to accept, once per round.',
  description: ADMIN,
  request: { headers: writeHeaders, params: CompanyParam, body: { ...json(InvitationSettings), required: true } },
  responses: { 200: { description: 'The rules', ...json(InvitationSettings) }, 400: e[400], 401: e[401], 403: e[403], 404: e[404], 409: e[409] },
})

const bounce = route({
  rules: { access: 'public', data: 'write', unbatched: true },
  method: 'post',
  path: '/webhooks/mail-bounce',
  tags,
  summary:
    "The mail provider's notice that a mail bounced or was reported as spam (docs/decisions/0091), signed with MAIL_WEBHOOK_SECRET as Standard Webhooks do " +
    '(`webhook-id`, `webhook-timestamp`, `webhook-signature: v1,<base64 HMAC-SHA256 of "id.timestamp.body">`, at most 5 minutes off). ' +
    'A hard bounce or a complaint stops further invitations and reminders to the address, and staff see it; a soft bounce is acknowledged only. ' +
    'Unsigned or stale: 401 (30 a minute per address, then 429); no secret set on the server: 404.',
  // The body (MailBounceEvent: type, bounceType, email, messageId, reason) is read by the service after the signature holds: an unsigned notice is 401 whatever it holds.
  responses: {
    202: { description: 'Taken (also a repeat, or a soft bounce)', ...json(z.object({ recorded: z.boolean() })) },
    400: e[400],
    401: e[401],
    404: e[404],
    429: e[429],
  },
})

export const invitationsRoutes = (invitations: InvitationsService) =>
  router()
    .openapi(progress, async (c) => c.json(await invitations.progress(requireActor(c.var.actor), c.req.valid('param').companyId, c.req.valid('query')), 200))
    .openapi(invite, async (c) => {
      const body = (c.req.valid('json') as InviteRequest | undefined) ?? {}
      return c.json(await invitations.invite(requireActor(c.var.actor), c.req.valid('param').companyId, body.userIds), 202)
    })
    .openapi(settings, async (c) => c.json(await invitations.saveSettings(requireActor(c.var.actor), c.req.valid('param').companyId, c.req.valid('json')), 200))
    .openapi(bounce, async (c) => {
      const headers = { id: c.req.header('webhook-id'), timestamp: c.req.header('webhook-timestamp'), signature: c.req.header('webhook-signature') }
      return c.json(await invitations.receiveBounce(headers, await c.req.text(), c.var.clientIp), 202)
    })
