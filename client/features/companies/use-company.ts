/** One company as the user sees it: the local copy with queued edits applied, live from IndexedDB. */
import type { Company } from '../../../shared/contract/companies'
import type { ViewRow } from '../../sync/optimistic'
import { useRecord } from '../../sync/use-record'
import type { SyncHandle } from '../../sync/use-sync'
// The reducers must be registered wherever the view is computed.

export type CompanyView = Partial<Company> & ViewRow

/** undefined while IndexedDB opens; `row` null when the local copy has no such company. */
export const useCompany = (handle: SyncHandle | null, id: string) => useRecord<Company>(handle, 'company', id)
