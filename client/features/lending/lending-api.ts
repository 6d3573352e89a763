/**
 * Lending's calls that need a connection (decision 0064): an item's photo (the bytes go straight to the
 * server, which checks type, size and scan; shown with components/photo/StoredPhoto). Items and loans come
 * from the synced local copy (use-lending.ts) and change through the outbox (lending-mutations.ts).
 */
import { LendingItem, Loan } from '../../../shared/contract/lending'
import { api, type ActionKey } from '../../lib/api'

export function uploadItemPhoto(id: string, file: File, version: number, action: ActionKey): Promise<LendingItem> {
  const form = new FormData()
  form.set('file', file)
  return api('PUT', `/lending/${id}/photo`, { body: form, schema: LendingItem, ifMatch: version, action })
}

/**
 * The administration settles a deposit held for damage: refunds `refundOre` of it (0 keeps it all;
 * never more than the deposit). Online only, with the action's key, so a retry refunds once.
 */
export const settleDeposit = (id: string, refundOre: number, version: number, action: ActionKey): Promise<Loan> =>
  api('POST', `/loans/${id}/deposit/settle`, { body: { refundOre }, schema: Loan, ifMatch: version, action })
