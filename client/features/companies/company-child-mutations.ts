/**
 * Removing a company's address or member (spec §2 "Company view"): queued in the outbox and gone
 * from the list at once; a refusal (an address in use, the last chairman or administrator) comes
 * back as a problem on the row.
 */
import { msg } from '@lingui/core/macro'
import { registerMutationKind } from '../../sync/mutation-kinds'
import { reduce } from '../../sync/optimistic'
import type { SyncHandle } from '../../sync/use-sync'

export const ADDRESS_DELETE = 'address.delete'
export const MEMBER_REMOVE = 'member.remove'

registerMutationKind(ADDRESS_DELETE, { reducer: reduce.remove(), label: msg`Delete address`, failed: msg`Failed to delete address` })
registerMutationKind(MEMBER_REMOVE, { reducer: reduce.remove(), label: msg`Remove member`, failed: msg`Failed to remove member` })

/** DELETE /company/{id}/addresses/{addressId} */
export const deleteAddress = ({ engine }: SyncHandle, companyId: string, addressId: string) =>
  engine.mutate({ kind: ADDRESS_DELETE, method: 'DELETE', path: `/company/${companyId}/addresses/${addressId}`, entity: 'address', entityId: addressId })

/** DELETE /company/{id}/member/{memberId} */
export const removeMember = ({ engine }: SyncHandle, companyId: string, memberId: string) =>
  engine.mutate({ kind: MEMBER_REMOVE, method: 'DELETE', path: `/company/${companyId}/member/${memberId}`, entity: 'member', entityId: memberId })
