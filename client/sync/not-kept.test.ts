/** A change the device cannot store is reported as NOT kept, never as queued (docs/OFFLINE.md "Conflicts and refusals"). */
import { describe, expect, it } from 'vitest'
import { SyncEngine } from './engine'
import { LocalDb } from './local-db'
import { NotKeptError } from './outcomes'
import { freshLocalDbEachTest } from './fresh-local-db'

let db: LocalDb
freshLocalDbEachTest((fresh) => (db = fresh))

const offline = { getToken: () => 't', getLocale: () => 'en', fetch: () => Promise.reject(new TypeError('offline')) }
const change = {
  kind: 'charge.refund',
  method: 'POST' as const,
  path: '/agreement/a/refund',
  body: { amount: 100 },
  entity: 'charge' as const,
  entityId: 'c1',
  money: true,
}

describe('engine.mutate when the device cannot store the change', () => {
  it('throws NotKeptError (quota) and keeps nothing', async () => {
    const engine = new SyncEngine(db, offline)
    db.outbox.hook('creating', () => {
      throw new DOMException('The quota has been exceeded.', 'QuotaExceededError')
    })
    const error = await engine.mutate(change).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(NotKeptError)
    expect((error as NotKeptError).reason).toBe('quota')
    expect(await db.outbox.count()).toBe(0)
    await engine.stop()
  })

  it('says storage (not quota) for any other write failure', async () => {
    const engine = new SyncEngine(db, offline)
    db.outbox.hook('creating', () => {
      throw new DOMException('Write failed', 'UnknownError')
    })
    const error = await engine.mutate(change).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(NotKeptError)
    expect((error as NotKeptError).reason).toBe('storage')
    await engine.stop()
  })
})
