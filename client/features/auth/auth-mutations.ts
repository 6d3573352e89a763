/** Sign-in, sign-out and password reset calls (spec §7 "Account and authentication"). */
import { LoginResponse, type LoginRequest } from '../../../shared/contract/auth'
import { MessageResponse } from '../../../shared/contract/common'
import { api, type ActionKey } from '../../lib/api'
import { clearSession, signInWithAccessToken } from './session'

/** Signs in by e-mail and password or by login token, then loads the user. */
export async function signIn(request: LoginRequest, action?: ActionKey): Promise<void> {
  const { accessToken } = await api('POST', '/auth/login', { body: request, schema: LoginResponse, action })
  await signInWithAccessToken(accessToken)
}

/** Revokes the token on the server (best effort) and forgets the session here. */
export async function signOut(): Promise<void> {
  await api('POST', '/auth/logout').catch(() => undefined)
  clearSession()
}

export async function requestPasswordReset(email: string, action?: ActionKey): Promise<string> {
  return (await api('POST', '/auth/forgot-password', { body: { email }, schema: MessageResponse, action })).message
}

export async function resetPassword(body: { token: string; email?: string; newPassword: string }, action?: ActionKey): Promise<string> {
  return (await api('POST', '/auth/reset-password', { body, schema: MessageResponse, action })).message
}
