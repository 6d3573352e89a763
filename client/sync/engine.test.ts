import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { liveQuery } from 'dexie'
import { drainOnce } from './drainer'
import { SyncEngine } from './engine'
import { LocalDb, deleteLocalDb, type Row } from './local-db'
import { enqueue } from './outbox'
import { answerAsRow, applyOutbox, applyToCanonical, reduce, registerAnsweredRow, registerReducer } from './optimistic'
import { applyChanges } from './pull'
import type { SyncTransport } from './transport'

registerReducer(
  't.read',
  reduce.patch(() => ({ isRead: true })),
)
registerReducer(
  't.readAll',
  reduce.patchAll(() => ({ isRead: true })),
)
registerReducer('t.delete', reduce.remove())
registerReducer(
  't.rename',
  reduce.patch(() => ({ title: 'guessed' })),
)
registerAnsweredRow('t.rename', answerAsRow)

const json = (status: number, body?: unknown) =>
  new Response(body === undefined ? null : JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } })
const emptyPull = () => json(200, { changes: [], cursor: 'c', hasMore: false, reset: false })

/** A server that is down until `up` is set; records the writes it receives. */
function fakeServer() {
  const state = { up: true, writes: [] as string[] }
  const transport: SyncTransport = {
    getToken: () => 't',
    getLocale: () => 'en',
    fetch: (async (url: string, init: RequestInit) => {
      if (!state.up) throw new TypeError('Failed to fetch')
      if (init.method === 'GET') return emptyPull()
      state.writes.push(`${init.method} ${url}`)
      return json(200, {})
    }) as typeof fetch,
  }
  return { state, transport }
}

let db: LocalDb
let userId: string
beforeEach(async () => {
  userId = crypto.randomUUID()
  db = new LocalDb(userId)
  await applyChanges(
    db,
    ['a', 'b'].map((id) => ({ entity: 'notification' as const, id, op: 'upsert' as const, version: 1, data: { id, isRead: false } })),
    'c0',
    false,
    0,
  )
})
afterEach(async () => {
  db.close()
  await deleteLocalDb(userId)
})

const m = (kind: string, entityId: string | null) => ({ kind, method: 'PATCH' as const, path: `/x/${entityId}`, entity: 'notification' as const, entityId })

describe('confirming a mutation', () => {
  it('folds a confirmed change into the canonical rows: one row, every row, or a removal', async () => {
    await applyToCanonical(db, { ...(await enqueue(db, m('t.read', 'a'))) })
    expect(await db.notifications.get('a')).toMatchObject({ isRead: true, _version: 1 })
    expect(await db.notifications.get('b')).toMatchObject({ isRead: false })
    await applyToCanonical(db, await enqueue(db, m('t.readAll', null)))
    expect((await db.notifications.toArray()).every((r) => r.isRead)).toBe(true)
    await applyToCanonical(db, await enqueue(db, m('t.delete', 'b')))
    expect(await db.notifications.get('b')).toBeUndefined()
  })

  it("keeps the server's answer instead of the local guess for kinds answered with the whole row, never an older one", async () => {
    await applyToCanonical(db, await enqueue(db, m('t.rename', 'a')), { id: 'a', version: 2, title: 'from server', isRead: false })
    expect(await db.notifications.get('a')).toEqual({ id: 'a', _version: 2, title: 'from server', isRead: false })
    await applyToCanonical(db, await enqueue(db, m('t.rename', 'a')), { id: 'a', version: 1, title: 'stale' })
    expect(await db.notifications.get('a')).toMatchObject({ _version: 2, title: 'from server' })
    // An answer that is not the row (no version, another id) falls back to the local reducer.
    await applyToCanonical(db, await enqueue(db, m('t.rename', 'b')), { ok: true })
    expect(await db.notifications.get('b')).toMatchObject({ title: 'guessed', _version: 1 })
  })

  it('never shows the row without the change between leaving the queue and the next pull', async () => {
    await enqueue(db, m('t.delete', 'a'))
    const views: { ids: string[]; queued: number }[] = []
    const sub = liveQuery(async () => {
      const outbox = await db.outbox.toArray()
      return { rows: applyOutbox(await db.notifications.toArray(), outbox, 'notification'), queued: outbox.length }
    }).subscribe(({ rows, queued }) => views.push({ ids: rows.map((r: Row) => r.id), queued }))
    // The screen's first view (the change queued), then the drain, then a view of the queue empty.
    await expect.poll(() => views.length).toBeGreaterThan(0)
    await drainOnce({ db, transport: fakeServer().transport, onConfirmed: (mutation) => applyToCanonical(db, mutation) })
    await expect.poll(() => views.at(-1)!.queued).toBe(0)
    sub.unsubscribe()
    expect(views.every((view) => !view.ids.includes('a'))).toBe(true)
  })
})

describe('SyncEngine', () => {
  it('sends a mutation made offline as soon as a pull gets through again, without waiting out its backoff', async () => {
    const server = fakeServer()
    server.state.up = false
    const engine = new SyncEngine(db, server.transport)
    await engine.mutate(m('t.read', 'a'))
    await engine.kick()
    expect(engine.status.get()).toMatchObject({ lastError: 'offline', online: false })
    const [waiting] = await db.outbox.toArray()
    expect(waiting!.nextAttemptAt).toBeGreaterThan(Date.now())

    server.state.up = true
    await engine.kick()
    await engine.kick()
    expect(server.state.writes).toEqual(['PATCH /api/x/a'])
    expect(await db.outbox.count()).toBe(0)
    expect(engine.status.get()).toMatchObject({ lastError: null, online: true })
    expect(engine.status.get().lastSyncedAt).not.toBeNull()
    await engine.stop()
  })

  it('with an empty queue, says offline while the server answers 502/503/504 or not at all, and online again once it answers', async () => {
    const state = { answer: (): Response => json(503, { code: 'UNAVAILABLE', message: 'down' }) }
    const transport: SyncTransport = { getToken: () => 't', getLocale: () => 'en', fetch: (async () => state.answer()) as unknown as typeof fetch }
    const engine = new SyncEngine(db, transport)
    for (const answer of [
      () => json(503, {}),
      () => json(502),
      () => json(504),
      (): Response => {
        throw new TypeError('Failed to fetch')
      },
    ]) {
      state.answer = answer
      await engine.kick()
      expect(await db.outbox.count()).toBe(0)
      expect(engine.status.get()).toMatchObject({ online: false, lastError: 'offline' })
    }
    state.answer = emptyPull
    await engine.kick()
    expect(engine.status.get()).toMatchObject({ online: true, lastError: null })
    await engine.stop()
  })

  it('"Sync now" sends what waits for its backoff', async () => {
    const server = fakeServer()
    const engine = new SyncEngine(db, server.transport)
    await enqueue(db, m('t.read', 'a'), Date.now() + 60_000)
    await engine.kick()
    expect(server.state.writes).toEqual([])
    await engine.syncNow()
    expect(server.state.writes).toEqual(['PATCH /api/x/a'])
    await engine.stop()
  })

  it('keeps the confirmed change in the canonical rows by default', async () => {
    const engine = new SyncEngine(db, fakeServer().transport)
    await engine.mutate(m('t.read', 'b'))
    await engine.kick()
    expect(await db.notifications.get('b')).toMatchObject({ isRead: true })
    await engine.stop()
  })

  it('reports a failing database in its status instead of throwing from a trigger', async () => {
    const engine = new SyncEngine(db, fakeServer().transport)
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined)
    db.close()
    await expect(engine.kick()).resolves.toBeUndefined()
    expect(logged).toHaveBeenCalled()
    logged.mockRestore()
    expect(engine.status.get()).toMatchObject({ lastError: 'error', syncing: false })
    await engine.stop()
  })
})

describe('a pull already running on the database (pullBefore)', () => {
  it('is waited for before the queue is sent: its pages, asked for before the change reached the server, never land on the confirmed row', async () => {
    let release!: () => void
    const early = new Promise<void>((r) => (release = r))
    const server = fakeServer()
    await enqueue(db, m('t.read', 'a'))
    const engine = new SyncEngine(db, server.transport, { pullBefore: early })
    engine.start()
    await new Promise((r) => setTimeout(r, 30))
    expect(server.state.writes).toEqual([])
    release()
    await expect.poll(() => server.state.writes).toEqual(['PATCH /api/x/a'])
    await engine.stop()
  })

  it('is waited for, and an engine stopped meanwhile (sign-out, another user) does not pull after it', async () => {
    let release!: () => void
    const early = new Promise<void>((r) => (release = r))
    const pulls: string[] = []
    const transport: SyncTransport = {
      getToken: () => 't',
      getLocale: () => 'en',
      fetch: (async (url: string, init: RequestInit) => {
        if (init.method === 'GET') pulls.push(url)
        return emptyPull()
      }) as typeof fetch,
    }
    const engine = new SyncEngine(db, transport, { pullBefore: early })
    // Syncing from the start, before the session has started it: never "synced" while rows are stored.
    expect(engine.status.get().syncing).toBe(true)
    engine.start()
    await new Promise((r) => setTimeout(r, 30))
    expect(pulls).toEqual([])
    const stopped = engine.stop()
    release()
    await stopped
    await new Promise((r) => setTimeout(r, 30))
    // The database is about to be closed (or deleted): a fresh pull would only fail on it, or
    // race the next session's pull on a connection of its own.
    expect(pulls).toEqual([])
  })
})
