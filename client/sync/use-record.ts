/** One synced record as the user sees it: the local copy with queued changes applied, live from IndexedDB. */
import type { SyncEntity } from '../../shared/contract/sync'
import { entityTables, type LocalDb, type Mutation } from './local-db'
import { applyOutbox, type ViewRow } from './optimistic'
import { sharedQuery, useSharedQuery, type SharedQuery } from './shared-query'
import { isProblem, type SyncHandle } from './use-sync'

export interface RecordState<T> {
  /** null when the local copy has no such record (never synced, or not visible to this user). */
  row: (Partial<T> & ViewRow) | null
  /** Changes to it the server refused or that conflict, for the user to retry or discard. */
  problems: Mutation[]
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
 * registered (imported) wherever this is used, so the view applies them.
 */
export const useRecord = <T>(handle: SyncHandle | null, entity: SyncEntity, id: string): RecordState<T> | undefined =>
  useSharedQuery(handle?.db, recordQuery(entity, id)) as RecordState<T> | undefined
