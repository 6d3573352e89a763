/** The outbox reads client/sync offers the features (queue-reads.ts). */
import { describe, expect, it } from 'vitest'
import { LocalDb, type Mutation } from './local-db'
import { reduce, registerReducer } from './optimistic'
import { lastChangeOf, pendingCreate, pendingOf, storedChange, viewWithOutbox } from './queue-reads'
import { freshLocalDbEachTest } from './fresh-local-db'

let db: LocalDb
freshLocalDbEachTest((fresh) => (db = fresh))

registerReducer(
  'test.rename',
  reduce.patch((_row, m) => ({ name: (m.body as { name: string }).name })),
)

let n = 0
async function queue(m: Partial<Mutation> & Pick<Mutation, 'kind' | 'entity' | 'entityId'>): Promise<Mutation> {
  const mutation: Mutation = {
    mutationId: `m${++n}`,
    method: 'POST',
    path: '/x',
    status: 'queued',
    attempts: 0,
    nextAttemptAt: 0,
    lastError: null,
    createdAt: 0,
    ...m,
  }
  const seq = await db.outbox.add(mutation)
  return { ...mutation, seq }
}

describe('queue reads', () => {
  it('pendingOf gives one entity’s changes in queue order, refused ones included', async () => {
    const a = await queue({ kind: 'test.rename', entity: 'message', entityId: 'r1' })
    await queue({ kind: 'test.rename', entity: 'agreement', entityId: 'r1' })
    const c = await queue({ kind: 'test.rename', entity: 'message', entityId: 'r2', status: 'rejected', lastError: 'no' })
    expect((await pendingOf(db, 'message')).map((m) => m.mutationId)).toEqual([a.mutationId, c.mutationId])
  })

  it('viewWithOutbox applies only that entity’s changes on top of the rows', async () => {
    await queue({ kind: 'test.rename', entity: 'message', entityId: 'r1', body: { name: 'new' } })
    await queue({ kind: 'test.rename', entity: 'agreement', entityId: 'r2', body: { name: 'other' } })
    const rows = [
      { id: 'r1', _version: 1, name: 'old' },
      { id: 'r2', _version: 1, name: 'kept' },
    ]
    expect(await viewWithOutbox(db, 'message', rows)).toEqual([
      { id: 'r1', _version: 1, name: 'new', _pending: true },
      { id: 'r2', _version: 1, name: 'kept' },
    ])
  })

  it('pendingCreate finds the row’s create of that kind, only while it waits', async () => {
    const create = await queue({ kind: 'test.create', entity: 'message', entityId: 'r1' })
    await queue({ kind: 'test.rename', entity: 'message', entityId: 'r1' })
    expect((await pendingCreate(db, 'r1', 'test.create'))?.mutationId).toBe(create.mutationId)
    expect(await pendingCreate(db, 'r1', 'other.create')).toBeUndefined()
    await db.outbox.delete(create.seq!)
    expect(await pendingCreate(db, 'r1', 'test.create')).toBeUndefined()
  })

  it('lastChangeOf is the row’s newest queued change', async () => {
    await queue({ kind: 'test.create', entity: 'message', entityId: 'r1' })
    const last = await queue({ kind: 'test.rename', entity: 'message', entityId: 'r1' })
    await queue({ kind: 'test.rename', entity: 'message', entityId: 'r2' })
    expect((await lastChangeOf(db, 'r1'))?.mutationId).toBe(last.mutationId)
    expect(await lastChangeOf(db, 'none')).toBeUndefined()
  })

  it('storedChange finds a change by mutation id or by seq, and nothing once it left', async () => {
    const m = await queue({ kind: 'test.rename', entity: 'message', entityId: 'r1' })
    expect((await storedChange(db, { mutationId: m.mutationId }))?.seq).toBe(m.seq)
    expect((await storedChange(db, { seq: m.seq! }))?.mutationId).toBe(m.mutationId)
    await db.outbox.delete(m.seq!)
    expect(await storedChange(db, { mutationId: m.mutationId })).toBeUndefined()
    expect(await storedChange(db, { seq: m.seq! })).toBeUndefined()
  })
})
