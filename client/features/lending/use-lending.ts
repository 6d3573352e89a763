/** Lending's items and loans from the local copy with queued changes applied, live (they show offline). */
import type { LendingItem, Loan } from '../../../shared/contract/lending'
import type { LocalDb, Row } from '../../sync/local-db'
import type { ViewRow } from '../../sync/optimistic'
import { viewWithOutbox } from '../../sync/queue-reads'
import { useSharedQuery, type SharedQuery } from '../../sync/shared-query'
import { useRecord } from '../../sync/use-record'
import type { SyncHandle } from '../../sync/use-sync'
import './lending-mutations'

export type ItemView = Partial<LendingItem> & ViewRow
export type LoanView = Partial<Loan> & ViewRow

const newestFirst = (a: { createdAt?: string; id: string }, b: { createdAt?: string; id: string }) =>
  (b.createdAt ?? '').localeCompare(a.createdAt ?? '') || b.id.localeCompare(a.id)

const itemsQuery: SharedQuery<ItemView[]> = {
  key: 'lending:items',
  tables: ['lendingItems', 'outbox'],
  read: async (db: LocalDb) => ((await viewWithOutbox(db, 'lendingItem', (await db.lendingItems.toArray()) as Row[])) as ItemView[]).sort(newestFirst),
}
const loansQuery: SharedQuery<LoanView[]> = {
  key: 'lending:loans',
  tables: ['loans', 'outbox'],
  read: async (db: LocalDb) => ((await viewWithOutbox(db, 'loan', (await db.loans.toArray()) as Row[])) as LoanView[]).sort(newestFirst),
}

/** Every item of the user's associations (the sync sends only those), newest first; undefined while IndexedDB opens. */
export const useItems = (handle: SyncHandle | null): ItemView[] | undefined => useSharedQuery(handle?.db, itemsQuery)
/** Every loan of the user's associations (others' without their contract), newest first. */
export const useLoans = (handle: SyncHandle | null): LoanView[] | undefined => useSharedQuery(handle?.db, loansQuery)

export const useItem = (handle: SyncHandle | null, id: string) => useRecord<LendingItem>(handle, 'lendingItem', id)
export const useLoan = (handle: SyncHandle | null, id: string) => useRecord<Loan>(handle, 'loan', id)
