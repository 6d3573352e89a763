/**
 * The drainer's rules for answers that are not plain success (issue #17 item 3): quiet outcomes
 * (404/410 where the goal already holds), access lost while offline (said with the company's
 * name), and a refused change sent once.
 */
import { beforeEach, describe, expect, it } from 'vitest'
import { drainOnce } from './drainer'
import { LocalDb, type Mutation } from './local-db'
import { enqueue } from './outbox'
import { goalHoldsWhenGone, refusalOf } from './outcomes'
import type { SyncTransport } from './transport'
import { freshLocalDbEachTest } from './fresh-local-db'

const json = (status: number, body?: unknown) =>
  new Response(body === undefined ? null : JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } })

function server(handler: (method: string, path: string) => Response) {
  const calls: string[] = []
  const transport: SyncTransport = {
    getToken: () => 'token',
    getLocale: () => 'en',
    fetch: (async (url: string, init: RequestInit) => {
      const path = url.replace(/^\/api/, '')
      calls.push(`${init.method} ${path}`)
      return handler(init.method!, path)
    }) as typeof fetch,
  }
  return { transport, calls }
}

let db: LocalDb
freshLocalDbEachTest((fresh) => (db = fresh))

const COMPANY = 'c0000000-0000-4000-8000-000000000001'
goalHoldsWhenGone('test.markRead')

const notFound = () => json(404, { code: 'NOT_FOUND', message: 'Agreement not found' })
const account = (companies: Array<{ id: string }>) => json(200, { id: 'u', userRole: 'USER', companies })

describe('quiet outcomes', () => {
  it('writes off a change whose goal holds when the row is gone (404 or 410), drops the row, and reports no problem', async () => {
    await db.notifications.bulkPut([
      { id: 'n1', _version: 1, isRead: false },
      { id: 'n2', _version: 1, isRead: false },
    ])
    await enqueue(db, { kind: 'test.markRead', method: 'PATCH', path: '/notifications/n1/read', entity: 'notification', entityId: 'n1' })
    await enqueue(db, { kind: 'test.markRead', method: 'PATCH', path: '/notifications/n2/read', entity: 'notification', entityId: 'n2' })
    const { transport, calls } = server((_m, path) => (path.includes('n1') ? notFound() : json(410, { code: 'GONE', message: 'Gone' })))
    const res = await drainOnce({ db, transport })
    expect(res).toMatchObject({ sent: 2, rejected: 0 })
    expect(calls).toEqual(['PATCH /notifications/n1/read', 'PATCH /notifications/n2/read'])
    expect(await db.outbox.count()).toBe(0)
    expect(await db.notifications.count()).toBe(0)
  })

  it('still refuses a 404 for a kind that did not declare it (its goal does not hold)', async () => {
    await enqueue(db, { kind: 'test.other', method: 'PATCH', path: '/notifications/n1/read', entity: 'notification', entityId: 'n1' })
    const { transport } = server(() => notFound())
    expect(await drainOnce({ db, transport })).toMatchObject({ sent: 0, rejected: 1 })
    expect((await db.outbox.toArray())[0]).toMatchObject({ status: 'rejected', lastError: 'Agreement not found' })
  })
})

describe('access lost while offline', () => {
  const edit = (over: Partial<Mutation> = {}) =>
    enqueue(db, {
      kind: 'test.edit',
      method: 'PATCH',
      path: '/agreement/a1',
      body: { nextRegularPaymentDate: '2027-01-01' },
      entity: 'agreement',
      entityId: 'a1',
      baseVersion: 1,
      ...over,
    })

  beforeEach(async () => {
    await db.companies.put({ id: COMPANY, _version: 1, name: 'Solgården' })
    await db.agreements.put({ id: 'a1', _version: 1, companyId: COMPANY, externalId: '1003' })
  })

  it('names the company and the agreement, and sends the refused change once, however often the queue drains', async () => {
    await edit()
    const { transport, calls } = server((method) => (method === 'GET' ? account([]) : notFound()))
    expect(await drainOnce({ db, transport })).toMatchObject({ sent: 0, rejected: 1 })
    await drainOnce({ db, transport })
    await drainOnce({ db, transport })
    expect(calls.filter((c) => c.startsWith('PATCH'))).toEqual(['PATCH /agreement/a1'])
    const [m] = await db.outbox.toArray()
    expect(m).toMatchObject({ status: 'rejected', lastError: 'Agreement not found' })
    expect(refusalOf(m!)).toEqual({ code: 'NO_ACCESS', companyId: COMPANY, companyName: 'Solgården', subject: { entity: 'agreement', name: '1003' } })
  })

  it("treats 403 the same, and asks the server for the user's companies once per pass", async () => {
    await db.agreements.put({ id: 'a2', _version: 1, companyId: COMPANY, externalId: '1004' })
    await edit()
    await edit({ path: '/agreement/a2', entityId: 'a2' })
    const { transport, calls } = server((method) =>
      method === 'GET' ? account([{ id: 'elsewhere' }]) : json(403, { code: 'FORBIDDEN', message: 'Forbidden' }),
    )
    await drainOnce({ db, transport })
    expect(calls.filter((c) => c.startsWith('GET'))).toEqual(['GET /account/info'])
    expect((await db.outbox.toArray()).map((m) => refusalOf(m)?.companyName)).toEqual(['Solgården', 'Solgården'])
  })

  it('never calls a refusal lost access for the super admin, who sees every company without a membership', async () => {
    await edit()
    const { transport } = server((method) => (method === 'GET' ? json(200, { id: 'u', userRole: 'SUPERADMIN', companies: [] }) : notFound()))
    await drainOnce({ db, transport })
    const [m] = await db.outbox.toArray()
    expect(m).toMatchObject({ status: 'rejected', lastError: 'Agreement not found' })
    expect(refusalOf(m!)).toBeUndefined()
  })

  it("keeps the server's message when the user still belongs to the company (the row is really gone)", async () => {
    await edit()
    const { transport } = server((method) => (method === 'GET' ? account([{ id: COMPANY }]) : notFound()))
    await drainOnce({ db, transport })
    const [m] = await db.outbox.toArray()
    expect(m).toMatchObject({ status: 'rejected', lastError: 'Agreement not found' })
    expect(refusalOf(m!)).toBeUndefined()
  })

  it('does not take a 404 on a delete in a company the user left as done: it was not applied', async () => {
    await db.addresses.put({ id: 'ad1', _version: 1, companyId: COMPANY, street: 'Solvej 1' })
    await enqueue(db, { kind: 'test.delete', method: 'DELETE', path: `/company/${COMPANY}/addresses/ad1`, entity: 'address', entityId: 'ad1' })
    const { transport } = server((method) => (method === 'GET' ? account([]) : notFound()))
    expect(await drainOnce({ db, transport })).toMatchObject({ sent: 0, rejected: 1 })
    expect(refusalOf((await db.outbox.toArray())[0]!)).toMatchObject({ companyName: 'Solgården', subject: { entity: 'address', name: 'Solvej 1' } })
    expect(await db.addresses.count()).toBe(1)
  })

  it("falls back to the server's message when the company is not in the local copy or the account cannot be read", async () => {
    await edit({ body: { companyId: 'unknown' } })
    const { transport } = server((method) => (method === 'GET' ? json(503, {}) : notFound()))
    await drainOnce({ db, transport })
    expect(refusalOf((await db.outbox.toArray())[0]!)).toBeUndefined()
  })
})

describe('a server that cannot be reached while the browser is online', () => {
  it('reports unreachable for a network error or 502/503/504, not for 429', async () => {
    await enqueue(db, { kind: 'test.markRead', method: 'PATCH', path: '/notifications/n1/read', entity: 'notification', entityId: 'n1' })
    for (const [status, unreachable] of [
      [503, true],
      [502, true],
      [504, true],
      [429, false],
    ] as const) {
      await db.outbox.toCollection().modify({ nextAttemptAt: 0 })
      const { transport } = server(() => json(status, { code: 'X', message: 'x' }))
      expect((await drainOnce({ db, transport })).unreachable, String(status)).toBe(unreachable)
    }
  })

  it('the engine then says offline (the change waits for the server), and online again once it answers', async () => {
    const { SyncEngine } = await import('./engine')
    let down = true
    const { transport } = server(() =>
      down ? json(503, { code: 'UNAVAILABLE', message: 'down' }) : json(200, { changes: [], cursor: 'c', hasMore: false, reset: false }),
    )
    const engine = new SyncEngine(db, transport)
    await engine.mutate({ kind: 'test.markRead', method: 'PATCH', path: '/notifications/n1/read', entity: 'notification', entityId: 'n1' })
    await engine.kick()
    expect(engine.status.get()).toMatchObject({ online: false, lastError: 'offline' })
    down = false
    await engine.syncNow()
    await engine.kick()
    expect(engine.status.get()).toMatchObject({ lastError: null })
    expect(await db.outbox.count()).toBe(0)
    await engine.stop()
  })
})
