import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { awaitServer, withdraw } from './await-server'
import { SyncEngine } from './engine'
import { LocalDb, deleteLocalDb } from './local-db'
import { enqueue } from './outbox'
import { registerReducer, reduce } from './optimistic'
import type { SyncTransport } from './transport'

registerReducer(
  'w.write',
  reduce.patch(() => ({})),
)

const json = (status: number, body?: unknown) =>
  new Response(body === undefined ? null : JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } })

/** A server answering every write with `write()`, and the pull with nothing new (or 503 while down). */
function server(write: () => Response) {
  const state = { down: false }
  const transport: SyncTransport = {
    getToken: () => 't',
    getLocale: () => 'en',
    fetch: (async (_url: string, init: RequestInit) => {
      if (state.down) return json(503, { message: 'down' })
      if (init.method === 'GET') return json(200, { changes: [], cursor: 'c', hasMore: false, reset: false })
      return write()
    }) as typeof fetch,
  }
  return { state, transport }
}

const change = (entityId: string) => ({ kind: 'w.write', method: 'POST' as const, path: `/x/${entityId}`, entity: 'message' as const, entityId })

let db: LocalDb
let userId: string
let engine: SyncEngine | undefined
beforeEach(() => {
  userId = crypto.randomUUID()
  db = new LocalDb(userId)
})
afterEach(async () => {
  await engine?.stop()
  db.close()
  await deleteLocalDb(userId)
})

describe('awaitServer (issue #17 item 6)', () => {
  it('is accepted only once the server confirmed every change', async () => {
    engine = new SyncEngine(db, server(() => json(201, {})).transport)
    const ids = [(await engine.mutate(change('a'))).mutationId, (await engine.mutate(change('a'))).mutationId]
    expect(await awaitServer({ db, engine }, ids, () => true)).toEqual({ outcome: 'accepted' })
    expect(await db.outbox.count()).toBe(0)
  })

  it('is queued, waiting for the server, while the server answers 503; the change stays kept', async () => {
    const s = server(() => json(201, {}))
    s.state.down = true
    engine = new SyncEngine(db, s.transport)
    const { mutationId } = await engine.mutate(change('a'))
    expect(await awaitServer({ db, engine }, [mutationId], () => true)).toEqual({ outcome: 'queued', waitingFor: 'server' })
    expect(await db.outbox.count()).toBe(1)
  })

  it('is queued, waiting for the connection, while the browser is offline', async () => {
    engine = new SyncEngine(db, server(() => json(201, {})).transport)
    // Queued while offline: nothing was sent.
    const { mutationId } = await enqueue(db, change('a'))
    expect(await awaitServer({ db, engine }, [mutationId], () => false)).toEqual({ outcome: 'queued', waitingFor: 'connection' })
  })

  it('names the refused change; withdrawing takes it and those waiting on it out of the queue', async () => {
    engine = new SyncEngine(db, server(() => json(422, { message: 'Subject is too long' })).transport)
    const ids = [(await engine.mutate(change('a'))).mutationId, (await engine.mutate(change('a'))).mutationId]
    const result = await awaitServer({ db, engine }, ids, () => true)
    expect(result).toMatchObject({ outcome: 'rejected', mutation: { mutationId: ids[0], lastError: 'Subject is too long' } })
    await withdraw(db, ids)
    expect(await db.outbox.count()).toBe(0)
  })
})
