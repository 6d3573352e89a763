import { z } from '@hono/zod-openapi'
import { route } from '../../http/route'
import {
  AccountInfo,
  AddAuthMethodRequest,
  ConfirmOwnerRequest,
  AddAuthMethodResponse,
  PatchProfileFieldRequest,
  Profile,
  ProfileField,
  SwitchCompanyRequest,
  UpdateAccountRequest,
  UserSearchQuery,
  UserSearchResult,
} from '../../../shared/contract/account'
import { bearer, errorResponses, json, jsonBody, router, versionedWriteHeaders, writeHeaders } from '../../http/openapi'
import { ifMatchVersion, setETag } from '../../http/versioning'
import { requireActor } from '../../access/actor'
import type { AccountService } from './account.service'

const tags = ['Account']
const e = errorResponses

const getInfo = route({
  rules: { access: 'signed-in', data: 'read' },
  method: 'get',
  path: '/account/info',
  tags,
  security: bearer,
  summary: 'The signed-in user with companies, current company and language',
  responses: { 200: { description: 'The user', ...json(AccountInfo) }, 401: e[401] },
})
const putInfo = route({
  rules: { access: 'signed-in', data: 'write' },
  method: 'put',
  path: '/account/info',
  tags,
  security: bearer,
  summary: 'Update several profile fields at once (a new emailAddress needs currentPassword and waits for the link sent to it)',
  request: { headers: versionedWriteHeaders, ...jsonBody(UpdateAccountRequest) },
  responses: { 200: { description: 'Updated', ...json(AccountInfo) }, 400: e[400], 401: e[401], 409: e[409], 412: e[412], 422: e[422], 429: e[429] },
})
const getProfile = route({
  rules: { access: 'signed-in', data: 'read' },
  method: 'get',
  path: '/account/profile',
  tags,
  security: bearer,
  summary: 'Profile with sign-in methods (secrets never returned)',
  responses: { 200: { description: 'The profile', ...json(Profile) }, 401: e[401] },
})
const patchField = route({
  rules: { access: 'signed-in', data: 'write' },
  method: 'patch',
  path: '/account/profile/{field}',
  tags,
  security: bearer,
  summary:
    'Change one profile field (fullName, emailAddress, mobileNumber, language EN|DA); emailAddress needs currentPassword and changes when the link sent to the new address is clicked (pendingEmailAddress until then)',
  request: { params: z.object({ field: ProfileField }), headers: versionedWriteHeaders, ...jsonBody(PatchProfileFieldRequest) },
  responses: { 200: { description: 'Updated profile', ...json(Profile) }, 400: e[400], 401: e[401], 409: e[409], 412: e[412], 422: e[422], 429: e[429] },
})
const switchCompany = route({
  rules: { access: 'signed-in', data: 'write' },
  method: 'post',
  path: '/account/current-company',
  tags,
  security: bearer,
  summary: "Make one of the user's companies the current one",
  request: { headers: writeHeaders, ...jsonBody(SwitchCompanyRequest) },
  responses: { 200: { description: 'The user with the new current company', ...json(AccountInfo) }, 400: e[400], 401: e[401], 404: e[404] },
})
const addMethod = route({
  rules: { access: 'signed-in', data: 'write' },
  method: 'post',
  path: '/account/auth-methods',
  tags,
  security: bearer,
  summary:
    'Add a sign-in method after confirming the owner (currentPassword, or a Vipps sign-in in the last 10 minutes); a LOGIN_TOKEN is generated and shown once as `token`; an EMAIL_PASSWORD stays unverified until the link e-mailed to it is clicked',
  request: { headers: writeHeaders, ...jsonBody(AddAuthMethodRequest) },
  responses: { 201: { description: 'Created', ...json(AddAuthMethodResponse) }, 400: e[400], 401: e[401], 409: e[409], 422: e[422], 429: e[429] },
})
const deleteMethod = route({
  rules: { access: 'signed-in', data: 'write' },
  method: 'delete',
  path: '/account/auth-methods/{id}',
  tags,
  security: bearer,
  summary:
    'Remove a sign-in method (not MOBILEPAY, not the last one) after confirming the owner: `currentPassword` in the JSON body, or a Vipps sign-in in the last 10 minutes',
  request: { params: z.object({ id: z.uuid() }), headers: writeHeaders, body: { ...json(ConfirmOwnerRequest), required: false } },
  responses: { 204: { description: 'Removed' }, 400: e[400], 401: e[401], 404: e[404], 422: e[422], 429: e[429] },
})
const searchUsers = route({
  rules: { access: 'signed-in', data: 'read' },
  method: 'get',
  path: '/account/users',
  tags,
  security: bearer,
  summary: 'Find users by e-mail (company staff and super admin; at least 3 characters)',
  request: { query: UserSearchQuery },
  responses: { 200: { description: 'Matching users', ...json(z.array(UserSearchResult)) }, 400: e[400], 401: e[401], 403: e[403] },
})

export const accountRoutes = (account: AccountService) =>
  router()
    .openapi(getInfo, async (c) => {
      const info = await account.info(requireActor(c.var.actor))
      setETag(c, info.version)
      return c.json(info, 200)
    })
    .openapi(putInfo, async (c) => c.json(await account.updateInfo(requireActor(c.var.actor), c.req.valid('json'), ifMatchVersion(c), c.var.clientIp), 200))
    .openapi(getProfile, async (c) => {
      const profile = await account.profile(requireActor(c.var.actor))
      setETag(c, profile.version)
      return c.json(profile, 200)
    })
    .openapi(patchField, async (c) => {
      const { value, currentPassword } = c.req.valid('json')
      const profile = await account.patchField(requireActor(c.var.actor), c.req.valid('param').field, value, {
        ifMatch: ifMatchVersion(c),
        currentPassword,
        clientIp: c.var.clientIp,
      })
      setETag(c, profile.version)
      return c.json(profile, 200)
    })
    .openapi(switchCompany, async (c) => c.json(await account.switchCompany(requireActor(c.var.actor), c.req.valid('json').companyId), 200))
    .openapi(addMethod, async (c) => {
      const added = await account.addAuthMethod(requireActor(c.var.actor), c.req.valid('json'), c.var.clientIp)
      // A generated token is shown once: a replay of this answer leaves it out (README "Security").
      if (added.data.token) {
        const { token: _shownOnce, ...method } = added.data
        c.set('replayBody', JSON.stringify({ data: method }))
      }
      return c.json(added, 201)
    })
    .openapi(deleteMethod, async (c) => {
      const body = (c.req.valid('json') as ConfirmOwnerRequest | undefined) ?? {}
      await account.deleteAuthMethod(requireActor(c.var.actor), c.req.valid('param').id, body.currentPassword, c.var.clientIp)
      return c.body(null, 204)
    })
    .openapi(searchUsers, async (c) => c.json(await account.searchUsers(requireActor(c.var.actor), c.req.valid('query').email), 200))
