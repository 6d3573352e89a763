/** Specialists from the local copy with queued changes applied, live (they show offline). */
import type { Specialist } from '../../../shared/contract/specialists'
import type { LocalDb, Row } from '../../sync/local-db'
import type { ViewRow } from '../../sync/optimistic'
import { viewWithOutbox } from '../../sync/queue-reads'
import { useSharedQuery, type SharedQuery } from '../../sync/shared-query'
import { useRecord } from '../../sync/use-record'
import type { SyncHandle } from '../../sync/use-sync'
import './specialist-mutations'

export type SpecialistView = Partial<Specialist> & ViewRow

const byName = (a: SpecialistView, b: SpecialistView) => (a.name ?? '').localeCompare(b.name ?? '', 'da') || a.id.localeCompare(b.id)

const listQuery: SharedQuery<SpecialistView[]> = {
  key: 'specialists:all',
  tables: ['specialists', 'outbox'],
  read: async (db: LocalDb) => {
    const rows: Row[] = await db.specialists.toArray()
    return ((await viewWithOutbox(db, 'specialist', rows)) as SpecialistView[]).sort(byName)
  },
}

/** The specialists of the user's associations (the sync sends only those), by name; undefined while IndexedDB opens. */
export const useSpecialists = (handle: SyncHandle | null): SpecialistView[] | undefined => useSharedQuery(handle?.db, listQuery)

export const useSpecialist = (handle: SyncHandle | null, id: string) => useRecord<Specialist>(handle, 'specialist', id)
