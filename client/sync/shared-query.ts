/**
 * Live IndexedDB reads for screens, shared and paced.
 *
 * - Shared: every component asking for the same thing (the queue in two indicators, the
 *   sign-out button and the toasts; the notifications in the list and the sidebar badge) gets
 *   one query, not one each.
 * - Paced: while the outbox drains or a pull applies pages, the tables change many times a second.
 *   Re-reading after each change would keep the main thread busy with reads that are stale at
 *   once and slow the drain down (each confirmed mutation is two writes). A query re-runs on the
 *   first change at once, then at most every four of its own durations (at most a second) while changes keep coming.
 * - Consistent: each run reads all its tables in one read transaction, so a change that moves a
 *   row from the outbox into the canonical table is never seen half done.
 *
 * Changes come from Dexie's `storagemutated` event, which also carries other tabs' writes.
 */
import Dexie from 'dexie'
import { useCallback, useSyncExternalStore } from 'react'
import type { LocalDb } from './local-db'

export interface SharedQuery<T> {
  /** One name per query: the same key always means the same tables and read. */
  key: string
  tables: readonly string[]
  read: (db: LocalDb) => Promise<T>
}

interface Running<T> {
  value: T | undefined
  listeners: Set<() => void>
  stop: (() => void) | null
}

const MIN_GAP_MS = 16
const MAX_GAP_MS = 1000

const byDb = new WeakMap<LocalDb, Map<string, Running<unknown>>>()

function runningOf<T>(db: LocalDb, key: string): Running<T> {
  let forDb = byDb.get(db)
  if (!forDb) byDb.set(db, (forDb = new Map()))
  let running = forDb.get(key) as Running<T> | undefined
  if (!running) forDb.set(key, (running = { value: undefined, listeners: new Set(), stop: null }))
  return running
}

/** Starts reading `query` whenever its tables change; returns the function that stops it. */
function start<T>(db: LocalDb, query: SharedQuery<T>, state: Running<T>): () => void {
  const prefixes = query.tables.map((t) => `idb://${db.name}/${t}/`)
  let stopped = false
  let busy = false
  let dirty = false
  let timer: ReturnType<typeof setTimeout> | undefined
  let lastStart = 0
  let lastCost = 0

  const run = async () => {
    if (busy) {
      dirty = true
      return
    }
    busy = true
    dirty = false
    lastStart = performance.now()
    try {
      const value = await db.transaction('r', [...query.tables], () => query.read(db))
      if (stopped) return
      state.value = value
      for (const l of state.listeners) l()
    } catch {
      // A closed database (sign-out) ends the reads; the screens have moved on by then.
    } finally {
      lastCost = performance.now() - lastStart
      busy = false
      if (dirty && !stopped) schedule()
    }
  }

  function schedule() {
    if (timer || stopped) return
    if (busy) {
      dirty = true
      return
    }
    const gap = Math.min(MAX_GAP_MS, Math.max(MIN_GAP_MS, 4 * lastCost))
    timer = setTimeout(
      () => {
        timer = undefined
        void run()
      },
      Math.max(0, lastStart + gap - performance.now()),
    )
  }

  const onChange = (parts: Record<string, unknown>) => {
    for (const part in parts) {
      if (part === 'all' || prefixes.some((p) => part.startsWith(p))) return schedule()
    }
  }
  Dexie.on('storagemutated', onChange)
  void run()
  return () => {
    stopped = true
    clearTimeout(timer)
    Dexie.on('storagemutated').unsubscribe(onChange)
  }
}

/** Subscribes to a shared query of `db`; the query runs while anyone listens. */
export function subscribeShared<T>(db: LocalDb, query: SharedQuery<T>, listener: () => void): () => void {
  const state = runningOf<T>(db, query.key)
  state.listeners.add(listener)
  if (!state.stop) state.stop = start(db, query, state)
  return () => {
    state.listeners.delete(listener)
    if (state.listeners.size === 0) {
      state.stop?.()
      state.stop = null
    }
  }
}

export const sharedValue = <T>(db: LocalDb, key: string): T | undefined => runningOf<T>(db, key).value

/** The latest result of a shared query (undefined until its first read, or without a database). */
export function useSharedQuery<T>(db: LocalDb | null | undefined, query: SharedQuery<T>): T | undefined {
  // Stable per database and query: a new subscribe function would make React resubscribe, which
  // would stop and restart the reads on every render.
  const subscribe = useCallback((listener: () => void) => (db ? subscribeShared(db, query, listener) : () => undefined), [db, query])
  return useSyncExternalStore(subscribe, () => (db ? sharedValue<T>(db, query.key) : undefined))
}

const defined = new Map<string, SharedQuery<unknown>>()

/**
 * The query named `key`, made on first use and the same object after (so subscriptions stay
 * stable across renders): `read` runs over `tables` whenever one of them changes.
 */
export function sharedQuery<T>(key: string, tables: readonly string[], read: (db: LocalDb) => Promise<T>): SharedQuery<T> {
  let query = defined.get(key)
  if (!query) defined.set(key, (query = { key, tables, read }))
  return query as SharedQuery<T>
}
