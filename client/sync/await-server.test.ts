import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { awaitServer, withdraw } from './await-server'
import { SyncEngine } from './engine'
import { LocalDb, deleteLocalDb } from './local-db'
import { enqueue } from './outbox'
import { registerReducer, reduce } from './optimistic'
import type { SyncTransport } from './transport'
import { MESSAGE_SEND, MESSAGE_UPDATE } from '../features/messages/message-mutations'

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

describe('awaitServer: success only once the server has every change', () => {
  it('is accepted only once the server confirmed every change', async () => {
    engine = new SyncEngine(db, server(() => json(201, {})).transport)
    const queued = [await engine.mutate(change('a')), await engine.mutate(change('a'))]
    expect(await awaitServer({ db, engine }, queued, () => true)).toEqual({ outcome: 'accepted' })
    expect(await db.outbox.count()).toBe(0)
  })

  it('is queued, waiting for the server, while the server answers 503; the change stays kept', async () => {
    const s = server(() => json(201, {}))
    s.state.down = true
    engine = new SyncEngine(db, s.transport)
    const queued = await engine.mutate(change('a'))
    expect(await awaitServer({ db, engine }, [queued], () => true)).toEqual({ outcome: 'queued', waitingFor: 'server' })
    expect(await db.outbox.count()).toBe(1)
  })

  it('is queued, waiting for the connection, while the browser is offline', async () => {
    engine = new SyncEngine(db, server(() => json(201, {})).transport)
    // Queued while offline: nothing was sent.
    const queued = await enqueue(db, change('a'))
    expect(await awaitServer({ db, engine }, [queued], () => false)).toEqual({ outcome: 'queued', waitingFor: 'connection' })
  })

  it('names the refused change; withdrawing takes it and those waiting on it out of the queue', async () => {
    engine = new SyncEngine(db, server(() => json(422, { message: 'Subject is too long' })).transport)
    const queued = [await engine.mutate(change('a')), await engine.mutate(change('a'))]
    const result = await awaitServer({ db, engine }, queued, () => true)
    expect(result).toMatchObject({ outcome: 'rejected', mutation: { mutationId: queued[0]!.mutationId, lastError: 'Subject is too long' } })
    await withdraw(db, queued)
    expect(await db.outbox.count()).toBe(0)
  })

  it('withdraws a refused change that a 412 merge sent again under a new id, and the send that waited on it', async () => {
    // Our draft edit meets another device's edit of another field (412, merged and sent again), then is refused.
    const draft = { id: 'm1', type: 'MESSAGE', subject: 'Old', body: 'Text', recipient: { kind: 'BOARD' }, scheduledAt: null }
    const answers = [
      json(412, { code: 'VERSION_CONFLICT', message: 'Changed elsewhere', current: { ...draft, body: 'Text edited elsewhere', version: 4 } }),
      json(422, { message: 'Subject is too long' }),
    ]
    engine = new SyncEngine(db, server(() => answers.shift() ?? json(201, {})).transport)
    const update = await engine.mutate({
      kind: MESSAGE_UPDATE,
      method: 'PATCH',
      path: '/messages/m1',
      body: { subject: 'New' },
      entity: 'message',
      entityId: 'm1',
      baseVersion: 3,
      baseRow: { ...draft, _version: 3 },
    })
    const send = await engine.mutate({
      kind: MESSAGE_SEND,
      method: 'POST',
      path: '/messages/m1/send',
      body: {},
      entity: 'message',
      entityId: 'm1',
      dependsOn: update.mutationId,
    })
    const result = await awaitServer({ db, engine }, [update, send], () => true)
    expect(result).toMatchObject({ outcome: 'rejected', mutation: { seq: update.seq, merged: true, lastError: 'Subject is too long' } })
    expect(result.outcome === 'rejected' && result.mutation.mutationId).not.toBe(update.mutationId)
    await withdraw(db, [update, send])
    expect(await db.outbox.count()).toBe(0)
  })
})
