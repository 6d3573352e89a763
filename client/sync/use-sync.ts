/**
 * The running sync session for the rest of the app: installed once at start (app.tsx), read by
 * screens through `useSync()`. Also the user's actions on the queue itself (retry, discard,
 * resolve a conflict), so that no component touches the outbox directly.
 */
import { createStore, useStore, type Store } from '../lib/store'
import type { SyncStatus } from './engine'
import type { Mutation } from './local-db'
import type { Side } from './merge'
import { discard, overrideConflict, resolveConflict, retry } from './outbox'
import { useSharedQuery, type SharedQuery } from './shared-query'
import { createSyncSession, type SyncHandle, type SyncSession, type SyncSessionDeps } from './sync-session'

export type { SyncHandle }

let session: SyncSession | null = null
const none = createStore<SyncHandle | null>(null)

export function installSyncSession(deps: SyncSessionDeps): SyncSession {
  session?.dispose()
  session = createSyncSession(deps)
  return session
}

/** Sign-out: stops syncing and deletes the user's local database. */
export const discardLocalData = (userId: string): Promise<void> => session?.discardLocalData(userId) ?? Promise.resolve()

/** Pull soon (the server has probably notified the user of something). */
export const requestSync = (): void => session?.requestSync()

/** The signed-in user's database and engine; null when nobody is signed in. */
export const useSync = (): SyncHandle | null => useStore(session?.store ?? none)

const idle: Store<SyncStatus> = createStore<SyncStatus>({ online: true, syncing: false, authPaused: false, lastSyncedAt: null, lastError: null })

export const useSyncStatus = (handle: SyncHandle | null): SyncStatus => useStore(handle?.engine.status ?? idle)

/** The whole queue in order (pending, rejected and conflicting changes); undefined while loading. */
const outboxQuery: SharedQuery<Mutation[]> = { key: 'outbox', tables: ['outbox'], read: (db) => db.outbox.orderBy('seq').toArray() }

export const useOutbox = (handle: SyncHandle | null): Mutation[] | undefined => useSharedQuery(handle?.db, outboxQuery)

export const isProblem = (m: Mutation) => m.status === 'rejected' || m.status === 'conflict'
export const isPending = (m: Mutation) => m.status === 'queued' || m.status === 'sending'

/** What the user can do about a change in the queue; each starts sending at once. */
export function queueActions(handle: SyncHandle) {
  const { db, engine } = handle
  return {
    retry: async (m: Mutation) => {
      await retry(db, m.mutationId)
      await engine.syncNow()
    },
    discard: (m: Mutation) => discard(db, m.mutationId),
    /** 412: send the user's change again on top of the server's version. */
    keepMine: async (m: Mutation) => {
      const version = (m.conflict as { version?: unknown } | undefined)?.version
      await overrideConflict(db, m.mutationId, typeof version === 'number' ? version : (m.baseVersion ?? 0))
      await engine.syncNow()
    },
    /** 412: the user's choice per conflicting field (the rest is merged); sends what still differs from the server. */
    resolve: async (m: Mutation, choices: Record<string, Side>) => {
      await resolveConflict(db, m.mutationId, choices)
      await engine.syncNow()
    },
    /** 412: give up the user's change; the server's version stays. */
    takeTheirs: (m: Mutation) => discard(db, m.mutationId),
    syncNow: () => engine.syncNow(),
  }
}
