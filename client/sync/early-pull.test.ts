import { afterEach, describe, expect, it, vi } from 'vitest'
import type { SyncChange } from '../../shared/contract/sync'
import { LOCALE_KEY, SESSION_KEY } from '../lib/storage-keys'
import { adoptEarlyPull, startEarlyPull } from './early-pull'
import Dexie from 'dexie'
import { deleteLocalDb, LocalDb, localDbName } from './local-db'

const note = (id: string): SyncChange => ({ entity: 'notification', id, op: 'upsert', version: 1, data: { id } })

/** localStorage as the app leaves it: a signed-in session (token + user) and maybe a locale. */
const storage = (entries: Record<string, string>): Pick<Storage, 'getItem'> => ({ getItem: (key) => entries[key] ?? null })
const signedIn = (userId: string, extra: Record<string, string> = {}) =>
  storage({ [SESSION_KEY]: JSON.stringify({ token: 'tok-1', user: { id: userId, name: 'Emma' } }), ...extra })

/** A server with two pages of notifications; `refuse` answers 401. Records every request. */
function server(opts: { refuse?: boolean } = {}) {
  const requests: { url: string; headers: Record<string, string> }[] = []
  const list = [[note('a'), note('b')], [note('c')]]
  const fetch = (async (url: string, init: RequestInit) => {
    requests.push({ url, headers: init.headers as Record<string, string> })
    if (opts.refuse) return new Response(JSON.stringify({ code: 'UNAUTHENTICATED', message: 'Sign in' }), { status: 401 })
    const cursor = new URL(`http://x${url}`).searchParams.get('cursor')
    const n = cursor ? Number(cursor.slice(1)) : 0
    return new Response(JSON.stringify({ changes: list[n] ?? [], cursor: `c${Math.min(n + 1, list.length)}`, hasMore: n + 1 < list.length, reset: false }), {
      status: 200,
      headers: { 'Content-Type': 'application/json' },
    })
  }) as typeof globalThis.fetch
  return { fetch, requests }
}

const opened: string[] = []
afterEach(async () => {
  // Whatever a test left behind: its early pull is dropped and the databases deleted.
  adoptEarlyPull('')
  for (const userId of opened.splice(0)) await deleteLocalDb(userId)
})
const newUser = () => {
  const userId = crypto.randomUUID()
  opened.push(userId)
  return userId
}

describe('the early pull', () => {
  it('does nothing without a stored session', () => {
    const srv = server()
    startEarlyPull(storage({}), srv.fetch)
    startEarlyPull(storage({ [SESSION_KEY]: '{"token":"t"}' }), srv.fetch)
    startEarlyPull(storage({ [SESSION_KEY]: 'not json' }), srv.fetch)
    expect(srv.requests).toEqual([])
    expect(adoptEarlyPull('anyone')).toBeUndefined()
  })

  it('never throws when the site’s storage is blocked (reading localStorage throws)', () => {
    // Chromium with the site's data blocked: the `localStorage` getter itself throws. main.tsx
    // must still go on to load the app, which then starts signed out.
    const descriptor = Object.getOwnPropertyDescriptor(globalThis, 'localStorage')
    Object.defineProperty(globalThis, 'localStorage', {
      configurable: true,
      get: () => {
        throw new DOMException('Access is denied for this document.', 'SecurityError')
      },
    })
    try {
      expect(() => startEarlyPull()).not.toThrow()
      expect(adoptEarlyPull('anyone')).toBeUndefined()
    } finally {
      if (descriptor) Object.defineProperty(globalThis, 'localStorage', descriptor)
      else delete (globalThis as { localStorage?: Storage }).localStorage
    }
  })

  it('pulls every page into the stored user’s database with the stored token and locale', async () => {
    const userId = newUser()
    const srv = server()
    startEarlyPull(signedIn(userId, { [LOCALE_KEY]: 'da' }), srv.fetch)
    const early = adoptEarlyPull(userId)!
    expect(await early.pulled).toMatchObject({ status: 'ok', applied: 3 })
    expect((await early.db.notifications.toArray()).map((r) => r.id).sort()).toEqual(['a', 'b', 'c'])
    expect(srv.requests.map((r) => r.headers.Authorization)).toEqual(['Bearer tok-1', 'Bearer tok-1'])
    expect(srv.requests.every((r) => r.headers['Accept-Language'] === 'da')).toBe(true)
    // It is the user's own database: the app opening it sees the rows and the cursor.
    const again = new LocalDb(userId)
    expect((await again.meta.get('cursor'))?.value).toBe('c2')
    again.close()
    early.db.close()
  })

  it('is adopted once, and only by its own user', async () => {
    const userId = newUser()
    const close = vi.spyOn(LocalDb.prototype, 'close')
    try {
      startEarlyPull(signedIn(userId), server().fetch)
      expect(adoptEarlyPull('someone-else')).toBeUndefined()
      // Dropped: a later adoption by the right user finds nothing (the engine pulls by itself).
      expect(adoptEarlyPull(userId)).toBeUndefined()
      // The dropped pull ends and closes its database.
      await expect.poll(() => close.mock.calls.length).toBe(1)
    } finally {
      close.mockRestore()
    }

    startEarlyPull(signedIn(userId), server().fetch)
    const early = adoptEarlyPull(userId)
    expect(early).toBeDefined()
    expect(adoptEarlyPull(userId)).toBeUndefined()
    await early!.pulled
    early!.db.close()
  })

  it('closes a database nobody adopted once its pull has ended', async () => {
    const close = vi.spyOn(LocalDb.prototype, 'close')
    try {
      const userId = newUser()
      startEarlyPull(signedIn(userId), server().fetch)
      adoptEarlyPull('someone-else')
      await expect.poll(() => close.mock.calls.length).toBe(1)
    } finally {
      close.mockRestore()
    }
  })

  it('stops when another tab deletes the database (its user signed out there): the pages still arriving never recreate it', async () => {
    const userId = newUser()
    let release!: () => void
    const held = new Promise<void>((r) => (release = r))
    const srv = server()
    let asked = 0
    const fetchFn = (async (url: string, init: RequestInit) => {
      asked++
      if (url.includes('cursor=')) await held
      return srv.fetch(url, init)
    }) as typeof fetch
    startEarlyPull(signedIn(userId), fetchFn)
    const early = adoptEarlyPull(userId)!
    // The first page is stored, the second is on its way.
    await expect.poll(() => asked).toBe(2)
    await expect.poll(() => early.db.notifications.count()).toBe(2)
    await deleteLocalDb(userId)
    release()
    await early.pulled
    expect(await Dexie.exists(localDbName(userId))).toBe(false)
  })

  it('ends on a refused token without storing anything', async () => {
    const userId = newUser()
    const srv = server({ refuse: true })
    startEarlyPull(signedIn(userId), srv.fetch)
    const early = adoptEarlyPull(userId)!
    expect(await early.pulled).toMatchObject({ status: 'unauthorized', applied: 0 })
    expect(await early.db.notifications.count()).toBe(0)
    early.db.close()
  })
})
