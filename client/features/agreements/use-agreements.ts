/** Agreements from the local copy with queued changes applied, live (they show offline). */
import type { Agreement } from '../../../shared/contract/agreements'
import type { LocalDb, Row } from '../../sync/local-db'
import type { ViewRow } from '../../sync/optimistic'
import { viewWithOutbox } from '../../sync/queue-reads'
import { sharedQuery, useSharedQuery, type SharedQuery } from '../../sync/shared-query'
import { useRecord } from '../../sync/use-record'
import type { SyncHandle } from '../../sync/use-sync'
// The reducers must be registered wherever the view is computed.

export type AgreementView = Partial<Agreement> & ViewRow

/**
 * The agreements the user sees for a company (staff), or all of their own (a resident: the sync
 * only holds their own agreements). Newest number first; ones made here, without a number yet, on top.
 */
function listQuery(companyId: string | null): SharedQuery<AgreementView[]> {
  const key = `agreements:${companyId ?? 'own'}`
  return sharedQuery(key, ['agreements', 'outbox'], async (db: LocalDb) => {
    const rows: Row[] = companyId ? await db.agreements.where('companyId').equals(companyId).toArray() : await db.agreements.toArray()
    const view = (await viewWithOutbox(db, 'agreement', rows)) as AgreementView[]
    return view.filter((a) => !companyId || a.companyId === companyId).sort(byNumberDescending)
  })
}

const numberOf = (a: AgreementView) => (a.externalId ? Number(a.externalId.replace(/\D/g, '')) : Number.POSITIVE_INFINITY)
const byNumberDescending = (a: AgreementView, b: AgreementView) => numberOf(b) - numberOf(a)

/** undefined while IndexedDB opens. */
export const useAgreements = (handle: SyncHandle | null, companyId: string | null): AgreementView[] | undefined =>
  useSharedQuery(handle?.db, listQuery(companyId))

/** One agreement; `row` null when the local copy has none with this id. */
export const useAgreement = (handle: SyncHandle | null, id: string) => useRecord<Agreement>(handle, 'agreement', id)
