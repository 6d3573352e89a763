/** One company as the user sees it: the local copy with queued edits applied, live from IndexedDB. */
import type { Company } from '../../../shared/contract/companies'
import type { LocalDb, Mutation } from '../../sync/local-db'
import { applyOutbox, type ViewRow } from '../../sync/optimistic'
import { useSharedQuery, type SharedQuery } from '../../sync/shared-query'
import { isProblem, type SyncHandle } from '../../sync/use-sync'
// The reducers must be registered wherever the view is computed.
import './company-mutations'

export type CompanyView = Partial<Company> & ViewRow

export interface CompanyState {
  /** null when the local copy has no such company. */
  company: CompanyView | null
  /** Edits the server refused or that conflict, for the user to retry or discard. */
  problems: Mutation[]
}

const queries = new Map<string, SharedQuery<CompanyState>>()

function companyQuery(id: string): SharedQuery<CompanyState> {
  let query = queries.get(id)
  if (!query) {
    query = {
      key: `company:${id}`,
      tables: ['companies', 'outbox'],
      read: async (db: LocalDb) => {
        const rows = await db.companies.where('id').equals(id).toArray()
        const outbox = (await db.outbox.where('entity').equals('company').toArray()).filter((m) => m.entityId === id)
        const [company] = applyOutbox(rows, outbox, 'company') as CompanyView[]
        return { company: company ?? null, problems: outbox.filter(isProblem) }
      },
    }
    queries.set(id, query)
  }
  return query
}

/** undefined while IndexedDB opens. */
export const useCompany = (handle: SyncHandle | null, id: string): CompanyState | undefined => useSharedQuery(handle?.db, companyQuery(id))
