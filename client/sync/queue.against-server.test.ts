/**
 * The sync client against the real server app (in-process, `app.request`), for the faults that
 * matter: a lost answer, a retry, a double send. Proves the outbox + Idempotency-Key contract
 * end to end without a browser.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { demo, testApp, type TestApp } from '../../server/test/harness'
import { notifications } from '../../server/db/schema/notifications'
import { drainOnce } from './drainer'
import { LocalDb, deleteLocalDb } from './local-db'
import { enqueue } from './outbox'
import { pullAll } from './pull'
import type { SyncTransport } from './transport'

const dbs: LocalDb[] = []
afterEach(async () => {
  for (const db of dbs.splice(0)) {
    db.close()
    await deleteLocalDb(db.name.replace('boligkasse-', ''))
  }
})

function connect(t: TestApp, token: string, faults: { dropAnswers?: number } = {}): SyncTransport {
  let drop = faults.dropAnswers ?? 0
  return {
    getToken: () => token,
    getLocale: () => 'en',
    fetch: (async (url: string, init: RequestInit) => {
      const res = await t.app.request(url, init)
      // The server applied the request, but the answer never reaches the client.
      if (init.method !== 'GET' && drop > 0) {
        drop -= 1
        throw new TypeError('Failed to fetch')
      }
      return res
    }) as typeof fetch,
  }
}

async function setup() {
  const t = await testApp()
  const token = await t.login(demo.admin)
  const userId = (await t.call('GET', '/account/info', { token })).json.id as string
  const db = new LocalDb(`${userId}-${crypto.randomUUID()}`)
  dbs.push(db)
  return { t, token, userId, db }
}

describe('outbox against the server', () => {
  it('applies a change once when its answer is lost and it is sent again', async () => {
    const { t, token, userId, db } = await setup()
    for (let i = 0; i < 3; i++) await t.services.notifications.notify(userId, { type: 'info', title: { id: 'x' }, message: { id: 'y' } })
    await pullAll(db, connect(t, token))
    const target = (await db.notifications.orderBy('createdAt').first())!
    await enqueue(db, { kind: 'notification.delete', method: 'DELETE', path: `/notifications/${target.id}`, entity: 'notification', entityId: target.id }, 0)
    await enqueue(db, { kind: 'notification.readAll', method: 'PATCH', path: '/notifications/read-all', entity: 'notification', entityId: null }, 0)

    const lossy = connect(t, token, { dropAnswers: 1 })
    const first = await drainOnce({ db, transport: lossy, now: () => 0 })
    expect(first).toMatchObject({ sent: 0, waiting: true })
    const second = await drainOnce({ db, transport: lossy, now: () => 10_000_000 })
    expect(second.sent).toBe(2)

    const rows = (await t.db.select().from(notifications).all()).filter((n) => n.userId === userId)
    expect(rows).toHaveLength(3)
    expect(rows.every((n) => n.isRead)).toBe(true)
    await pullAll(db, connect(t, token))
    expect(await db.notifications.count()).toBe(3)
  })

  it('two drains of the same queue (two tabs without a lock) apply each change once', async () => {
    const { t, token, userId, db } = await setup()
    const ids: string[] = []
    for (let i = 0; i < 5; i++) ids.push(await t.services.notifications.notify(userId, { type: 'info', title: { id: 'x' }, message: { id: 'y' } }))
    for (const id of ids)
      await enqueue(db, { kind: 'notification.read', method: 'PATCH', path: `/notifications/${id}/read`, entity: 'notification', entityId: id })
    const [a, b] = await Promise.all([drainOnce({ db, transport: connect(t, token) }), drainOnce({ db, transport: connect(t, token) })])
    expect(a.rejected + b.rejected).toBe(0)
    expect(await db.outbox.count()).toBe(0)
    const versions = (await t.db.select().from(notifications).all()).filter((n) => ids.includes(n.id)).map((n) => n.version)
    expect(versions).toEqual([2, 2, 2, 2, 2])
  })
})
