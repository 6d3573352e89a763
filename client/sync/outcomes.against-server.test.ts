/**
 * Outcomes other than success (outcomes.ts) against the real server app (in-process): quiet outcomes for notifications
 * gone elsewhere, and a board member who lost the company while offline — each change sent once.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { eq } from 'drizzle-orm'
import { demo, testApp, type TestApp } from '../../server/test/harness'
import { companyMembers } from '../../server/db/schema/companies'
import { users } from '../../server/db/schema/users'
import { createAgreement } from '../../server/features/agreements/test-helpers'
import '../features/notifications/notification-mutations'
import { NOTIFICATION_DELETE, NOTIFICATION_READ } from '../features/notifications/notification-mutations'
import { SyncEngine } from './engine'
import { LocalDb, deleteLocalDb } from './local-db'
import { refusalOf } from './outcomes'
import { pullAll } from './pull'
import type { SyncTransport } from './transport'

const dbs: LocalDb[] = []
afterEach(async () => {
  for (const db of dbs.splice(0)) {
    db.close()
    await deleteLocalDb(db.name.replace('boligkasse-', ''))
  }
})

/** The server app as the client reaches it, with every request it answered. */
function connect(t: TestApp, token: string) {
  const requests: string[] = []
  const network = { up: true }
  const transport: SyncTransport = {
    getToken: () => token,
    getLocale: () => 'en',
    fetch: (async (url: string, init: RequestInit) => {
      if (!network.up) throw new TypeError('Failed to fetch')
      const res = await t.app.request(url, init)
      requests.push(`${init.method} ${url.split('?')[0]} ${res.status}`)
      return res
    }) as typeof fetch,
  }
  return { transport, requests, network }
}

async function signedIn(t: TestApp, email: string) {
  const token = await t.login(email)
  const userId = (await t.db.select().from(users).where(eq(users.emailAddress, email)).get())!.id
  const db = new LocalDb(`${userId}-${crypto.randomUUID()}`)
  dbs.push(db)
  return { token, userId, db }
}

describe('quiet outcomes against the server', () => {
  it('marking read or deleting a notification deleted on another device simply succeeds, sent once each', async () => {
    const t = await testApp()
    const { token, userId, db } = await signedIn(t, demo.resident)
    const gone = await t.services.notifications.notify(userId, { type: 'info', title: { id: 'x' }, message: { id: 'y' } })
    const alsoGone = await t.services.notifications.notify(userId, { type: 'info', title: { id: 'x' }, message: { id: 'z' } })
    const { transport, requests } = connect(t, token)
    await pullAll(db, transport)
    expect(await db.notifications.get(gone)).toBeDefined()
    // Deleted on another device while this one is offline.
    for (const id of [gone, alsoGone]) expect((await t.call('DELETE', `/notifications/${id}`, { token })).status).toBe(204)

    const engine = new SyncEngine(db, transport)
    await engine.mutate({ kind: NOTIFICATION_READ, method: 'PATCH', path: `/notifications/${gone}/read`, entity: 'notification', entityId: gone })
    await engine.mutate({ kind: NOTIFICATION_DELETE, method: 'DELETE', path: `/notifications/${alsoGone}`, entity: 'notification', entityId: alsoGone })
    await engine.kick()
    await engine.kick()
    await engine.stop()

    expect(await db.outbox.count()).toBe(0)
    expect(await db.notifications.get(gone)).toBeUndefined()
    expect(await db.notifications.get(alsoGone)).toBeUndefined()
    expect(requests.filter((r) => !r.startsWith('GET'))).toEqual([`PATCH /api/notifications/${gone}/read 404`, `DELETE /api/notifications/${alsoGone} 404`])
    expect(engine.status.get().lastError).toBeNull()
  })

  it('a board member removed from the company while offline: the edit is refused once, naming the company', async () => {
    const t = await testApp()
    const agreement = await createAgreement(t)
    const { token, userId, db } = await signedIn(t, demo.boardmember)
    const { transport, requests, network } = connect(t, token)
    await pullAll(db, transport)
    expect(await db.agreements.get(agreement.id)).toBeDefined()

    // Offline, the board member edits the agreement …
    network.up = false
    const engine = new SyncEngine(db, transport)
    const m = await engine.mutate({
      kind: 'agreement.update',
      method: 'PATCH',
      path: `/agreement/${agreement.id}`,
      body: { nextRegularPaymentDate: '2027-01-01' },
      entity: 'agreement',
      entityId: agreement.id,
      baseVersion: agreement.version,
    })
    await engine.kick()
    // … and the administrator removes them from the association meanwhile.
    await t.db.delete(companyMembers).where(eq(companyMembers.userId, userId)).run()
    // Written by hand here, so the cached actor is dropped as the companies service does on a removal.
    t.services.users.actors.invalidateAll()
    // Back online, a pull may come first (the edit waits out its backoff): it drops the
    // association's rows from the local copy, and the refusal must still name it.
    network.up = true
    await pullAll(db, transport)
    expect(await db.companies.count()).toBe(0)
    await engine.syncNow()
    await engine.kick()
    await engine.stop()

    expect(requests.filter((r) => r.startsWith('PATCH'))).toEqual([`PATCH /api/agreement/${agreement.id} 404`])
    const stored = t.database.sqlite.prepare('SELECT count(*) AS n FROM idempotency_keys WHERE key = ?').get(m.mutationId) as { n: number }
    expect(stored.n).toBe(1)
    const [refused] = await db.outbox.toArray()
    expect(refused).toMatchObject({ status: 'rejected' })
    expect(refusalOf(refused!)).toMatchObject({
      code: 'NO_ACCESS',
      companyName: 'Andelsboligforeningen Solgården',
      subject: { entity: 'agreement', name: agreement.externalId },
    })
  })
})
