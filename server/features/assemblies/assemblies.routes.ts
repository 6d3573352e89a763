import { z } from '@hono/zod-openapi'
import { route } from '../../http/route'
import { Assembly, AssemblyListQuery, CreateAssemblyRequest, CreateProposalRequest, Proposal, UpdateAssemblyRequest } from '../../../shared/contract/assemblies'
import { bearer, errorResponses as e, json, jsonBody, router, versionedWriteHeaders, writeHeaders } from '../../http/openapi'
import { nextLinkHeader, setNextLink } from '../../http/paging'
import { ifMatchVersion, setETag } from '../../http/versioning'
import { requireActor } from '../../access/actor'
import type { AssembliesService } from './assemblies.service'
import { companyAdminStaffRoles } from '../../../shared/domain/roles'

const tags = ['General assemblies']
const IdParam = z.object({ id: z.uuid() })
const ProposalParam = z.object({ id: z.uuid(), proposalId: z.uuid() })
const one = (description: string) => ({ description: `${description} (ETag: its version)`, ...json(Assembly) })
const oneProposal = (description: string) => ({ description: `${description} (ETag: its version)`, ...json(Proposal) })

const list = route({
  rules: { access: 'signed-in', data: 'read' },
  method: 'get',
  path: '/assemblies',
  tags,
  security: bearer,
  summary:
    "General assemblies the caller sees, latest meeting first (by meeting time, then id): every one of the companies they are staff of (any role) or super admin of, and their associations' as a resident once the notice went out. " +
    'companyId narrows them (404 for a company the caller has nothing to do with, with or without a cursor). ' +
    'Paged: at most `limit` (1–200, default 200) per answer; the next page is the `Link: <…>; rel="next"` header, absent on the last page (a foreign cursor 400 on `cursor`)',
  request: { query: AssemblyListQuery },
  responses: {
    200: { description: 'A page of assemblies, latest meeting first', headers: nextLinkHeader, ...json(z.array(Assembly)) },
    400: e[400],
    401: e[401],
    404: e[404],
  },
})
const create = route({
  rules: { access: 'signed-in', data: 'write', scope: { of: 'association', in: 'body', param: 'companyId', roles: companyAdminStaffRoles } },
  method: 'post',
  path: '/assemblies',
  tags,
  security: bearer,
  summary:
    'Call a general assembly (company admin staff — chairman, administrator, accountant — and the super admin; a board member or a resident 403, another association 404): ' +
    'title, time and place (Copenhagen time; a time that does not exist there, in the hour skipped in spring, 400), agenda, deadline for proposals (in the future, before the meeting), ' +
    'when the notice goes out (before the deadline for proposals; null: at once) and the reminders ' +
    '(days before the meeting, default [14, 2]). The notice and each reminder go to every member in-app and by e-mail in their language; a reminder due before the notice or already past is not scheduled. ' +
    'A client-made `id` makes an offline create safe to repeat (the same create answers the stored one while the caller reads it; an id of a row the caller does not read 404, of another they read 409).',
  request: { headers: writeHeaders, ...jsonBody(CreateAssemblyRequest) },
  responses: { 201: one('The assembly'), 400: e[400], 401: e[401], 403: e[403], 404: e[404], 409: e[409], 422: e[422] },
})
const getOne = route({
  rules: { access: 'signed-in', data: 'read', scope: { of: 'assembly' } },
  method: 'get',
  path: '/assemblies/{id}',
  tags,
  security: bearer,
  summary: 'A general assembly with its sendouts (notice and reminders, sent or pending); the recipient counts for staff only',
  request: { params: IdParam },
  responses: { 200: one('The assembly'), 401: e[401], 404: e[404] },
})
const update = route({
  rules: { access: 'signed-in', data: 'write', scope: { of: 'assembly', roles: companyAdminStaffRoles } },
  method: 'patch',
  path: '/assemblies/{id}',
  tags,
  security: bearer,
  summary:
    'Change a planned assembly (company admin staff). The unsent notice and reminders follow the new times; sent ones stay. Once the notice went out its time cannot change (422); ' +
    'once the deadline for proposals has passed it cannot move (422 on `proposalDeadline`), and a new deadline must lie ahead. ' +
    'A cancelled or held one answers 409 INVALID_STATE; a stale If-Match 412.',
  request: { params: IdParam, headers: versionedWriteHeaders, ...jsonBody(UpdateAssemblyRequest) },
  responses: { 200: one('The assembly'), 400: e[400], 401: e[401], 403: e[403], 404: e[404], 409: e[409], 412: e[412], 422: e[422] },
})
const cancel = route({
  rules: { access: 'signed-in', data: 'write', scope: { of: 'assembly', roles: companyAdminStaffRoles } },
  method: 'post',
  path: '/assemblies/{id}/cancel',
  tags,
  security: bearer,
  summary: 'Cancel a planned assembly (company admin staff): nothing more goes out for it; if the notice went out, every member is told in-app and by e-mail',
  request: { params: IdParam, headers: versionedWriteHeaders },
  responses: { 200: one('The cancelled assembly'), 401: e[401], 403: e[403], 404: e[404], 409: e[409], 412: e[412] },
})
const held = route({
  rules: { access: 'signed-in', data: 'write', scope: { of: 'assembly', roles: companyAdminStaffRoles } },
  method: 'post',
  path: '/assemblies/{id}/held',
  tags,
  security: bearer,
  summary:
    'Mark a planned assembly as held once its time has come (company admin staff; before the meeting 422). Its minutes are a document with its assemblyId (category MINUTES).',
  request: { params: IdParam, headers: versionedWriteHeaders },
  responses: { 200: one('The held assembly'), 401: e[401], 403: e[403], 404: e[404], 409: e[409], 412: e[412], 422: e[422] },
})
const proposals = route({
  rules: { access: 'signed-in', data: 'read', scope: { of: 'assembly' } },
  method: 'get',
  path: '/assemblies/{id}/proposals',
  tags,
  security: bearer,
  summary:
    "The assembly's proposals the caller sees, oldest first: the company's staff (any role) and the super admin every one (withdrawn too); a member their own, and every submitted one once the deadline passed",
  request: { params: IdParam },
  responses: { 200: { description: 'The proposals', ...json(z.array(Proposal)) }, 401: e[401], 404: e[404] },
})
const submit = route({
  rules: { access: 'signed-in', data: 'write', scope: { of: 'assembly', act: 'assembly:propose' } },
  method: 'post',
  path: '/assemblies/{id}/proposals',
  tags,
  security: bearer,
  summary:
    'Submit a proposal (a member: resident or staff of the association) before the deadline; after it 422 in the caller’s language. ' +
    'A client-made `id` makes an offline submit safe to repeat (an id of a proposal the caller does not read 404, of another they read 409).',
  request: { params: IdParam, headers: writeHeaders, ...jsonBody(CreateProposalRequest) },
  responses: { 201: oneProposal('The proposal'), 400: e[400], 401: e[401], 403: e[403], 404: e[404], 409: e[409], 422: e[422] },
})
const withdraw = route({
  rules: { access: 'signed-in', data: 'write', scope: { of: 'assembly' } },
  method: 'post',
  path: '/assemblies/{id}/proposals/{proposalId}/withdraw',
  tags,
  security: bearer,
  summary: 'Withdraw a proposal: its author, before the deadline (422 after it); anyone else who sees it 403',
  request: { params: ProposalParam, headers: versionedWriteHeaders },
  responses: { 200: oneProposal('The withdrawn proposal'), 401: e[401], 403: e[403], 404: e[404], 412: e[412], 422: e[422] },
})

export const assembliesRoutes = (assemblies: AssembliesService) =>
  router()
    .openapi(list, async (c) => {
      const page = await assemblies.list(requireActor(c.var.actor), c.req.valid('query'))
      setNextLink(c, page.next)
      return c.json(page.items, 200)
    })
    .openapi(create, async (c) => {
      const assembly = await assemblies.create(requireActor(c.var.actor), c.req.valid('json'))
      setETag(c, assembly.version)
      return c.json(assembly, 201)
    })
    .openapi(getOne, async (c) => {
      const assembly = await assemblies.view(requireActor(c.var.actor), c.req.valid('param').id)
      setETag(c, assembly.version)
      return c.json(assembly, 200)
    })
    .openapi(update, async (c) => {
      const assembly = await assemblies.update(requireActor(c.var.actor), c.req.valid('param').id, c.req.valid('json'), ifMatchVersion(c))
      setETag(c, assembly.version)
      return c.json(assembly, 200)
    })
    .openapi(cancel, async (c) => {
      const assembly = await assemblies.cancel(requireActor(c.var.actor), c.req.valid('param').id, ifMatchVersion(c))
      setETag(c, assembly.version)
      return c.json(assembly, 200)
    })
    .openapi(held, async (c) => {
      const assembly = await assemblies.markHeld(requireActor(c.var.actor), c.req.valid('param').id, ifMatchVersion(c))
      setETag(c, assembly.version)
      return c.json(assembly, 200)
    })
    .openapi(proposals, async (c) => c.json(await assemblies.proposals(requireActor(c.var.actor), c.req.valid('param').id), 200))
    .openapi(submit, async (c) => {
      const proposal = await assemblies.submitProposal(requireActor(c.var.actor), c.req.valid('param').id, c.req.valid('json'))
      setETag(c, proposal.version)
      return c.json(proposal, 201)
    })
    .openapi(withdraw, async (c) => {
      const { id, proposalId } = c.req.valid('param')
      const proposal = await assemblies.withdrawProposal(requireActor(c.var.actor), id, proposalId, ifMatchVersion(c))
      setETag(c, proposal.version)
      return c.json(proposal, 200)
    })
