import { describe, expect, it } from 'vitest'
import { drainOnce, retryWaitMs } from './drainer'
import { LocalDb, type Mutation, type Row } from './local-db'
import { enqueue, discard, retry } from './outbox'
import { applyOutbox, reduce, registerReducer } from './optimistic'
import { applyChanges, pullAll } from './pull'
import { send, type SyncTransport } from './transport'
import { freshLocalDbEachTest } from './fresh-local-db'
import { answeringBatches } from './fake-batch'

type Handler = (method: string, path: string, init: RequestInit) => Response | Promise<Response>

const json = (status: number, body?: unknown, headers: Record<string, string> = {}) =>
  new Response(body === undefined ? null : JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json', ...headers } })

function transport(handler: Handler, calls: Array<{ method: string; path: string; key?: string; ifMatch?: string }> = []): SyncTransport {
  return {
    getToken: () => 'token',
    getLocale: () => 'en',
    // Batches are unpacked: `calls` lists each change as the server handles it.
    fetch: answeringBatches(async (url: string, init: RequestInit) => {
      const headers = init.headers as Record<string, string>
      const path = url.replace(/^\/api/, '')
      calls.push({ method: init.method!, path, key: headers['Idempotency-Key'], ifMatch: headers['If-Match'] })
      return handler(init.method!, path, init)
    }) as typeof fetch,
  }
}

let db: LocalDb
freshLocalDbEachTest((fresh) => (db = fresh))

const mut = (over: Partial<Mutation> = {}) => ({
  kind: 'notification.read',
  method: 'PATCH' as const,
  path: '/notifications/a/read',
  entity: 'notification' as const,
  entityId: 'a',
  ...over,
})

describe('drainOnce', () => {
  it('sends the queue in order with each mutation id as Idempotency-Key and empties it', async () => {
    const calls: Array<{ method: string; path: string; key?: string }> = []
    const a = await enqueue(db, mut({ path: '/one' }))
    const b = await enqueue(db, mut({ path: '/two', baseVersion: 3 }))
    const res = await drainOnce({ db, transport: transport(() => json(200, {}), calls) })
    expect(res).toMatchObject({ sent: 2, rejected: 0 })
    expect(calls.map((c) => [c.path, c.key])).toEqual([
      ['/one', a.mutationId],
      ['/two', b.mutationId],
    ])
    expect((calls[1] as { ifMatch?: string }).ifMatch).toBe('"3"')
    expect(await db.outbox.count()).toBe(0)
  })

  it('continues a chain of own edits to one row from the version the previous edit produced', async () => {
    const calls: Array<{ method: string; path: string; ifMatch?: string }> = []
    await enqueue(db, mut({ path: '/company/c/field/name', entity: 'company', entityId: 'c', baseVersion: 3 }))
    await enqueue(db, mut({ path: '/company/c/field/acronym', entity: 'company', entityId: 'c', baseVersion: 3 }))
    await enqueue(db, mut({ path: '/company/other/field/name', entity: 'company', entityId: 'other', baseVersion: 3 }))
    let version = 3
    const res = await drainOnce({
      db,
      transport: transport((_m, path) => {
        if (!path.includes('/c/')) return json(200, { version: 9 })
        const ifMatch = calls.at(-1)?.ifMatch
        if (ifMatch !== `"${version}"`) return json(412, { code: 'VERSION_CONFLICT', message: 'changed' })
        version += 1
        return json(200, { version })
      }, calls),
    })
    expect(res).toMatchObject({ sent: 3, rejected: 0 })
    expect(calls.map((c) => [c.path, c.ifMatch])).toEqual([
      ['/company/c/field/name', '"3"'],
      ['/company/c/field/acronym', '"4"'],
      ['/company/other/field/name', '"3"'],
    ])
  })

  it('continues from its own previous change when the second is made after the first was confirmed on a view that had not caught up', async () => {
    const calls: Array<{ method: string; path: string; ifMatch?: string }> = []
    let version = 3
    const server = transport((_m, path) => {
      if (path.startsWith('/company/other')) return json(412, { code: 'VERSION_CONFLICT', message: 'changed' })
      if (calls.at(-1)?.ifMatch !== `"${version}"`) return json(412, { code: 'VERSION_CONFLICT', message: 'changed' })
      version += 1
      return json(200, { version })
    }, calls)
    await enqueue(db, mut({ path: '/company/c/terms', entity: 'company', entityId: 'c', baseVersion: 3 }))
    await drainOnce({ db, transport: server })
    // The screen still showed version 3 when the user clicked again: it was their own change that moved it.
    await enqueue(db, mut({ path: '/company/c/confirm', entity: 'company', entityId: 'c', baseVersion: 3 }))
    // Another row at the same version is not touched by it, and a real conflict stays one.
    await enqueue(db, mut({ path: '/company/other/confirm', entity: 'company', entityId: 'other', baseVersion: 3 }))
    const res = await drainOnce({ db, transport: server })
    expect(res).toMatchObject({ sent: 1, rejected: 1 })
    expect(calls.map((c) => [c.path, c.ifMatch])).toEqual([
      ['/company/c/terms', '"3"'],
      ['/company/c/confirm', '"4"'],
      ['/company/other/confirm', '"3"'],
    ])
    expect((await db.outbox.toArray()).map((m) => [m.path, m.status])).toEqual([['/company/other/confirm', 'conflict']])
  })

  it('keeps a mutation after a network error or 5xx, backs off, and stops to keep order', async () => {
    await enqueue(db, mut({ path: '/one' }), 0)
    await enqueue(db, mut({ path: '/two' }), 0)
    const calls: Array<{ method: string; path: string }> = []
    const res = await drainOnce({
      db,
      transport: transport(() => json(503, { message: 'down', code: 'PROVIDER_UNAVAILABLE' }), calls),
      now: () => 1000,
      random: () => 0.5,
    })
    expect(res.waiting).toBe(true)
    expect(calls).toHaveLength(1)
    const [first] = await db.outbox.orderBy('seq').toArray()
    expect(first).toMatchObject({ status: 'queued', attempts: 1, nextAttemptAt: 1000 + retryWaitMs(1, () => 0.5) })
    const offline = await drainOnce({
      db,
      transport: transport(() => {
        throw new TypeError('Failed to fetch')
      }),
      now: () => 1_000_000,
    })
    expect(offline.waiting).toBe(true)
    expect((await db.outbox.orderBy('seq').first())!.attempts).toBe(2)
  })

  it('honours Retry-After on 429 and retries 409 IDEMPOTENCY_IN_PROGRESS', async () => {
    await enqueue(db, mut(), 0)
    await drainOnce({
      db,
      transport: transport(() => json(429, { code: 'RATE_LIMITED', message: 'slow' }, { 'Retry-After': '120' })),
      now: () => 0,
      random: () => 0,
    })
    expect((await db.outbox.toArray())[0]!.nextAttemptAt).toBe(120_000)
    await drainOnce({ db, transport: transport(() => json(409, { code: 'IDEMPOTENCY_IN_PROGRESS', message: 'busy' })), now: () => 200_000 })
    expect((await db.outbox.toArray())[0]).toMatchObject({ status: 'queued', attempts: 2 })
  })

  it('marks a refused mutation rejected with the server message and goes on with the rest', async () => {
    await enqueue(db, mut({ path: '/ok-1' }))
    const bad = await enqueue(db, mut({ path: '/bad' }))
    await enqueue(db, mut({ path: '/needs-bad', dependsOn: bad.mutationId }))
    await enqueue(db, mut({ path: '/ok-2' }))
    const calls: Array<{ method: string; path: string }> = []
    const res = await drainOnce({
      db,
      transport: transport(
        (_m, path) => (path === '/bad' ? json(422, { code: 'BUSINESS_RULE', message: 'Refund above the captured amount' }) : json(200, {})),
        calls,
      ),
    })
    expect(calls.map((c) => c.path)).toEqual(['/ok-1', '/bad', '/ok-2'])
    expect(res).toMatchObject({ sent: 2, rejected: 1 })
    const left = await db.outbox.orderBy('seq').toArray()
    expect(left.map((m) => [m.path, m.status, m.lastError])).toEqual([
      ['/bad', 'rejected', 'Refund above the captured amount'],
      ['/needs-bad', 'queued', null],
    ])
  })

  it('pauses on 401 without losing anything, until resumed', async () => {
    await enqueue(db, mut({ path: '/one' }))
    await enqueue(db, mut({ path: '/two' }))
    const res = await drainOnce({ db, transport: transport(() => json(401, { code: 'UNAUTHENTICATED', message: 'Please sign in again.' })) })
    expect(res.paused).toBe('auth')
    expect(await db.outbox.count()).toBe(2)
    const calls: Array<{ method: string; path: string }> = []
    expect((await drainOnce({ db, transport: transport(() => json(200, {}), calls) })).paused).toBe('auth')
    expect(calls).toHaveLength(0)
    await db.meta.delete('authPaused')
    expect((await drainOnce({ db, transport: transport(() => json(200, {}), calls) })).sent).toBe(2)
  })

  it("keeps the server's row on 412 for the user to choose, and treats 404 on delete as done", async () => {
    await enqueue(db, mut({ path: '/stale', baseVersion: 1 }))
    await enqueue(db, mut({ method: 'DELETE', path: '/notifications/gone', kind: 'notification.delete' }))
    await drainOnce({
      db,
      transport: transport((method) =>
        method === 'DELETE' ?
          json(404, { code: 'NOT_FOUND', message: 'Not found.' })
        : json(412, { code: 'VERSION_CONFLICT', message: 'Changed', current: { id: 'a', version: 2 } }),
      ),
    })
    const left = await db.outbox.toArray()
    expect(left).toHaveLength(1)
    expect(left[0]).toMatchObject({ status: 'conflict', conflict: { id: 'a', version: 2 } })
  })

  it('does not send a change the user discarded while the queue was draining', async () => {
    await enqueue(db, mut({ path: '/one' }))
    const second = await enqueue(db, mut({ path: '/two' }))
    await enqueue(db, mut({ path: '/three' }))
    const calls: Array<{ method: string; path: string }> = []
    const res = await drainOnce({
      db,
      transport: transport(async (_m, path) => {
        if (path === '/one') await discard(db, second.mutationId)
        return json(200, {})
      }, calls),
    })
    expect(calls.map((c) => c.path)).toEqual(['/one', '/three'])
    expect(res.sent).toBe(2)
    expect(await db.outbox.count()).toBe(0)
  })

  it('marks each change as sending while its request is out, and writes it off once confirmed', async () => {
    await enqueue(db, mut({ path: '/one' }))
    await enqueue(db, mut({ path: '/two' }))
    const seen: string[][] = []
    await drainOnce({
      db,
      transport: transport(async () => {
        seen.push((await db.outbox.orderBy('seq').toArray()).map((m) => `${m.path}:${m.status}`))
        return json(200, {})
      }),
    })
    expect(seen).toEqual([['/one:sending', '/two:queued'], ['/two:sending']])
    expect(await db.outbox.count()).toBe(0)
  })

  it('lets the user discard or retry (with a new id) a rejected mutation', async () => {
    const m = await enqueue(db, mut())
    await drainOnce({ db, transport: transport(() => json(400, { code: 'VALIDATION_FAILED', message: 'bad' })) })
    await retry(db, m.mutationId)
    const retried = (await db.outbox.toArray())[0]!
    expect(retried.status).toBe('queued')
    expect(retried.mutationId).not.toBe(m.mutationId)
    await discard(db, retried.mutationId)
    expect(await db.outbox.count()).toBe(0)
  })
})

describe('send', () => {
  it('gives up on a request that never answers, as on a network failure', async () => {
    const hanging: SyncTransport = {
      getToken: () => null,
      getLocale: () => 'en',
      fetch: ((_url: string, init: RequestInit) =>
        new Promise((_resolve, reject) => init.signal!.addEventListener('abort', () => reject(new DOMException('Aborted', 'AbortError'))))) as typeof fetch,
    }
    expect(await send(hanging, 'PATCH', '/x', { timeoutMs: 20 })).toEqual({ status: 0, body: undefined })
  })
})

describe('retryWaitMs', () => {
  it('grows exponentially with jitter and is capped at five minutes', () => {
    expect(retryWaitMs(1, () => 0)).toBe(500)
    expect(retryWaitMs(1, () => 1)).toBe(1000)
    expect(retryWaitMs(4, () => 1)).toBe(8000)
    expect(retryWaitMs(40, () => 1)).toBe(300_000)
  })
})

describe('optimistic view', () => {
  registerReducer(
    'test.read',
    reduce.patch(() => ({ isRead: true })),
  )
  registerReducer(
    'test.readAll',
    reduce.patchAll(() => ({ isRead: true })),
  )
  registerReducer('test.delete', reduce.remove())
  const rows: Row[] = [
    { id: 'a', _version: 1, isRead: false },
    { id: 'b', _version: 1, isRead: false },
  ]
  const m = (kind: string, entityId: string | null, status: Mutation['status'] = 'queued', lastError: string | null = null) =>
    ({ kind, entityId, entity: 'notification', status, lastError }) as Mutation

  it('applies pending changes in order and marks the rows they touch', () => {
    const view = applyOutbox(rows, [m('test.read', 'a'), m('test.delete', 'b')], 'notification')
    expect(view).toEqual([{ id: 'a', _version: 1, isRead: true, _pending: true }])
  })

  it('does not apply a rejected change but shows its message on the row', () => {
    const view = applyOutbox(rows, [m('test.delete', 'b', 'rejected', 'Not allowed')], 'notification')
    expect(view.find((r) => r.id === 'b')).toMatchObject({ _rejected: 'Not allowed' })
    expect(view).toHaveLength(2)
  })

  it('reduces a change to one row over that row alone, and a change to all rows over all', () => {
    const seen: number[] = []
    registerReducer('test.count', (r) => {
      seen.push(r.length)
      return r
    })
    registerReducer(
      'test.insert',
      reduce.insert((mutation) => ({ id: mutation.entityId!, _version: 0, isRead: false })),
    )
    const view = applyOutbox(rows, [m('test.count', 'a'), m('test.count', null), m('test.insert', 'c'), m('test.read', 'a')], 'notification')
    expect(seen).toEqual([1, 2])
    expect(view.map((r) => [r.id, r.isRead, r._pending ?? false])).toEqual([
      ['a', true, true],
      ['b', false, true],
      ['c', false, true],
    ])
  })

  it('ignores other entities and leaves canonical rows untouched', () => {
    const view = applyOutbox(rows, [m('test.readAll', null)], 'notification')
    expect(view.every((r) => r.isRead)).toBe(true)
    expect(rows.every((r) => !r.isRead)).toBe(true)
    expect(applyOutbox(rows, [{ ...m('test.readAll', null), entity: 'agreement' }], 'notification')).toEqual(rows)
  })
})

describe('pull', () => {
  const page = (changes: unknown[], cursor: string, hasMore = false, reset = false) => json(200, { changes, cursor, hasMore, reset })

  it('applies pages with their cursor until hasMore is false', async () => {
    const seen: string[] = []
    const res = await pullAll(
      db,
      transport((_m, path) => {
        const cursor = new URL(`http://x${path}`).searchParams.get('cursor')
        seen.push(cursor ?? '')
        if (!cursor) return page([{ entity: 'notification', id: 'a', op: 'upsert', version: 1, data: { id: 'a', title: 'A' } }], 'c1', true)
        return page(
          [
            { entity: 'notification', id: 'b', op: 'upsert', version: 1, data: { id: 'b', title: 'B' } },
            { entity: 'notification', id: 'a', op: 'delete' },
          ],
          'c2',
        )
      }),
    )
    expect(res).toMatchObject({ applied: 3, status: 'ok' })
    expect(seen).toEqual(['', 'c1'])
    expect(await db.notifications.toArray()).toEqual([{ id: 'b', title: 'B', _version: 1 }])
    expect((await db.meta.get('cursor'))!.value).toBe('c2')
  })

  it('reports a server it could not reach (no answer, 502/503/504) as offline, as the drainer does; other failures as error', async () => {
    const answers: Array<[() => Response, string]> = [
      [() => json(503, { code: 'UNAVAILABLE', message: 'down' }), 'offline'],
      [() => json(502), 'offline'],
      [() => json(504), 'offline'],
      [
        () => {
          throw new TypeError('Failed to fetch')
        },
        'offline',
      ],
      [() => json(500, { code: 'INTERNAL', message: 'bug' }), 'error'],
      [() => json(429), 'error'],
      [() => json(401), 'unauthorized'],
    ]
    for (const [answer, status] of answers) expect((await pullAll(db, transport(answer))).status).toBe(status)
  })

  it('keeps the pages stored before a failure, with their cursor, and resumes from there', async () => {
    const seen: string[] = []
    const handler = (fail: boolean) => (_m: string, path: string) => {
      const cursor = new URL(`http://x${path}`).searchParams.get('cursor') ?? ''
      seen.push(cursor)
      if (!cursor) return page([{ entity: 'notification', id: 'a', op: 'upsert', version: 1, data: { id: 'a' } }], 'c1', true)
      if (fail) return json(503, { code: 'INTERNAL', message: 'down' })
      return page([{ entity: 'notification', id: 'b', op: 'upsert', version: 1, data: { id: 'b' } }], 'c2')
    }
    expect((await pullAll(db, transport(handler(true)))).status).toBe('offline')
    expect((await db.meta.get('cursor'))!.value).toBe('c1')
    expect((await pullAll(db, transport(handler(false)))).status).toBe('ok')
    expect(seen).toEqual(['', 'c1', 'c1'])
    expect((await db.notifications.toArray()).map((r) => r.id)).toEqual(['a', 'b'])
  })

  it('drops the local copy on reset but keeps the outbox', async () => {
    await applyChanges(db, [{ entity: 'notification', id: 'old', op: 'upsert', version: 1, data: {} }], 'c0', false, 0)
    await enqueue(db, mut())
    await pullAll(
      db,
      transport(() => page([{ entity: 'notification', id: 'new', op: 'upsert', version: 1, data: {} }], 'c9', false, true)),
    )
    expect((await db.notifications.toArray()).map((r) => r.id)).toEqual(['new'])
    expect(await db.outbox.count()).toBe(1)
  })

  it('reports offline and unauthorized without changing anything', async () => {
    expect(
      (
        await pullAll(
          db,
          transport(() => {
            throw new TypeError('offline')
          }),
        )
      ).status,
    ).toBe('offline')
    expect(
      (
        await pullAll(
          db,
          transport(() => json(401, {})),
        )
      ).status,
    ).toBe('unauthorized')
    expect(await db.meta.get('cursor')).toBeUndefined()
  })
})

describe('drainOnce in-flight batches', () => {
  it('sends changes to different rows together but never two changes of one row at once', async () => {
    // Each request as it goes on the wire: a batch lists its changes (drainer.test.ts has the
    // same with single requests, for a server without batches).
    const wire: string[][] = []
    const handle = answeringBatches(async () => json(200, {}))
    const slow: SyncTransport = {
      getToken: () => 'token',
      getLocale: () => 'en',
      fetch: (async (url: string, init: RequestInit) => {
        const items = url === '/api/sync/batch' ? (JSON.parse(init.body as string) as { items: Array<{ path: string }> }).items : [{ path: url }]
        wire.push(items.map((i) => i.path.replace(/^\/api/, '')))
        return handle(url, init)
      }) as typeof fetch,
    }
    await enqueue(db, mut({ entityId: 'a', path: '/a1' }))
    await enqueue(db, mut({ entityId: 'b', path: '/b1' }))
    await enqueue(db, mut({ entityId: 'c', path: '/c1' }))
    await enqueue(db, mut({ entityId: 'a', path: '/a2' }))
    await enqueue(db, mut({ entityId: null, path: '/all', kind: 'notification.readAll' }))
    await enqueue(db, mut({ entityId: 'd', path: '/d1' }))
    const res = await drainOnce({ db, transport: slow })
    expect(res.sent).toBe(6)
    expect(wire).toEqual([['/a1', '/b1', '/c1'], ['/a2'], ['/all'], ['/d1']])
  })
})
