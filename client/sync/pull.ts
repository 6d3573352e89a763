/**
 * Pulls the server's changes into the canonical tables (docs/OFFLINE.md "Pull"). Each page is applied
 * in one Dexie transaction together with its cursor, so a crash mid-pull resumes where the last
 * applied page ended and never skips a change. Pending outbox mutations are not touched: the
 * optimistic view re-applies them on top of the new rows.
 */
import { SYNC_MAX_LIMIT, SyncResponse, type SyncChange } from '../../shared/contract/sync'
import { entityTables, type LocalDb, type Row } from './local-db'
import { isUnreachable, send, type SyncTransport } from './transport'

/**
 * `offline`: the server could not be reached (no answer, or 502/503/504 from what stands in front
 * of it, as the drainer counts it): the indicator says offline even with an empty queue.
 */
export type PullResult = { applied: number; reset: boolean; status: 'ok' | 'offline' | 'unauthorized' | 'error' }

export async function applyChanges(db: LocalDb, changes: SyncChange[], cursor: string, reset: boolean, now: number): Promise<void> {
  const tables = [...db.canonicalTables(), db.meta]
  await db.transaction('rw', tables, async () => {
    if (reset) for (const table of db.canonicalTables()) await table.clear()
    const byTable = new Map<string, { put: Row[]; del: string[] }>()
    for (const change of changes) {
      const name = entityTables[change.entity]
      const bucket = byTable.get(name) ?? { put: [], del: [] }
      byTable.set(name, bucket)
      if (change.op === 'upsert') {
        bucket.del = bucket.del.filter((id) => id !== change.id)
        bucket.put.push({ ...change.data, id: change.id, _version: change.version })
      } else {
        bucket.put = bucket.put.filter((r) => r.id !== change.id)
        bucket.del.push(change.id)
      }
    }
    for (const [name, { put, del }] of byTable) {
      const table = db.table<Row, string>(name)
      if (put.length) await table.bulkPut(put)
      if (del.length) await table.bulkDelete(del)
    }
    await db.meta.put({ key: 'cursor', value: cursor })
    await db.meta.put({ key: 'lastSyncedAt', value: now })
  })
}

/**
 * Pulls until the server has nothing more. The next page is already being fetched while the
 * current one is stored (its cursor comes with the answer), so network and IndexedDB overlap;
 * a page is only ever stored after the one before it, so the stored cursor stays exact.
 */
export async function pullAll(db: LocalDb, transport: SyncTransport, now: () => number = Date.now, limit = SYNC_MAX_LIMIT): Promise<PullResult> {
  let applied = 0
  let reset = false
  const fetchPage = (cursor: string | undefined) =>
    send(transport, 'GET', `/sync?${new URLSearchParams({ limit: String(limit), ...(cursor ? { cursor } : {}) })}`)
  let next = fetchPage((await db.meta.get('cursor'))?.value as string | undefined)
  for (let page = 0; page < 10_000; page++) {
    const answer = await next
    if (isUnreachable(answer.status)) return { applied, reset, status: 'offline' }
    if (answer.status === 401) return { applied, reset, status: 'unauthorized' }
    const parsed = SyncResponse.safeParse(answer.body)
    if (answer.status !== 200 || !parsed.success) return { applied, reset, status: 'error' }
    const { changes, cursor, hasMore } = parsed.data
    if (hasMore) next = fetchPage(cursor)
    // A reset is the first page of a fresh copy: the local copy is dropped with it.
    await applyChanges(db, changes, cursor, parsed.data.reset, now())
    reset ||= parsed.data.reset
    applied += changes.length
    if (!hasMore) break
  }
  return { applied, reset, status: 'ok' }
}
