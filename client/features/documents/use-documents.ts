/** Documents from the local copy with queued changes applied, live (they show offline). */
import type { Document } from '../../../shared/contract/documents'
import type { LocalDb, Row } from '../../sync/local-db'
import type { ViewRow } from '../../sync/optimistic'
import { viewWithOutbox } from '../../sync/queue-reads'
import { useSharedQuery, type SharedQuery } from '../../sync/shared-query'
import { useRecord } from '../../sync/use-record'
import type { SyncHandle } from '../../sync/use-sync'
import './document-mutations'

export type DocumentView = Partial<Document> & ViewRow

const newestFirst = (a: DocumentView, b: DocumentView) => (b.createdAt ?? '').localeCompare(a.createdAt ?? '') || b.id.localeCompare(a.id)

const listQuery: SharedQuery<DocumentView[]> = {
  key: 'documents:all',
  tables: ['documents', 'outbox'],
  read: async (db: LocalDb) => {
    const rows: Row[] = await db.documents.toArray()
    return ((await viewWithOutbox(db, 'document', rows)) as DocumentView[]).sort(newestFirst)
  },
}

/** Every document the user may read (the sync sends only those), newest first; undefined while IndexedDB opens. */
export const useDocuments = (handle: SyncHandle | null): DocumentView[] | undefined => useSharedQuery(handle?.db, listQuery)

export const useDocument = (handle: SyncHandle | null, id: string) => useRecord<Document>(handle, 'document', id)
