/** One synced record as the user sees it: the local copy with queued changes applied, live from IndexedDB. */
import { useMemo } from 'react'
import type { SyncEntity } from '../../shared/contract/sync'
import type { SyncStatus } from './engine'
import { entityTables, type LocalDb, type Mutation } from './local-db'
import { applyOutbox, type ViewRow } from './optimistic'
import { sharedQuery, useSharedQuery, type SharedQuery } from './shared-query'
import { isProblem, useSyncStatus, type SyncHandle } from './use-sync'

export interface RecordState<T> {
  /** null when the local copy has no such record (never synced, or not visible to this user). */
  row: (Partial<T> & ViewRow) | null
  /** Changes to it the server refused or that conflict, for the user to retry or discard. */
  problems: Mutation[]
}

/**
 * Why a record is not shown (docs/OFFLINE.md "Pull"), decided here once for every detail page:
 * - `loading`: the first pull is still on its way, so the record may yet arrive;
 * - `offline`: the server cannot be asked (browser offline or server unreachable), so a record
 *   missing from the local copy may well exist: "Not available offline yet", never "not found";
 * - `notFound`: the server answered and the record is not among what this user may see.
 */
export type Absence = 'loading' | 'offline' | 'notFound'

export function absenceOf(status: Pick<SyncStatus, 'online' | 'syncing' | 'lastSyncedAt' | 'lastError'>): Absence {
  if (!status.online || status.lastError === 'offline') return 'offline'
  if (status.syncing || (status.lastSyncedAt === null && status.lastError === null)) return 'loading'
  return 'notFound'
}

function recordQuery(entity: SyncEntity, id: string): SharedQuery<RecordState<unknown>> {
  const key = `${entity}:${id}`
  const table = entityTables[entity]
  return sharedQuery(key, [table, 'outbox'], async (db: LocalDb) => {
    const rows = await db.table_(entity).where('id').equals(id).toArray()
    const outbox = (await db.outbox.where('entity').equals(entity).toArray()).filter((m) => m.entityId === id)
    const [row] = applyOutbox(rows, outbox, entity)
    return { row: row ?? null, problems: outbox.filter(isProblem) }
  })
}

/**
 * undefined while IndexedDB opens. The mutation kinds that may change the record must be
 * registered (imported) wherever this is used, so the view applies them. When the record is
 * missing, `absent` says why (see `Absence`): detail pages show a spinner for `loading` and
 * `RecordMissing` for the others; it is null while there is a row.
 */
export function useRecord<T>(handle: SyncHandle | null, entity: SyncEntity, id: string): (RecordState<T> & { absent: Absence | null }) | undefined {
  const state = useSharedQuery(handle?.db, recordQuery(entity, id)) as RecordState<T> | undefined
  const absent = absenceOf(useSyncStatus(handle))
  // The same object while nothing changed, like the shared query's answer it wraps.
  return useMemo(() => state && { ...state, absent: state.row ? null : absent }, [state, absent])
}
