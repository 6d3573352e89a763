/** An agreement's charges from the local copy with queued money actions applied, live (they show offline). */
import type { Charge } from '../../../shared/contract/agreements'
import type { LocalDb, Row } from '../../sync/local-db'
import type { ViewRow } from '../../sync/optimistic'
import { viewWithOutbox } from '../../sync/queue-reads'
import { sharedQuery, useSharedQuery, type SharedQuery } from '../../sync/shared-query'
import type { SyncHandle } from '../../sync/use-sync'
// The reducers must be registered wherever the view is computed.

export type ChargeView = Partial<Charge> & ViewRow

function chargesQuery(agreementId: string): SharedQuery<ChargeView[]> {
  return sharedQuery(`charges:${agreementId}`, ['charges', 'outbox'], async (db: LocalDb) => {
    const rows: Row[] = await db.charges.where('agreementId').equals(agreementId).toArray()
    const view = (await viewWithOutbox(db, 'charge', rows)) as ChargeView[]
    // Newest due date first; a charge requested here (no due date yet) on top.
    return view.filter((c) => c.agreementId === agreementId).sort((a, b) => (b.due || '9999').localeCompare(a.due || '9999'))
  })
}

/** undefined while IndexedDB opens. */
export const useCharges = (handle: SyncHandle | null, agreementId: string): ChargeView[] | undefined => useSharedQuery(handle?.db, chargesQuery(agreementId))

/** What was refunded of a charge: its REFUND events summed (docs/PRODUCT.md §3), øre. */
export const refundedOf = (charge: Pick<Charge, 'history'> | Partial<Charge>): number =>
  (charge.history ?? []).filter((h) => h.event === 'REFUND').reduce((sum, h) => sum + h.amount, 0)

/** What may still be refunded: only a collected (EXECUTED) charge, up to its amount less refunds. */
export const refundableOf = (charge: Partial<Charge>): number => (charge.status === 'EXECUTED' ? Math.max(0, (charge.amount ?? 0) - refundedOf(charge)) : 0)
