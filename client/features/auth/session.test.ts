import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'

vi.mock('../../i18n/i18n', () => ({ activateLocale: vi.fn(async () => undefined) }))

const companyA = { id: '00000000-0000-4000-8000-00000000000a', name: 'AB Solbakken', role: 'CHAIRMAN' as const }
const info = (over: Record<string, unknown> = {}) => ({
  id: '00000000-0000-4000-8000-000000000001',
  fullName: 'Karen Holm',
  emailAddress: 'karen@example.dk',
  mobileNumber: null,
  userRole: 'MEMBER',
  language: 'DA',
  companies: [companyA],
  currentCompany: { id: companyA.id, name: companyA.name },
  notifications: [],
  version: 1,
  ...over,
})
const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } })

function memoryStorage() {
  const data = new Map<string, string>()
  return {
    getItem: (k: string) => data.get(k) ?? null,
    setItem: (k: string, v: string) => void data.set(k, v),
    removeItem: (k: string) => void data.delete(k),
  }
}

let fetchMock: ReturnType<typeof vi.fn>

/** A fresh session module wired to the API client, as app.tsx does. */
async function load(stored?: { token: string; user: unknown }) {
  vi.resetModules()
  const storage = memoryStorage()
  if (stored) storage.setItem('boligkasse.session', JSON.stringify(stored))
  vi.stubGlobal('localStorage', storage)
  const session = await import('./session')
  const { configureApi } = await import('../../lib/api')
  configureApi({ getToken: () => session.sessionStore.get().token, getLocale: () => 'en', onUnauthorized: () => {} })
  return { session, storage }
}

beforeEach(() => {
  fetchMock = vi.fn()
  vi.stubGlobal('fetch', fetchMock)
})
afterEach(() => vi.unstubAllGlobals())

describe('session start', () => {
  it('validates a stored token and keeps the fresh user', async () => {
    fetchMock.mockResolvedValue(json(200, info({ fullName: 'Karen H. Holm' })))
    const { session, storage } = await load({ token: 'abc', user: info() })
    const started = session.startSession()
    expect(session.sessionStore.get().status).toBe('validating')
    await started
    expect(session.sessionStore.get()).toMatchObject({ status: 'ready', token: 'abc', user: { fullName: 'Karen H. Holm' } })
    expect(JSON.parse(storage.getItem('boligkasse.session')!)).toMatchObject({ token: 'abc' })
  })

  it('leaves the stored session as it was while the token is checked (a tab closed meanwhile loses nothing)', async () => {
    let answer: (r: Response) => void = () => {}
    fetchMock.mockImplementation(() => new Promise<Response>((resolve) => (answer = resolve)))
    const stored = { token: 'abc', user: info() }
    const { session, storage } = await load(stored)
    const started = session.startSession()
    await expect.poll(() => session.sessionStore.get().user).toMatchObject({ fullName: stored.user.fullName })
    expect(session.sessionStore.get().status).toBe('validating')
    expect(JSON.parse(storage.getItem('boligkasse.session')!)).toEqual(stored)
    answer(json(200, info({ fullName: 'Karen H. Holm' })))
    await started
    expect(JSON.parse(storage.getItem('boligkasse.session')!)).toMatchObject({ token: 'abc', user: { fullName: 'Karen H. Holm' } })
  })

  it('does not trust a stored user of another shape (an older version of the app) offline', async () => {
    fetchMock.mockRejectedValue(new TypeError('Failed to fetch'))
    const { session } = await load({ token: 'abc', user: { id: 'x', name: 'no such shape' } })
    await session.startSession()
    expect(session.isSignedIn()).toBe(false)
  })

  it('clears the session when the server refuses the stored token', async () => {
    fetchMock.mockResolvedValue(json(401, { message: 'Please sign in again.', code: 'UNAUTHENTICATED' }))
    const { session, storage } = await load({ token: 'old', user: info() })
    await session.startSession()
    expect(session.sessionStore.get()).toMatchObject({ status: 'ready', token: null, user: null })
    expect(storage.getItem('boligkasse.session')).toBeNull()
  })

  it('keeps the stored user when the server cannot be reached (offline start)', async () => {
    fetchMock.mockRejectedValue(new TypeError('Failed to fetch'))
    const { session } = await load({ token: 'abc', user: info() })
    await session.startSession()
    expect(session.isSignedIn()).toBe(true)
  })

  it('makes the first company current when the server has none', async () => {
    const withCurrent = info()
    fetchMock.mockResolvedValueOnce(json(200, info({ currentCompany: null }))).mockResolvedValueOnce(json(200, withCurrent))
    const { session } = await load()
    await session.signInWithAccessToken('new')
    const [url, init] = fetchMock.mock.calls[1]!
    expect(url).toBe('/api/account/current-company')
    expect(JSON.parse(init.body)).toEqual({ companyId: companyA.id })
    expect(session.sessionStore.get().user?.currentCompany?.id).toBe(companyA.id)
  })

  it('lets a newer sign-in win over the start-up check of an older token', async () => {
    let answerOld: (r: Response) => void = () => {}
    fetchMock.mockImplementation((_url: string, init: RequestInit) => {
      const auth = (init.headers as Record<string, string>).Authorization
      if (auth === 'Bearer old') return new Promise<Response>((resolve) => (answerOld = resolve))
      return Promise.resolve(json(200, info({ fullName: 'New User' })))
    })
    const { session } = await load({ token: 'old', user: info() })
    const started = session.startSession()
    await session.signInWithAccessToken('new')
    answerOld(json(401, { message: 'Please sign in again.', code: 'UNAUTHENTICATED' }))
    await started
    expect(session.sessionStore.get()).toMatchObject({ token: 'new', user: { fullName: 'New User' } })
  })

  it('never lets route guards fail: a refused sign-in still settles the ready promise', async () => {
    fetchMock.mockResolvedValue(json(401, { message: 'Please sign in again.', code: 'UNAUTHENTICATED' }))
    const { session } = await load()
    await expect(session.signInWithAccessToken('bogus')).rejects.toMatchObject({ status: 401 })
    await expect(session.whenSessionReady()).resolves.toBeUndefined()
    expect(session.isSignedIn()).toBe(false)
  })
})

describe('sign-out', () => {
  it('forgets the session here before asking the server to revoke its token, and revokes that token', async () => {
    const { session, storage } = await load({ token: 'abc', user: info() })
    fetchMock.mockResolvedValueOnce(json(200, info()))
    await session.startSession()
    const { signOut } = await import('./auth-mutations')
    let storedDuringLogout: string | null = 'not asked'
    fetchMock.mockImplementation(async (url: string, init: RequestInit) => {
      if (url.endsWith('/auth/logout')) {
        // A tab opened now must not find this session (it would start an early pull with it).
        storedDuringLogout = storage.getItem('boligkasse.session')
        expect((init.headers as Record<string, string>).Authorization).toBe('Bearer abc')
      }
      return json(200, { message: 'ok' })
    })
    await signOut()
    expect(storedDuringLogout).toBeNull()
    expect(fetchMock.mock.calls.map(([url]) => String(url))).toContain('/api/auth/logout')
    expect(session.sessionStore.get()).toMatchObject({ token: null, user: null })
  })
})
