/**
 * The drainer's rules for answers that are not plain success (docs/OFFLINE.md "Conflicts and refusals"): quiet outcomes
 * (404/410 where the goal already holds), access lost while offline (said with the company's
 * name), and a refused change sent once.
 */
import { beforeEach, describe, expect, it } from 'vitest'
import { drainOnce } from './drainer'
import { LocalDb, type Mutation } from './local-db'
import { enqueue } from './outbox'
import { goalHoldsWhenGone, refusalOf } from './outcomes'
import type { SyncTransport } from './transport'
import { SYNC_BATCH_MAX_ITEMS } from '../../shared/contract/sync'
import { freshLocalDbEachTest } from './fresh-local-db'
import { answeringBatches } from './fake-batch'

const json = (status: number, body?: unknown) =>
  new Response(body === undefined ? null : JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } })

function server(handler: (method: string, path: string) => Response) {
  const calls: string[] = []
  const transport: SyncTransport = {
    getToken: () => 'token',
    getLocale: () => 'en',
    // Batches are unpacked: `calls` lists each change as the server handles it.
    fetch: answeringBatches(async (url: string, init: RequestInit) => {
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

describe('batches (POST /api/sync/batch)', () => {
  /** A server with the batch route (or without: `batches: false`), and each request as it went on the wire. */
  function wired(handler: (method: string, path: string) => Response | Promise<Response>, options: { batches?: boolean } = {}) {
    const wire: string[][] = []
    const handle = answeringBatches(async (url: string, init: RequestInit) => handler(init.method!, url.replace(/^\/api/, '')))
    const transport: SyncTransport = {
      getToken: () => 'token',
      getLocale: () => 'en',
      fetch: (async (url: string, init: RequestInit) => {
        const batch = url === '/api/sync/batch'
        wire.push(
          batch ?
            (JSON.parse(init.body as string) as { items: Array<{ path: string }> }).items.map((i) => i.path.replace(/^\/api/, ''))
          : [url.replace(/^\/api/, '')],
        )
        if (batch && options.batches === false) return notFound()
        return handle(url, init)
      }) as typeof fetch,
    }
    return { transport, wire }
  }
  const markRead = (id: string) =>
    enqueue(db, { kind: 'test.markRead', method: 'PATCH', path: `/notifications/${id}/read`, entity: 'notification', entityId: id }, 0)

  it('sends the changes of different rows in one request, a row’s next change in a later one, and a lone change alone', async () => {
    for (const path of ['/a1', '/b1', '/c1', '/a2', '/all', '/d1'])
      await enqueue(db, { kind: 'test.markRead', method: 'PATCH', path, entity: 'notification', entityId: path === '/all' ? null : path[1]! })
    const { transport, wire } = wired(() => json(200, {}))
    expect(await drainOnce({ db, transport })).toMatchObject({ sent: 6, rejected: 0 })
    expect(wire).toEqual([['/a1', '/b1', '/c1'], ['/a2'], ['/all'], ['/d1']])
  })

  it(`puts at most ${SYNC_BATCH_MAX_ITEMS} changes in one batch`, async () => {
    for (let i = 0; i < 120; i++) await markRead(`n${i}`)
    const { transport, wire } = wired(() => json(200, {}))
    expect(await drainOnce({ db, transport })).toMatchObject({ sent: 120 })
    expect(wire.map((w) => w.length)).toEqual([50, 50, 20])
    expect(wire.flat()).toEqual(Array.from({ length: 120 }, (_, i) => `/notifications/n${i}/read`))
  })

  it('handles each answer of a batch as it would the same answer alone, and ends the round after a transient failure', async () => {
    await db.agreements.put({ id: 'a1', _version: 1, companyId: COMPANY, externalId: '1003' })
    await markRead('ok')
    await enqueue(db, { kind: 'test.edit', method: 'PATCH', path: '/agreement/a1', body: { x: 1 }, entity: 'agreement', entityId: 'a1', baseVersion: 1 }, 0)
    await enqueue(db, { kind: 'test.other', method: 'PATCH', path: '/notifications/refused/read', entity: 'notification', entityId: 'refused' }, 0)
    await enqueue(db, { kind: 'test.other', method: 'PATCH', path: '/notifications/busy/read', entity: 'notification', entityId: 'busy' }, 0)
    await markRead('gone')
    await markRead('ok') // the row's second change: the next batch, never sent this round
    const answers: Record<string, Response> = {
      '/notifications/ok/read': json(200, { id: 'ok', isRead: true }),
      '/agreement/a1': json(412, { code: 'VERSION_CONFLICT', message: 'Changed meanwhile', current: { id: 'a1', version: 2 } }),
      '/notifications/refused/read': json(422, { code: 'BUSINESS_RULE', message: 'No' }),
      '/notifications/busy/read': json(409, { code: 'IDEMPOTENCY_IN_PROGRESS', message: 'Still running' }),
      '/notifications/gone/read': notFound(),
    }
    const { transport, wire } = wired((method, path) => (method === 'GET' ? account([{ id: COMPANY }]) : answers[path]!.clone()))
    const res = await drainOnce({ db, transport, now: () => 1000, random: () => 1 })
    expect(wire.filter((w) => w[0] !== '/account/info')).toHaveLength(1)
    expect(res).toMatchObject({ sent: 2, rejected: 2, waiting: true, unreachable: false })
    const left = await db.outbox.orderBy('seq').toArray()
    expect(left.map((m) => [m.path, m.status, m.lastError])).toEqual([
      ['/agreement/a1', 'conflict', 'Changed meanwhile'],
      ['/notifications/refused/read', 'rejected', 'No'],
      ['/notifications/busy/read', 'queued', 'Still running'],
      ['/notifications/ok/read', 'queued', null],
    ])
    expect(left[2]).toMatchObject({ attempts: 1, nextAttemptAt: 2000 })
    expect(left[3]).toMatchObject({ attempts: 0 })
  })

  it('with a server without the batch route (404), sends single requests, up to 16 at once, and does not ask again', async () => {
    for (let i = 0; i < 20; i++) await markRead(`n${i}`)
    let inFlight = 0
    let maxInFlight = 0
    const { transport, wire } = wired(
      async () => {
        inFlight += 1
        maxInFlight = Math.max(maxInFlight, inFlight)
        await new Promise((r) => setTimeout(r, 5))
        inFlight -= 1
        return json(200, {})
      },
      { batches: false },
    )
    expect(await drainOnce({ db, transport })).toMatchObject({ sent: 20 })
    expect(maxInFlight).toBe(16)
    for (let i = 0; i < 5; i++) await markRead(`m${i}`)
    await drainOnce({ db, transport })
    expect(wire.filter((w) => w.length > 1)).toHaveLength(1)
    expect(wire).toHaveLength(1 + 20 + 5)
    expect(await db.outbox.count()).toBe(0)
  })

  it('a batch refused as such (400) is sent again one change per request, each answered on its own', async () => {
    await markRead('a')
    await enqueue(db, { kind: 'test.other', method: 'PATCH', path: '/notifications/b/read', entity: 'notification', entityId: 'b' }, 0)
    const { transport, wire } = wired((_m, path) => (path.endsWith('/b/read') ? json(422, { code: 'BUSINESS_RULE', message: 'No' }) : json(200, {})))
    const refusing: SyncTransport = {
      ...transport,
      fetch: ((url: string, init: RequestInit) =>
        url === '/api/sync/batch' ?
          Promise.resolve(json(400, { code: 'VALIDATION_FAILED', message: 'Item 2 cannot be sent in a batch' }))
        : transport.fetch(url, init)) as typeof fetch,
    }
    expect(await drainOnce({ db, transport: refusing })).toMatchObject({ sent: 1, rejected: 1 })
    expect(wire).toEqual([['/notifications/a/read'], ['/notifications/b/read']])
    expect((await db.outbox.toArray()).map((m) => m.lastError)).toEqual(['No'])
  })

  it('no answer, a 5xx or a 401 for the whole batch is that answer for each of its changes', async () => {
    await markRead('a')
    await markRead('b')
    const down: SyncTransport = { getToken: () => 't', getLocale: () => 'en', fetch: (() => Promise.reject(new TypeError('offline'))) as typeof fetch }
    expect(await drainOnce({ db, transport: down, now: () => 0 })).toMatchObject({ sent: 0, waiting: true, unreachable: true })
    expect((await db.outbox.toArray()).map((m) => [m.status, m.attempts])).toEqual([
      ['queued', 1],
      ['queued', 1],
    ])
    const { transport } = wired(() => json(200, {}))
    const expired: SyncTransport = {
      ...transport,
      fetch: ((url: string, init: RequestInit) =>
        url === '/api/sync/batch' ?
          Promise.resolve(json(401, { code: 'UNAUTHENTICATED', message: 'Please sign in again.' }))
        : transport.fetch(url, init)) as typeof fetch,
    }
    expect(await drainOnce({ db, transport: expired, now: () => 10 ** 9 })).toMatchObject({ sent: 0, paused: 'auth' })
    expect((await db.outbox.toArray()).map((m) => m.status)).toEqual(['queued', 'queued'])
  })
})
