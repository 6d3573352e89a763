/** Sign-in, sign-out and password reset calls (docs/PRODUCT.md §7 "Account and authentication"). */
import type { LoginRequest } from '../../../shared/contract/auth'
import { api, type ActionKey } from '../../lib/api'
import { lazySchema } from '../../lib/schemas'
import { discardLocalData } from '../../sync/use-sync'
import { clearSession, sessionStore, setUser, signInWithAccessToken } from './session'

/** Signs in by e-mail and password or by login token, then loads the user. */
export async function signIn(request: LoginRequest, action?: ActionKey): Promise<void> {
  const { accessToken } = await api('POST', '/auth/login', { body: request, schema: lazySchema('LoginResponse'), action })
  await signInWithAccessToken(accessToken)
}

/**
 * Deletes this device's copy of the user's data (queue included: the caller has asked), revokes
 * the token on the server (best effort: offline it simply expires) and forgets the session here.
 */
export async function signOut(): Promise<void> {
  const { token, user } = sessionStore.get()
  if (user) await discardLocalData(user.id)
  // Forgotten before the server is asked (a round trip): a tab opened meanwhile would otherwise
  // start with this session and pull the deleted data back (client/sync/early-pull.ts).
  clearSession()
  if (token) await api('POST', '/auth/logout', { token }).catch(() => undefined)
}

export async function requestPasswordReset(email: string, action?: ActionKey): Promise<string> {
  return (await api('POST', '/auth/forgot-password', { body: { email }, schema: lazySchema('MessageResponse'), action })).message
}

export async function resetPassword(body: { token: string; email?: string; newPassword: string }, action?: ActionKey): Promise<string> {
  return (await api('POST', '/auth/reset-password', { body, schema: lazySchema('MessageResponse'), action })).message
}

/** Uses an e-mail confirmation link (`/confirm-email?token=`); resolves to the server's message. */
export async function confirmEmail(token: string, action?: ActionKey): Promise<string> {
  return (await api('POST', '/auth/confirm-email', { body: { token }, schema: lazySchema('MessageResponse'), action })).message
}

/** Reloads the signed-in user (e.g. after a confirmed e-mail change moved the account's address). */
export async function refreshUser(): Promise<void> {
  setUser(await api('GET', '/account/info', { schema: lazySchema('AccountInfo') }))
}
