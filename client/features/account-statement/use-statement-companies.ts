/** The associations the signed-in user has an account with on this device (their agreements'), by name, live as the sync brings them. */
import { sharedQuery, useSharedQuery, type SharedQuery } from '../../sync/shared-query'
import type { LocalDb } from '../../sync/local-db'
import type { SyncHandle } from '../../sync/use-sync'

export interface StatementCompany {
  id: string
  name: string
}

function companiesQuery(userId: string): SharedQuery<StatementCompany[]> {
  return sharedQuery(`statement-companies:${userId}`, ['agreements', 'companies'], async (db: LocalDb) => {
    const agreements = (await db.agreements.toArray()).filter((a) => (a.member as { userId?: string } | undefined)?.userId === userId)
    const ids = [...new Set(agreements.map((a) => String(a.companyId)))]
    const rows = await db.companies.bulkGet(ids)
    return ids.map((id, i) => ({ id, name: typeof rows[i]?.name === 'string' ? (rows[i]!.name as string) : '' })).sort((a, b) => a.name.localeCompare(b.name))
  })
}

/** undefined while the device's copy opens. */
export const useStatementCompanies = (handle: SyncHandle | null, userId: string | null): StatementCompany[] | undefined =>
  useSharedQuery(userId ? handle?.db : null, companiesQuery(userId ?? ''))
