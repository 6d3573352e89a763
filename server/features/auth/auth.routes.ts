import { z } from '@hono/zod-openapi'
import { route } from '../../http/route'
import { ConfirmEmailRequest, ForgotPasswordRequest, LoginRequest, LoginResponse, ResetPasswordRequest } from '../../../shared/contract/auth'
import { ConfirmOwnerRequest, VippsLinkResponse } from '../../../shared/contract/account'
import { deleteCookie, getCookie, setCookie } from 'hono/cookie'
import type { Context } from 'hono'
import { MessageResponse } from '../../../shared/contract/common'
import { translate } from '../../i18n/i18n'
import { bearer, errorResponses, json, jsonBody, router, writeHeaders } from '../../http/openapi'
import { requireActor } from '../../access/actor'
import type { AuthService } from './auth.service'
import type { VippsLoginService } from './vipps-login.service'
import type { IdentityService } from './identity.service'

const tags = ['Authentication']

/** The Vipps Login state, kept by the browser that started the flow (checked at the callback). */
const STATE_COOKIE = 'bk_vipps_state'
const STATE_PATH = '/api/auth/vipps'
function rememberState(c: Context, state: string) {
  setCookie(c, STATE_COOKIE, state, { path: STATE_PATH, httpOnly: true, sameSite: 'Lax', secure: new URL(c.req.url).protocol === 'https:', maxAge: 600 })
}

const login = route({
  rules: {
    access: 'public',
    data: 'own-steps',
    why: 'checks the password (and slows an account under attack) without holding the write lock',
    unbatched: true,
  },
  method: 'post',
  path: '/auth/login',
  tags,
  summary: 'Sign in with e-mail and password, or with a login token (not in production)',
  request: jsonBody(LoginRequest),
  responses: { 200: { description: 'Signed in', ...json(LoginResponse) }, 400: errorResponses[400], 401: errorResponses[401], 429: errorResponses[429] },
})

const logout = route({
  rules: { access: 'signed-in', data: 'write', unbatched: true },
  method: 'post',
  path: '/auth/logout',
  tags,
  summary: 'Revoke the current access token',
  security: bearer,
  request: { headers: writeHeaders },
  responses: { 204: { description: 'Signed out' }, 401: errorResponses[401] },
})

const forgot = route({
  rules: { access: 'public', data: 'write', unbatched: true },
  method: 'post',
  path: '/auth/forgot-password',
  tags,
  summary: 'E-mail a password reset link; the answer is the same whether or not the account exists',
  request: jsonBody(ForgotPasswordRequest),
  responses: { 200: { description: 'Request received', ...json(MessageResponse) }, 400: errorResponses[400], 429: errorResponses[429] },
})

const reset = route({
  rules: { access: 'public', data: 'write', unbatched: true },
  method: 'post',
  path: '/auth/reset-password',
  tags,
  summary: 'Set a new password with a reset link; signs the user out everywhere',
  request: jsonBody(ResetPasswordRequest),
  responses: { 200: { description: 'Password changed', ...json(MessageResponse) }, 400: errorResponses[400] },
})

const confirmEmail = route({
  rules: { access: 'public', data: 'write', unbatched: true },
  method: 'post',
  path: '/auth/confirm-email',
  tags,
  summary: 'Use an e-mail confirmation link: proves the address for an added e-mail sign-in or an e-mail change',
  request: jsonBody(ConfirmEmailRequest),
  responses: { 200: { description: 'Confirmed', ...json(MessageResponse) }, 400: errorResponses[400], 409: errorResponses[409] },
})

const vippsLink = route({
  rules: { access: 'signed-in', data: 'own-steps', calls: 'vipps', unbatched: true },
  method: 'post',
  path: '/auth/vipps/link',
  tags,
  security: bearer,
  summary:
    'Start linking Vipps MobilePay to the signed-in account after confirming the owner (`currentPassword`, or a Vipps sign-in in the last 10 minutes): the browser goes to `url`, and Vipps returns to /user',
  request: { headers: writeHeaders, body: { ...json(ConfirmOwnerRequest), required: false } },
  responses: {
    200: { description: 'Where to send the browser', ...json(VippsLinkResponse) },
    400: errorResponses[400],
    401: errorResponses[401],
    422: errorResponses[422],
    429: errorResponses[429],
    503: { description: 'Vipps Login is not available right now (`PROVIDER_UNAVAILABLE`)' },
  },
})

const vipps = route({
  rules: { access: 'public', data: 'own-steps', calls: 'vipps' },
  method: 'get',
  path: '/auth/vipps',
  tags,
  summary:
    'Start sign-in with Vipps MobilePay (browser navigation): redirects to Vipps Login with PKCE, state and nonce; without Vipps Login back to /login?error=vipps_unavailable',
  responses: { 302: { description: 'Redirect to Vipps Login, or back to the login page' } },
})

const vippsCallback = route({
  rules: { access: 'public', data: 'own-steps', calls: 'vipps' },
  method: 'get',
  path: '/auth/vipps/callback',
  tags,
  summary: 'Where Vipps Login returns: signs the user in and lands in the app (/?authToken=…), or back to /login?error=…',
  request: { query: z.object({ code: z.string().max(2000).optional(), state: z.string().max(200).optional(), error: z.string().max(200).optional() }) },
  responses: { 302: { description: 'Into the app, or back to the login page with the reason' } },
})

export const authRoutes = (auth: AuthService, vippsLogin: VippsLoginService, identity: IdentityService) =>
  router()
    .openapi(vippsLink, async (c) => {
      const body = (c.req.valid('json') as ConfirmOwnerRequest | undefined) ?? {}
      const { url, state } = await vippsLogin.startLink(requireActor(c.var.actor), body.currentPassword, c.var.clientIp)
      rememberState(c, state)
      return c.json({ url }, 200)
    })
    .openapi(confirmEmail, async (c) => c.json({ message: translate(c.var.locale, await identity.confirmEmail(c.req.valid('json').token)) }, 200))
    .openapi(vipps, async (c) => {
      const started = await vippsLogin.start()
      if (!started) return c.redirect('/login?error=vipps_unavailable', 302)
      rememberState(c, started.state)
      return c.redirect(started.url, 302)
    })
    .openapi(vippsCallback, async (c) => {
      const { code, state, error } = c.req.valid('query')
      const outcome = await vippsLogin.callback(code, state, error, getCookie(c, STATE_COOKIE))
      deleteCookie(c, STATE_COOKIE, { path: STATE_PATH })
      if (outcome.ok && 'linked' in outcome) return c.redirect('/user?vipps=linked', 302)
      if (!outcome.ok && outcome.linking) return c.redirect(`/user?vipps=${outcome.error}`, 302)
      return c.redirect(outcome.ok ? `/?authToken=${encodeURIComponent(outcome.accessToken)}` : `/login?error=${outcome.error}`, 302)
    })
    .openapi(login, async (c) => c.json(await auth.login(c.req.valid('json'), c.var.clientIp), 200))
    .openapi(logout, async (c) => {
      await auth.logout(requireActor(c.var.actor))
      return c.body(null, 204)
    })
    .openapi(forgot, async (c) => c.json({ message: translate(c.var.locale, await auth.forgotPassword(c.req.valid('json').email, c.var.clientIp)) }, 200))
    .openapi(reset, async (c) => c.json({ message: translate(c.var.locale, await auth.resetPassword(c.req.valid('json'))) }, 200))
