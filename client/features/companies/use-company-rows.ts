/** A company's addresses, members or payment providers from the local copy (with queued changes), live. */
import type { LocalDb, Mutation, Row } from '../../sync/local-db'
import { applyOutbox, type ViewRow } from '../../sync/optimistic'
import { pendingOf } from '../../sync/queue-reads'
import { sharedQuery, useSharedQuery, type SharedQuery } from '../../sync/shared-query'
import { isProblem, type SyncHandle } from '../../sync/use-sync'
// The reducers must be registered wherever the view is computed.

const tables = { address: 'addresses', member: 'members', paymentProvider: 'paymentProviders' } as const
export type CompanyChildEntity = keyof typeof tables

/** A row as the tab shows it, with the changes to it the server refused or that conflict (to retry or discard). */
export type CompanyChildRow = ViewRow & { _problems?: Mutation[] }

function rowsQuery(entity: CompanyChildEntity, companyId: string): SharedQuery<CompanyChildRow[]> {
  const key = `company-${entity}:${companyId}`
  const table = tables[entity]
  return sharedQuery(key, [table, 'outbox'], async (db: LocalDb) => {
    const rows: Row[] = await db[table].where('companyId').equals(companyId).toArray()
    const outbox = await pendingOf(db, entity)
    const problems = outbox.filter(isProblem)
    return applyOutbox(rows, outbox, entity)
      .filter((r) => r.companyId === companyId)
      .map((r) => {
        const own = problems.filter((m) => m.entityId === r.id)
        return own.length ? { ...r, _problems: own } : r
      })
  })
}

/** undefined while IndexedDB opens. A query starts only when a tab first asks for it. */
export const useCompanyRows = (handle: SyncHandle | null, entity: CompanyChildEntity, companyId: string): CompanyChildRow[] | undefined =>
  useSharedQuery(handle?.db, rowsQuery(entity, companyId))
