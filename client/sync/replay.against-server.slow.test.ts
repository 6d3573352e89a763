/**
 * Measures the replay of 500 queued changes (target ≤ 5 s, 0 duplicates: docs/BENCHMARKS.md, docs/OFFLINE.md "Measured") through the real
 * drainer and the real server app over HTTP on localhost: in batches (`POST /api/sync/batch`)
 * against one request per change (up to MAX_IN_FLIGHT at once, as with a server without the
 * batch route). Three runs each, alternating, each on a fresh server; prints min/median/max and
 * checks that every change was applied exactly once. `npx vitest run --project slow client/sync/replay.against-server.slow.test.ts`
 */
import type { AddressInfo } from 'node:net'
import { afterAll, describe, expect, it } from 'vitest'
import { demo, testApp, type TestApp } from '../../server/test/harness'
import { createNodeServer } from '../../server/http/node-server'
import { drainOnce } from './drainer'
import { LocalDb, deleteLocalDb } from './local-db'
import { enqueue } from './outbox'
import type { SyncTransport } from './transport'
import { transaction } from '../../server/db/client'

const CHANGES = 500
const RUNS = 3

const dbs: LocalDb[] = []
afterAll(async () => {
  for (const db of dbs.splice(0)) {
    db.close()
    await deleteLocalDb(db.name.replace('boligkasse-', ''))
  }
})

async function serve(t: TestApp) {
  const server = createNodeServer(t.app.fetch as never)
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok))
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return { base, close: () => new Promise<void>((ok) => server.close(() => ok())) }
}

/** One replay on a fresh server: 500 "mark as read" changes queued offline, then drained. */
async function replay(mode: 'batch' | 'single'): Promise<{ ms: number; duplicates: number; missing: number }> {
  const t = await testApp()
  const token = await t.login(demo.admin)
  const userId = (await t.call('GET', '/account/info', { token })).json.id as string
  const ids: string[] = []
  await t.lock.run(() =>
    transaction(t.db, async () => {
      for (let i = 0; i < CHANGES; i++)
        ids.push(await t.services.notifications.notify(userId, { type: 'info', title: { id: 'N{i}' }, message: { id: 'm' }, values: { i } }))
    }),
  )
  const db = new LocalDb(`${userId}-${crypto.randomUUID()}`)
  dbs.push(db)
  for (const id of ids)
    await enqueue(db, { kind: 'notification.read', method: 'PATCH', path: `/notifications/${id}/read`, entity: 'notification', entityId: id })

  const http = await serve(t)
  const transport: SyncTransport = {
    getToken: () => token,
    getLocale: () => 'en',
    // An older server: no batch route, so the drainer sends one request per change.
    fetch: ((url: string, init: RequestInit) =>
      mode === 'single' && url === '/api/sync/batch' ?
        Promise.resolve(new Response(null, { status: 404 }))
      : fetch(`${http.base}${url}`, init)) as typeof fetch,
  }
  // Printed beside the two modes, never asserted: the bound (≤ 5 s) is a figure of `npm run bench` (docs/BENCHMARKS.md).
  // eslint-disable-next-line no-restricted-syntax -- printed, not a bound
  const started = performance.now()
  for (let round = 0; (await db.outbox.count()) > 0; round++) {
    if (round > 100) throw new Error('the queue does not drain')
    await drainOnce({ db, transport })
  }
  // eslint-disable-next-line no-restricted-syntax -- printed, not a bound
  const ms = performance.now() - started
  await http.close()

  const replayed = new Set(ids)
  const rows = t.database.sqlite
    .prepare<[string], { id: string; version: number; is_read: number }>('SELECT id, version, is_read FROM notifications WHERE user_id = ?')
    .all(userId)
    .filter((r) => replayed.has(r.id))
  const changeLog = t.database.sqlite
    .prepare<[string], { n: number }>("SELECT count(*) AS n FROM change_log WHERE entity = 'notification' AND user_id = ?")
    .get(userId)!.n
  return {
    ms,
    // A change applied twice moves the version twice or logs twice.
    duplicates: rows.filter((r) => r.version > 2).length + Math.max(0, changeLog - (CHANGES + 1) - CHANGES),
    missing: CHANGES - rows.filter((r) => r.is_read).length,
  }
}

const summary = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b)
  return `min ${s[0]!.toFixed(0)} ms, median ${s[Math.floor(s.length / 2)]!.toFixed(0)} ms, max ${s.at(-1)!.toFixed(0)} ms`
}

describe('replay of 500 queued changes', () => {
  it('through batches and one by one: every change applied exactly once; prints the times', async () => {
    const times = { batch: [] as number[], single: [] as number[] }
    for (let run = 0; run < RUNS; run++)
      for (const mode of ['batch', 'single'] as const) {
        const { ms, duplicates, missing } = await replay(mode)
        expect({ mode, duplicates, missing }).toEqual({ mode, duplicates: 0, missing: 0 })
        times[mode].push(ms)
      }
    console.log(`replay of ${CHANGES} queued changes, ${RUNS} runs each:
  batches of up to 50 (POST /api/sync/batch): ${summary(times.batch)}
  one request per change (16 in flight):      ${summary(times.single)}`)
  })
})
