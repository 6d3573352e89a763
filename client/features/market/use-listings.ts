/** Market listings from the local copy with queued changes applied, live (they show offline). */
import type { AccountInfo } from '../../../shared/contract/account'
import type { Listing } from '../../../shared/contract/market'
import type { LocalDb, Row } from '../../sync/local-db'
import type { ViewRow } from '../../sync/optimistic'
import { viewWithOutbox } from '../../sync/queue-reads'
import { useSharedQuery, type SharedQuery } from '../../sync/shared-query'
import { useRecord } from '../../sync/use-record'
import type { SyncHandle } from '../../sync/use-sync'
import { marketCompanyIds } from './labels'
import './market-mutations'

export type ListingView = Partial<Listing> & ViewRow

const newestFirst = (a: ListingView, b: ListingView) => (b.createdAt ?? '').localeCompare(a.createdAt ?? '') || b.id.localeCompare(a.id)

const listQuery: SharedQuery<ListingView[]> = {
  key: 'listings:all',
  tables: ['listings', 'outbox'],
  read: async (db: LocalDb) => {
    const rows: Row[] = await db.listings.toArray()
    return ((await viewWithOutbox(db, 'listing', rows)) as ListingView[]).sort(newestFirst)
  },
}

/** Every listing of the user's associations (the sync sends only those), newest first; undefined while IndexedDB opens. */
export const useListings = (handle: SyncHandle | null): ListingView[] | undefined => useSharedQuery(handle?.db, listQuery)

export const useListing = (handle: SyncHandle | null, id: string) => useRecord<Listing>(handle, 'listing', id)

const agreementsQuery: SharedQuery<Row[]> = { key: 'market:agreements', tables: ['agreements'], read: async (db: LocalDb) => await db.agreements.toArray() }

/** The user's agreements from the local copy (which association's market they take part in). */
export const useMyAgreements = (handle: SyncHandle | null): Row[] | undefined => useSharedQuery(handle?.db, agreementsQuery)

/**
 * The association whose neighbours' screens (market, lending, forum) the user takes part in: the
 * one they work for, else the one they live in (`marketCompanyIds`); `null` when none — a resident
 * without an agreement is not yet a member — and `undefined` while the local copy loads.
 */
export function useMemberCompany(handle: SyncHandle | null, user: Pick<AccountInfo, 'id' | 'currentCompany'> | null | undefined): string | null | undefined {
  const agreements = useMyAgreements(handle)
  if (agreements === undefined) return undefined
  return marketCompanyIds(user?.currentCompany?.id, agreements as Parameters<typeof marketCompanyIds>[1], user?.id)[0] ?? null
}
