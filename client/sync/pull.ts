/**
 * Pulls the server's changes into the canonical tables (docs/OFFLINE.md "Pull"). Each page is applied
 * in one Dexie transaction together with its cursor, so a crash mid-pull resumes where the last
 * applied page ended and never skips a change. Pending outbox mutations are not touched: the
 * optimistic view re-applies them on top of the new rows.
 */
import { SYNC_MAX_LIMIT } from '../../shared/contract/sync-basics'
import type { SyncChange } from '../../shared/contract/sync'
import { entityTables, type LocalDb, type Row } from './local-db'
import { readSyncPage } from './sync-page'
import { isUnreachable, send, type SyncAnswer, type SyncTransport } from './transport'

/**
 * `offline`: the server could not be reached (no answer, or 502/503/504 from what stands in front
 * of it, as the drainer counts it): the indicator says offline even with an empty queue.
 */
export type PullResult = { applied: number; reset: boolean; status: 'ok' | 'offline' | 'unauthorized' | 'error' }

/** The stored cursor was not the one a page was fetched after: the page was not stored. */
export class PullSuperseded extends Error {
  constructor() {
    super('the stored sync cursor moved on while a page was being stored')
  }
}

/**
 * Stores one page and its cursor in one transaction. With `after`, the page lands only on the
 * cursor it was fetched after: the transaction reads the stored cursor first and aborts (rejecting
 * with PullSuperseded) when it differs, e.g. because the page before it failed to commit or another
 * tab moved on. That lets pullAll open a page's transaction while the one before still commits.
 */
export async function applyChanges(
  db: LocalDb,
  changes: SyncChange[],
  cursor: string,
  reset: boolean,
  now: number,
  after?: { cursor: string | undefined },
): Promise<void> {
  // documentFiles: the copies of documents' files kept for offline reading go with their document.
  const tables = [...db.canonicalTables(), db.meta, db.documentFiles]
  let superseded = false
  try {
    await db.transaction('rw', tables, async (tx) => {
      // Requests run in the order they are made: this read comes before every write of the page,
      // and its answer is handled before the transaction can commit.
      if (after)
        void db.meta.get('cursor').then((stored) => {
          if (stored?.value === after.cursor) return
          superseded = true
          tx.abort()
        })
      if (reset) await Promise.all([...db.canonicalTables(), db.documentFiles].map((table) => table.clear()))
      // The last change of a row in the page wins (a Map per table: one pass, whatever the page size).
      const byTable = new Map<string, Map<string, Row | null>>()
      for (const change of changes) {
        const name = entityTables[change.entity]
        let rows = byTable.get(name)
        if (!rows) byTable.set(name, (rows = new Map()))
        rows.set(change.id, change.op === 'upsert' ? { ...change.data, id: change.id, _version: change.version } : null)
      }
      // All the page's writes are made at once: IndexedDB runs them in order without a round trip
      // to this thread between tables.
      const writes: Promise<unknown>[] = []
      for (const [name, rows] of byTable) {
        const put: Row[] = []
        const del: string[] = []
        for (const [id, row] of rows) {
          if (row) put.push(row)
          else del.push(id)
        }
        const table = db.table<Row, string>(name)
        if (put.length) writes.push(table.bulkPut(put))
        if (del.length) writes.push(table.bulkDelete(del))
        // A document the user may no longer read leaves the device with its kept file.
        if (del.length && name === entityTables.document) writes.push(db.documentFiles.where('documentId').anyOf(del).delete())
      }
      writes.push(
        db.meta.bulkPut([
          { key: 'cursor', value: cursor },
          { key: 'lastSyncedAt', value: now },
        ]),
      )
      await Promise.all(writes)
    })
  } catch (error) {
    throw superseded ? new PullSuperseded() : error
  }
}

/**
 * The cursor in a `Link: </api/sync?…&cursor=…>; rel="next"` header (docs/API.md "Sync"). Never
 * throws: it runs inside `send`, where a throw would make the answer a network failure (status 0,
 * "offline") however good its body, so a link that is no URL is read as no link.
 */
export function nextCursorOf(link: string | null): string | undefined {
  const target = link?.match(/^<([^>]*)>\s*;\s*rel="?next"?$/)?.[1]
  if (target === undefined) return undefined
  try {
    return new URL(target, 'http://x').searchParams.get('cursor') ?? undefined
  } catch {
    return undefined
  }
}

/** Fresh starts of a pull whose cursor another tab moved on, before leaving the rest to that tab. */
const SUPERSEDED_RETRIES = 3

/** Pages asked for ahead of the one being read (a bound on memory when storing is slower than the server). */
const AHEAD = 2

/**
 * Pulls until the server has nothing more, overlapping three things:
 * - the next page is asked for as soon as the server's answer names it in its `Link` header,
 *   before its body has arrived or been read (at most AHEAD pages ahead), so the server builds
 *   a page while this thread reads and stores the ones before (without the header, once the body
 *   has been read, from its `cursor`);
 * - a page's writes are handed to IndexedDB while the page before still commits (at most two
 *   pages at once).
 * Pages are still committed strictly in order (IndexedDB runs transactions on the same tables in
 * the order they were opened), and a page only lands on the cursor of the one before it (see
 * applyChanges), so the stored cursor stays exact.
 *
 * Another tab pulling at the same time (both woken by `online`, say) stores its pages on the same
 * cursors, so one of the two finds the cursor moved on (PullSuperseded). That is no failure: the
 * pull starts again from the cursor the other tab stored, a few times, and then leaves the rest
 * to the other tab (`applied` and `reset` count only the pages this pull committed).
 */
export async function pullAll(db: LocalDb, transport: SyncTransport, now: () => number = Date.now, limit = SYNC_MAX_LIMIT): Promise<PullResult> {
  const done = { applied: 0, reset: false }
  for (let attempt = 0; ; attempt++) {
    try {
      const status = await pullFromStoredCursor(db, transport, now, limit, done)
      if (status === 'ok') markPulled(done.applied)
      return { ...done, status }
    } catch (error) {
      if (!(error instanceof PullSuperseded)) throw error
      if (attempt === SUPERSEDED_RETRIES) return { ...done, status: 'ok' }
    }
  }
}

/**
 * A User Timing mark when a pull has stored everything the server had (`detail.applied`: the
 * changes it stored): the benchmark reads it instead of polling IndexedDB, which would compete
 * with the pull it measures (bench/run.ts). Only the latest is kept.
 */
export const PULLED_MARK = 'boligkasse:pulled'
function markPulled(applied: number): void {
  if (typeof performance === 'undefined' || typeof performance.mark !== 'function') return
  performance.clearMarks(PULLED_MARK)
  performance.mark(PULLED_MARK, { detail: { applied } })
}

/** One pull from the stored cursor (see pullAll); counts the pages it commits into `done`. */
async function pullFromStoredCursor(
  db: LocalDb,
  transport: SyncTransport,
  now: () => number,
  limit: number,
  done: { applied: number; reset: boolean },
): Promise<PullResult['status']> {
  /** Pages asked for and not read yet, by the cursor they come after (undefined: the first). */
  const requested = new Map<string | undefined, Promise<SyncAnswer>>()
  /** A next cursor a header named while AHEAD pages were already waiting. */
  let named: string | undefined
  /** Set when the pull ends: an answer still arriving asks for nothing more. */
  let ended = false
  const ask = (after: string | undefined): void => {
    if (ended || requested.has(after)) return
    let followed = false
    const onResponse = (res: Response) => {
      const next = res.status === 200 ? nextCursorOf(res.headers.get('Link')) : undefined
      if (next === undefined || followed) return
      followed = true
      if (requested.size < AHEAD) ask(next)
      else named = next
    }
    const query = new URLSearchParams({ limit: String(limit), ...(after !== undefined ? { cursor: after } : {}) })
    requested.set(after, send(transport, 'GET', `/sync?${query}`, { onResponse }))
  }
  /** The page after `after`: the one asked for already, or asked for now. */
  const take = (after: string | undefined): Promise<SyncAnswer> => {
    ask(after)
    const answer = requested.get(after)!
    requested.delete(after)
    if (named !== undefined && requested.size < AHEAD) {
      ask(named)
      named = undefined
    }
    return answer
  }

  let from = (await db.meta.get('cursor'))?.value as string | undefined
  // The page before, while IndexedDB commits it; its failure surfaces before anything else is reported.
  let storing: Promise<void> = Promise.resolve()
  const settle = async (status: PullResult['status']): Promise<PullResult['status']> => {
    await storing
    return status
  }
  try {
    for (let page = 0; page < 10_000; page++) {
      const answer = await take(from)
      if (isUnreachable(answer.status)) return settle('offline')
      if (answer.status === 401) return settle('unauthorized')
      const parsed = answer.status === 200 ? readSyncPage(answer.body) : undefined
      if (!parsed) return settle('error')
      const { changes, cursor, hasMore } = parsed
      // Already asked for when a header named it; else now, while this page is stored.
      if (hasMore) ask(cursor)
      // A reset is the first page of a fresh copy: the local copy is dropped with it.
      const stored = applyChanges(db, changes, cursor, parsed.reset, now(), { cursor: from }).then(() => {
        done.applied += changes.length
        done.reset ||= parsed.reset
      })
      // Awaited below (or with the next page); a failure is not lost meanwhile.
      stored.catch(() => undefined)
      await storing
      storing = stored
      from = cursor
      if (!hasMore) break
    }
    return await settle('ok')
  } finally {
    ended = true
  }
}
