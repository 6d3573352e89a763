/**
 * The signed-in session: the access token and the user (AccountInfo), kept in localStorage so a
 * reload stays signed in (docs/PRODUCT.md §3, §4). A stored token is validated once at start with
 * GET /account/info; while that runs the status is 'validating'.
 */
import type { AccountInfo } from '../../../shared/contract/account'
import { localeOf } from '../../../shared/contract/values'
import { api, ApiError } from '../../lib/api'
import { lazySchema, loadSchemas } from '../../lib/schemas'
import { createStore, useStore } from '../../lib/store'
import { activateLocale } from '../../i18n/i18n'
import { SESSION_KEY } from '../../lib/storage-keys'

export interface SessionState {
  status: 'validating' | 'ready'
  token: string | null
  user: AccountInfo | null
}

/** The stored token, and the stored user as written (checked by `storedUser`). */
function readStored(): { token: string | null; user: unknown } {
  try {
    const raw = JSON.parse(localStorage.getItem(SESSION_KEY) ?? 'null') as { token?: unknown; user?: unknown } | null
    return typeof raw?.token === 'string' ? { token: raw.token, user: raw.user } : { token: null, user: null }
  } catch {
    return { token: null, user: null }
  }
}

/** The stored user if it still has the shape this version of the app reads; else none. */
async function storedUser(raw: unknown): Promise<AccountInfo | null> {
  const parsed = (await loadSchemas().catch(() => undefined))?.AccountInfo.safeParse(raw)
  return parsed?.success ? parsed.data : null
}

/**
 * Only settled sessions are written: while a stored token is being validated the stored session
 * stays as it was, so closing the tab in the meantime loses nothing.
 */
function persist(state: SessionState): void {
  if (state.status === 'validating') return
  try {
    if (state.token) localStorage.setItem(SESSION_KEY, JSON.stringify({ token: state.token, user: state.user }))
    else localStorage.removeItem(SESSION_KEY)
  } catch {
    // Storage unavailable: the session lasts for this page only.
  }
}

export const sessionStore = createStore<SessionState>({ status: 'ready', token: null, user: null })
sessionStore.subscribe(() => persist(sessionStore.get()))

let ready: Promise<void> = Promise.resolve()

/** Resolves once the start-up validation is over (route guards wait for it). */
export const whenSessionReady = (): Promise<void> => ready

export const isSignedIn = (state: SessionState = sessionStore.get()): boolean => state.token !== null && state.user !== null

export function clearSession(): void {
  sessionStore.set({ status: 'ready', token: null, user: null })
}

/** Stores a user that the server just returned (sign-in, validation, profile or company changes). */
export function setUser(user: AccountInfo): void {
  const { token } = sessionStore.get()
  if (token) sessionStore.set({ status: 'ready', token, user })
}

/** Applies a change the server confirmed (e.g. a profile field) to the stored user. */
export function patchUser(patch: Partial<AccountInfo>): void {
  const { user } = sessionStore.get()
  if (user) setUser({ ...user, ...patch })
}

/**
 * Takes a fresh access token, loads the user and applies the user's language. The first company
 * becomes the current one when the server has none yet (docs/PRODUCT.md §4).
 */
async function adoptToken(token: string): Promise<AccountInfo> {
  const current = sessionStore.get()
  sessionStore.set({ status: current.status, token, user: current.token === token ? current.user : null })
  let user = await api('GET', '/account/info', { schema: lazySchema('AccountInfo') })
  const first = user.companies[0]
  if (!user.currentCompany && first) {
    user = await api('POST', '/account/current-company', { body: { companyId: first.id }, schema: lazySchema('AccountInfo') }).catch(() => ({
      ...user,
      currentCompany: { id: first.id, name: first.name },
    }))
  }
  // A newer sign-in (e.g. a `?token=` link opened while the stored token was being checked) wins.
  if (!holds(token)) return user
  await activateLocale(localeOf(user.language))
  sessionStore.set({ status: 'ready', token, user })
  return user
}

const holds = (token: string) => sessionStore.get().token === token

/** Forgets the session unless another token has replaced this one meanwhile. */
const clearIfHeld = (token: string) => {
  if (holds(token)) clearSession()
}

/** Start-up: validate a stored token. A network failure keeps the stored user (offline start). */
export function startSession(): Promise<void> {
  const stored = readStored()
  const { token } = stored
  if (!token) return ready
  sessionStore.set({ status: 'validating', token, user: null })
  let user: AccountInfo | null = null
  ready = storedUser(stored.user)
    .then((found) => {
      // A newer sign-in (e.g. a `?token=` link) took over meanwhile: it decides.
      if (!holds(token)) return
      user = found
      // The stored user shows while the token is checked (offline it stays).
      if (!sessionStore.get().user) sessionStore.set({ status: sessionStore.get().status, token, user })
      return adoptToken(token)
    })
    .then(
      () => undefined,
      (error: unknown) => {
        if (!holds(token)) return
        if (error instanceof ApiError && error.status === 0 && user) sessionStore.set({ status: 'ready', token, user })
        else clearSession()
      },
    )
  return ready
}

/** Signs in with a fresh access token (after login, or `?authToken=`); failure clears the session. */
export async function signInWithAccessToken(token: string): Promise<void> {
  const attempt = adoptToken(token)
  // Guards wait on `ready`, which must settle without failing; the caller gets the error.
  ready = attempt.then(
    () => undefined,
    () => clearIfHeld(token),
  )
  await attempt
}

export const useSession = (): SessionState => useStore(sessionStore)
