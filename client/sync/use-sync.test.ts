import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { SyncEngine } from './engine'
import { LocalDb, deleteLocalDb, type Mutation } from './local-db'
import { enqueue } from './outbox'
import { queueActions, type SyncHandle } from './use-sync'

let handle: SyncHandle
const sent: Array<{ key: string; ifMatch?: string }> = []
beforeEach(() => {
  sent.length = 0
  const userId = crypto.randomUUID()
  const db = new LocalDb(userId)
  const engine = new SyncEngine(db, {
    getToken: () => 't',
    getLocale: () => 'en',
    fetch: (async (_url: string, init: RequestInit) => {
      const headers = init.headers as Record<string, string>
      if (init.method === 'GET') return new Response(JSON.stringify({ changes: [], cursor: 'c', hasMore: false, reset: false }), { status: 200 })
      sent.push({ key: headers['Idempotency-Key']!, ifMatch: headers['If-Match'] })
      return new Response('{}', { status: 200 })
    }) as typeof fetch,
  })
  handle = { userId, db, engine }
})
afterEach(async () => {
  await handle.engine.stop()
  handle.db.close()
  await deleteLocalDb(handle.userId)
})

async function stored(status: Mutation['status'], extra: Partial<Mutation> = {}) {
  const m = await enqueue(handle.db, {
    kind: 'x',
    method: 'PATCH',
    path: '/agreement/a',
    entity: 'agreement',
    entityId: 'a',
    body: { price: 100 },
    baseVersion: 3,
  })
  await handle.db.outbox.update(m.seq!, { status, lastError: 'Changed on the server', ...extra })
  return (await handle.db.outbox.get(m.seq!))!
}

describe('queue actions', () => {
  it('"Keep mine" resends the change on top of the server\'s version, under a new key', async () => {
    const m = await stored('conflict', { conflict: { id: 'a', version: 7, price: 90 } })
    await queueActions(handle).keepMine(m)
    expect(sent).toHaveLength(1)
    expect(sent[0]!.ifMatch).toBe('"7"')
    expect(sent[0]!.key).not.toBe(m.mutationId)
    expect(await handle.db.outbox.count()).toBe(0)
  })

  it('"Take theirs" and Discard drop the change without sending it', async () => {
    await queueActions(handle).takeTheirs(await stored('conflict', { conflict: { id: 'a', version: 7 } }))
    await queueActions(handle).discard(await stored('rejected'))
    expect(await handle.db.outbox.count()).toBe(0)
    expect(sent).toHaveLength(0)
  })

  it('Retry sends a refused change again at once, under a new key', async () => {
    const m = await stored('rejected', { nextAttemptAt: Date.now() + 60_000 })
    await queueActions(handle).retry(m)
    expect(sent.map((s) => s.key)).toHaveLength(1)
    expect(sent[0]!.key).not.toBe(m.mutationId)
  })
})
