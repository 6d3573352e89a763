import { z } from '@hono/zod-openapi'
import { route } from '../../http/route'
import {
  AddAddressRequest,
  AddMemberRequest,
  Address,
  ChangeMemberRoleRequest,
  Company,
  CompanyField,
  CompanyMember,
  CreateCompanyRequest,
  CreatedResponse,
  PatchCompanyFieldRequest,
  UpdateCompanyRequest,
} from '../../../shared/contract/companies'
import { lifecycleActions, type LifecycleAction } from '../../../shared/domain/company-status'
import { bearer, errorResponses as e, json, jsonBody, router, versionedWriteHeaders, writeHeaders } from '../../http/openapi'
import { nextLinkHeader, setNextLink } from '../../http/paging'
import { ifMatchVersion, setETag } from '../../http/versioning'
import { PageQuery } from '../../../shared/contract/paging'
import { requireActor } from '../../access/actor'
import type { RouteScope } from '../../access/scope'
import { companyAdminStaffRoles } from '../../../shared/domain/roles'
import type { CompaniesService } from './companies.service'

const tags = ['Companies']
/** Members and addresses are changed by the company's admin staff: a board member hears 403 before the body (docs/API.md "Refusals"). */
const adminStaff: RouteScope = { of: 'company', roles: companyAdminStaffRoles }
const IdParam = z.object({ id: z.uuid() })
const one = { description: 'The company (ETag: its version)', ...json(Company) }

const list = route({
  rules: { access: 'signed-in', data: 'read' },
  method: 'get',
  path: '/company',
  tags,
  security: bearer,
  summary: "Companies the caller may see: all for the super admin (deleted ones too), else the caller's own",
  responses: { 200: { description: 'Companies in name order', ...json(z.array(Company)) }, 401: e[401] },
})
const create = route({
  rules: { access: 'super-admin', data: 'write' },
  method: 'post',
  path: '/company',
  tags,
  security: bearer,
  summary: 'Create a company (super admin); CVR must be valid and unique; the new company has status NEW',
  request: { headers: writeHeaders, ...jsonBody(CreateCompanyRequest) },
  responses: { 201: { description: 'Created', ...json(CreatedResponse) }, 400: e[400], 401: e[401], 403: e[403], 409: e[409] },
})
const getOne = (path: string) =>
  route({
    rules: { access: 'signed-in', data: 'read', scope: { of: 'company' } },
    method: 'get',
    path,
    tags,
    security: bearer,
    summary: 'A company with counts of members, agreements and invoices',
    request: { params: IdParam },
    responses: { 200: one, 401: e[401], 404: e[404] },
  })
const put = (path: string) =>
  route({
    rules: { access: 'signed-in', data: 'write', scope: { of: 'company', act: 'company:update', reads: Object.keys(UpdateCompanyRequest.shape) } },
    method: 'put',
    path,
    tags,
    security: bearer,
    summary:
      'Change company fields (absent ones stay). Heating-water dates: any staff; other fields: admin staff or super admin. Read-only while suspended or deactivated (409).',
    request: { params: IdParam, headers: versionedWriteHeaders, ...jsonBody(UpdateCompanyRequest) },
    responses: { 200: one, 400: e[400], 401: e[401], 403: e[403], 404: e[404], 409: e[409], 412: e[412] },
  })
const patchField = route({
  rules: { access: 'signed-in', data: 'write', scope: { of: 'company', act: 'company:field' } },
  method: 'patch',
  path: '/company/{id}/field/{fieldName}',
  tags,
  security: bearer,
  summary: 'Change one field: name, acronym, cvr, unionType, heatingWaterPeriodStartDate, heatingWaterPeriodEndDate (dd.mm)',
  request: { params: IdParam.extend({ fieldName: CompanyField }), headers: versionedWriteHeaders, ...jsonBody(PatchCompanyFieldRequest) },
  responses: { 200: one, 400: e[400], 401: e[401], 403: e[403], 404: e[404], 409: e[409], 412: e[412] },
})
const lifecycle = (method: 'get' | 'post', action: LifecycleAction) =>
  route({
    rules: { access: 'signed-in', data: 'write', scope: { of: 'company' } },
    method,
    path: `/company/{id}/${action}`,
    tags,
    security: bearer,
    summary:
      `${action[0]!.toUpperCase()}${action.slice(1)} the company (super admin). Allowed: activate NEW|SUSPENDED→ACTIVE; suspend ACTIVE→SUSPENDED; ` +
      'deactivate ACTIVE|SUSPENDED→DEACTIVATED; delete NEW|DEACTIVATED→DELETED (soft). Otherwise 409 INVALID_STATE.' +
      (method === 'get' ? ' The GET form stays for compatibility; clients use POST.' : ''),
    request: method === 'post' ? { params: IdParam, headers: writeHeaders } : { params: IdParam },
    responses: { 200: one, 401: e[401], 403: e[403], 404: e[404], 409: e[409] },
  })
const members = route({
  rules: { access: 'signed-in', data: 'read', scope: { of: 'company' } },
  method: 'get',
  path: '/company/{id}/members',
  tags: ['Company members'],
  security: bearer,
  summary: 'Staff of the company with their roles',
  description:
    'A page of at most `limit` (1–200, default 200) members, by name and id. ' +
    'The next page is in the `Link: <…?cursor=…>; rel="next"` header, absent on the last page; a cursor that is not one of ours is 400 `VALIDATION_FAILED` on `cursor`.',
  request: { params: IdParam, query: PageQuery },
  responses: {
    200: { description: 'A page of members by name', headers: nextLinkHeader, ...json(z.array(CompanyMember)) },
    400: e[400],
    401: e[401],
    404: e[404],
  },
})
const addMember = route({
  rules: { access: 'signed-in', data: 'write', scope: adminStaff },
  method: 'post',
  path: '/company/{id}/member',
  tags: ['Company members'],
  security: bearer,
  summary: 'Add an existing user (`userId`) or a new one (`user`: name, email, phone; invited by e-mail with a 7-day set-password link) with a role',
  request: { params: IdParam, headers: writeHeaders, ...jsonBody(AddMemberRequest) },
  responses: { 201: { description: 'Added', ...json(CompanyMember) }, 400: e[400], 401: e[401], 403: e[403], 404: e[404], 409: e[409] },
})
const changeMemberRole = route({
  rules: { access: 'signed-in', data: 'write', scope: adminStaff },
  method: 'patch',
  path: '/company/{id}/member/{memberId}',
  tags: ['Company members'],
  security: bearer,
  summary:
    "Change a member's role (admin staff or super admin); the last CHAIRMAN or ADMINISTRATOR keeps that kind of role (422). If-Match: the member's version.",
  request: { params: IdParam.extend({ memberId: z.uuid() }), headers: versionedWriteHeaders, ...jsonBody(ChangeMemberRoleRequest) },
  responses: {
    200: { description: 'The member with the new role (ETag: its version)', ...json(CompanyMember) },
    400: e[400],
    401: e[401],
    403: e[403],
    404: e[404],
    409: e[409],
    412: e[412],
    422: e[422],
  },
})
const removeMember = route({
  rules: { access: 'signed-in', data: 'write', scope: adminStaff },
  method: 'delete',
  path: '/company/{id}/member/{memberId}',
  tags: ['Company members'],
  security: bearer,
  summary: 'Remove a member; a company keeps at least one CHAIRMAN or ADMINISTRATOR (422). Access ends at once.',
  request: { params: IdParam.extend({ memberId: z.uuid() }), headers: writeHeaders },
  responses: { 204: { description: 'Removed' }, 401: e[401], 403: e[403], 404: e[404], 409: e[409], 422: e[422] },
})
const addresses = route({
  rules: { access: 'signed-in', data: 'read', scope: { of: 'company' } },
  method: 'get',
  path: '/company/{id}/addresses',
  tags: ['Company addresses'],
  security: bearer,
  summary: 'Addresses of the company',
  request: { params: IdParam },
  responses: { 200: { description: 'Addresses', ...json(z.array(Address)) }, 401: e[401], 404: e[404] },
})
const addAddress = route({
  rules: { access: 'signed-in', data: 'write', scope: adminStaff },
  method: 'post',
  path: '/company/{id}/addresses',
  tags: ['Company addresses'],
  security: bearer,
  summary: 'Add an address (country is always Denmark; referenceId from GET /address-search)',
  request: { params: IdParam, headers: writeHeaders, ...jsonBody(AddAddressRequest) },
  responses: { 201: { description: 'Added', ...json(Address) }, 400: e[400], 401: e[401], 403: e[403], 404: e[404], 409: e[409] },
})
const deleteAddress = route({
  rules: { access: 'signed-in', data: 'write', scope: adminStaff },
  method: 'delete',
  path: '/company/{id}/addresses/{addressId}',
  tags: ['Company addresses'],
  security: bearer,
  summary: 'Delete an address; refused with 409 CONFLICT while an agreement uses it',
  request: { params: IdParam.extend({ addressId: z.uuid() }), headers: writeHeaders },
  responses: { 204: { description: 'Deleted' }, 401: e[401], 403: e[403], 404: e[404], 409: e[409] },
})

export const companiesRoutes = (companies: CompaniesService) => {
  const r = router()
    .openapi(list, async (c) => c.json(await companies.list(requireActor(c.var.actor)), 200))
    .openapi(create, async (c) => c.json(await companies.create(requireActor(c.var.actor), c.req.valid('json')), 201))
    .openapi(patchField, async (c) => {
      const { id, fieldName } = c.req.valid('param')
      const company = await companies.patchField(requireActor(c.var.actor), id, fieldName, c.req.valid('json').value, ifMatchVersion(c))
      setETag(c, company.version)
      return c.json(company, 200)
    })
    .openapi(members, async (c) => {
      const page = await companies.members(requireActor(c.var.actor), c.req.valid('param').id, c.req.valid('query'))
      setNextLink(c, page.next)
      return c.json(page.items, 200)
    })
    .openapi(addMember, async (c) => c.json(await companies.addMember(requireActor(c.var.actor), c.req.valid('param').id, c.req.valid('json')), 201))
    .openapi(changeMemberRole, async (c) => {
      const { id, memberId } = c.req.valid('param')
      const member = await companies.changeMemberRole(requireActor(c.var.actor), id, memberId, c.req.valid('json'), ifMatchVersion(c))
      setETag(c, member.version)
      return c.json(member, 200)
    })
    .openapi(removeMember, async (c) => {
      const { id, memberId } = c.req.valid('param')
      await companies.removeMember(requireActor(c.var.actor), id, memberId)
      return c.body(null, 204)
    })
    .openapi(addresses, async (c) => c.json(await companies.addresses(requireActor(c.var.actor), c.req.valid('param').id), 200))
    .openapi(addAddress, async (c) => c.json(await companies.addAddress(requireActor(c.var.actor), c.req.valid('param').id, c.req.valid('json')), 201))
    .openapi(deleteAddress, async (c) => {
      const { id, addressId } = c.req.valid('param')
      await companies.deleteAddress(requireActor(c.var.actor), id, addressId)
      return c.body(null, 204)
    })
  for (const path of ['/company/{id}', '/companies/{id}']) {
    r.openapi(getOne(path), async (c) => {
      const company = await companies.get(requireActor(c.var.actor), c.req.valid('param').id)
      setETag(c, company.version)
      return c.json(company, 200)
    })
    r.openapi(put(path), async (c) => {
      const company = await companies.update(requireActor(c.var.actor), c.req.valid('param').id, c.req.valid('json'), ifMatchVersion(c))
      setETag(c, company.version)
      return c.json(company, 200)
    })
  }
  for (const action of lifecycleActions)
    for (const method of ['get', 'post'] as const)
      r.openapi(lifecycle(method, action), async (c) => {
        const company = await companies.transition(requireActor(c.var.actor), c.req.valid('param').id, action)
        setETag(c, company.version)
        return c.json(company, 200)
      })
  return r
}
