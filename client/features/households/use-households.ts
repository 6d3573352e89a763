/** Households from the local copy with queued changes applied, live (they show offline; docs/decisions/0090). */
import type { Household, MoveSettlement } from '../../../shared/contract/households'
import { livesThereOn } from '../../../shared/domain/household'
import { api } from '../../lib/api'
import type { LocalDb, Row } from '../../sync/local-db'
import type { ViewRow } from '../../sync/optimistic'
import { viewWithOutbox } from '../../sync/queue-reads'
import { sharedQuery, useSharedQuery, type SharedQuery } from '../../sync/shared-query'
import { useRecord } from '../../sync/use-record'
import type { SyncHandle } from '../../sync/use-sync'
import './household-mutations'

export type HouseholdView = Partial<Household> & ViewRow

/** "Solvej 3, 2. th., 2100 København Ø". */
export const addressLine = (h: Pick<Partial<Household>, 'street' | 'number' | 'floor' | 'side' | 'zip' | 'city'>) =>
  `${h.street ?? ''} ${h.number ?? ''}${h.floor ? `, ${h.floor}.` : ''}${h.side ? ` ${h.side}` : ''}, ${h.zip ?? ''} ${h.city ?? ''}`.trim()

/** A household's search text: its address, external number and residents' names, lower case. */
const searchText = (h: HouseholdView) => [addressLine(h), h.externalId ?? '', ...(h.residents ?? []).map((r) => r.fullName)].join(' ').toLowerCase()

const byAddress = (a: HouseholdView, b: HouseholdView) =>
  (a.street ?? '').localeCompare(b.street ?? '', 'da') ||
  (a.number ?? '').localeCompare(b.number ?? '', 'da', { numeric: true }) ||
  (a.floor ?? '').localeCompare(b.floor ?? '', 'da', { numeric: true }) ||
  (a.side ?? '').localeCompare(b.side ?? '', 'da') ||
  a.id.localeCompare(b.id)

const listQuery = (companyId: string): SharedQuery<HouseholdView[]> =>
  sharedQuery(`households:${companyId}`, ['households', 'outbox'], async (db: LocalDb) => {
    const rows: Row[] = await db.households.where('companyId').equals(companyId).toArray()
    return ((await viewWithOutbox(db, 'household', rows)) as HouseholdView[]).sort(byAddress)
  })

/** The association's households by address; undefined while IndexedDB opens. */
export const useHouseholds = (handle: SyncHandle | null, companyId: string): HouseholdView[] | undefined => useSharedQuery(handle?.db, listQuery(companyId))

/** The households matching `search` (address, external number, resident). */
export const searchHouseholds = (rows: readonly HouseholdView[], search: string) => {
  const words = search.trim().toLowerCase().split(/\s+/).filter(Boolean)
  return words.length ? rows.filter((h) => words.every((w) => searchText(h).includes(w))) : rows
}

export const useHousehold = (handle: SyncHandle | null, id: string) => useRecord<Household>(handle, 'household', id)

const ownQuery: SharedQuery<HouseholdView[]> = {
  key: 'households:own',
  tables: ['households', 'outbox'],
  read: async (db: LocalDb) => ((await viewWithOutbox(db, 'household', await db.households.toArray())) as HouseholdView[]).sort(byAddress),
}

/** The households `userId` lives in today (a resident's home; their copy holds only those, staff's every one of their associations). */
export function useOwnHouseholds(handle: SyncHandle | null, userId: string | undefined, today: string): HouseholdView[] | undefined {
  const rows = useSharedQuery(handle?.db, ownQuery)
  return rows?.filter((h) => (h.residents ?? []).some((r) => r.userId === userId && livesThereOn(r, today)))
}

/** The final settlement a move on `date` would make (online: it reads the agreement's charges and invoices). */
export const fetchSettlement = async (householdId: string, date: string): Promise<MoveSettlement> =>
  await api('GET', `/households/${householdId}/settlement`, {
    query: { date },
    schema: async () => (await import('../../../shared/contract/households')).MoveSettlement,
  })
