import { createRoute } from '@hono/zod-openapi'
import { ForgotPasswordRequest, LoginRequest, LoginResponse, ResetPasswordRequest } from '../../../shared/contract/auth'
import { MessageResponse } from '../../../shared/contract/common'
import { translate } from '../../i18n/i18n'
import { bearer, errorResponses, json, jsonBody, router, writeHeaders } from '../../http/openapi'
import { requireActor } from '../access/actor'
import type { AuthService } from './auth.service'

const tags = ['Authentication']

const login = createRoute({
  method: 'post',
  path: '/auth/login',
  tags,
  summary: 'Sign in with e-mail and password, or with a login token (not in production)',
  request: jsonBody(LoginRequest),
  responses: { 200: { description: 'Signed in', ...json(LoginResponse) }, 400: errorResponses[400], 401: errorResponses[401], 429: errorResponses[429] },
})

const logout = createRoute({
  method: 'post',
  path: '/auth/logout',
  tags,
  summary: 'Revoke the current access token',
  security: bearer,
  request: { headers: writeHeaders },
  responses: { 204: { description: 'Signed out' }, 401: errorResponses[401] },
})

const forgot = createRoute({
  method: 'post',
  path: '/auth/forgot-password',
  tags,
  summary: 'E-mail a password reset link; the answer is the same whether or not the account exists',
  request: jsonBody(ForgotPasswordRequest),
  responses: { 200: { description: 'Request received', ...json(MessageResponse) }, 400: errorResponses[400], 429: errorResponses[429] },
})

const reset = createRoute({
  method: 'post',
  path: '/auth/reset-password',
  tags,
  summary: 'Set a new password with a reset link; signs the user out everywhere',
  request: jsonBody(ResetPasswordRequest),
  responses: { 200: { description: 'Password changed', ...json(MessageResponse) }, 400: errorResponses[400] },
})

const vipps = createRoute({
  method: 'get',
  path: '/auth/vipps',
  tags,
  summary: 'Start sign-in with Vipps MobilePay (browser navigation). Until Vipps Login is configured it returns to /login?error=vipps_unavailable',
  responses: { 302: { description: 'Redirect to the identity provider, or back to the login page' } },
})

export const authRoutes = (auth: AuthService) =>
  router()
    // Vipps Login (OIDC) arrives with the Vipps integration (issue #5); until then the button
    // brings the user back to the login page with a clear message instead of a dead end.
    .openapi(vipps, (c) => c.redirect('/login?error=vipps_unavailable', 302))
    .openapi(login, async (c) => c.json(await auth.login(c.req.valid('json'), c.var.clientIp), 200))
    .openapi(logout, (c) => {
      auth.logout(requireActor(c.var.actor))
      return c.body(null, 204)
    })
    .openapi(forgot, (c) => c.json({ message: translate(c.var.locale, auth.forgotPassword(c.req.valid('json').email, c.var.clientIp)) }, 200))
    .openapi(reset, async (c) => c.json({ message: translate(c.var.locale, await auth.resetPassword(c.req.valid('json'))) }, 200))
