import { afterEach, describe, expect, it, vi } from 'vitest'
import Dexie from 'dexie'
import { createStore } from '../lib/store'
import { localDbName } from './local-db'
import { SESSION_KEY } from '../lib/storage-keys'
import { startEarlyPull } from './early-pull'
import { createSyncSession, type SignedIn, type SyncSession } from './sync-session'

const json = (status: number, body?: unknown) =>
  new Response(body === undefined ? null : JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } })

/** A server that accepts writes, answers pulls with nothing, or refuses every token. */
function server() {
  const state = { refuse: false, tokens: [] as string[] }
  const fetch = (async (_url: string, init: RequestInit) => {
    state.tokens.push((init.headers as Record<string, string>).Authorization ?? '')
    if (state.refuse) return json(401, { code: 'UNAUTHENTICATED', message: 'Sign in' })
    if (init.method === 'GET') return json(200, { changes: [], cursor: 'c', hasMore: false, reset: false })
    return json(200, {})
  }) as typeof globalThis.fetch
  return { state, fetch }
}

let session: SyncSession | undefined
afterEach(() => session?.dispose())

function setup(initial: SignedIn | null) {
  const signedIn = createStore<SignedIn | null>(initial)
  const srv = server()
  const onAuthPaused = vi.fn()
  session = createSyncSession({ current: signedIn.get, subscribe: signedIn.subscribe, getLocale: () => 'da', onAuthPaused, fetch: srv.fetch })
  return { signedIn, srv, onAuthPaused, session }
}

/** Waits for the state `check` looks for (expect.poll: up to the project's poll timeout, vitest.config.ts). */
const until = async (check: () => boolean | Promise<boolean>) => await expect.poll(check, { interval: 10 }).toBe(true)

describe('sync session', () => {
  it("opens the signed-in user's database, and another one when the user changes", async () => {
    const a = crypto.randomUUID()
    const b = crypto.randomUUID()
    const { signedIn, session } = setup({ userId: a, token: 'ta' })
    const first = session.store.get()!
    expect(first.db.name).toBe(localDbName(a))
    signedIn.set({ userId: b, token: 'tb' })
    expect(session.store.get()!.db.name).toBe(localDbName(b))
    await until(() => !first.db.isOpen())
    signedIn.set(null)
    expect(session.store.get()).toBeNull()
  })

  it('keeps the queue when the server refuses the token, and sends it after the same user signs in again', async () => {
    const userId = crypto.randomUUID()
    const { signedIn, srv, onAuthPaused, session } = setup({ userId, token: 'old' })
    srv.state.refuse = true
    const { engine, db } = session.store.get()!
    await engine.mutate({ kind: 'x', method: 'PATCH', path: '/notifications/n/read', entity: 'notification', entityId: 'n' })
    await until(() => onAuthPaused.mock.calls.length > 0)
    expect(onAuthPaused).toHaveBeenCalledWith('old')
    expect(await db.outbox.count()).toBe(1)

    // The app ends the session on the pause; the user signs in again as the same person.
    signedIn.set(null)
    srv.state.refuse = false
    signedIn.set({ userId, token: 'new' })
    const again = session.store.get()!
    await until(async () => (await again.db.outbox.count()) === 0)
    expect(srv.state.tokens.at(-1)).toBe('Bearer new')
  })

  it('resumes a paused queue when the token changes without a new session', async () => {
    const userId = crypto.randomUUID()
    const { signedIn, srv, onAuthPaused, session } = setup({ userId, token: 'old' })
    srv.state.refuse = true
    const { engine, db } = session.store.get()!
    await engine.mutate({ kind: 'x', method: 'PATCH', path: '/notifications/n/read', entity: 'notification', entityId: 'n' })
    await until(() => onAuthPaused.mock.calls.length > 0)
    srv.state.refuse = false
    signedIn.set({ userId, token: 'fresh' })
    expect(session.store.get()!.engine).toBe(engine)
    await until(async () => (await db.outbox.count()) === 0)
  })

  it("deletes the user's database on sign-out and does not reopen it before the session ends", async () => {
    const userId = crypto.randomUUID()
    const { signedIn, session } = setup({ userId, token: 't' })
    const { db } = session.store.get()!
    await db.outbox.add({
      mutationId: 'm',
      kind: 'x',
      method: 'DELETE',
      path: '/x',
      entity: 'notification',
      entityId: 'n',
      status: 'queued',
      attempts: 0,
      nextAttemptAt: 0,
      lastError: null,
      createdAt: 0,
    })
    await session.discardLocalData(userId)
    signedIn.set({ userId, token: 't' })
    expect(session.store.get()).toBeNull()
    expect(await Dexie.getDatabaseNames()).not.toContain(localDbName(userId))
    signedIn.set(null)
  })
})

describe('sync session after an early pull', () => {
  it('opens on the early pull’s database and pulls only once it has ended', async () => {
    const userId = crypto.randomUUID()
    // The first module's pull (early-pull.ts), held open until released.
    let release!: () => void
    const held = new Promise<void>((r) => (release = r))
    const early = server()
    startEarlyPull({ getItem: (key) => (key === SESSION_KEY ? JSON.stringify({ token: 't', user: { id: userId } }) : null) }, (async (
      url: string,
      init: RequestInit,
    ) => {
      await held
      return early.fetch(url, init)
    }) as typeof fetch)
    const { srv, session } = setup({ userId, token: 't' })
    const { db, engine } = session.store.get()!
    await new Promise((r) => setTimeout(r, 50))
    // While the early pull runs, the engine has not asked for a page of its own.
    expect(srv.state.tokens).toEqual([])
    expect(engine.status.get().syncing).toBe(true)
    release()
    await until(() => srv.state.tokens.length > 0)
    expect(early.state.tokens).toEqual(['Bearer t'])
    expect(db.isOpen()).toBe(true)
    expect((await db.meta.get('cursor'))?.value).toBe('c')
  })
})
