/**
 * Changes to a company's addresses and members (docs/PRODUCT.md §2 "Company view", decision 0038): queued in the
 * outbox and shown at once; a refusal (an address in use or added already, the last chairman or
 * administrator) comes back as a problem on the row.
 */
import { msg } from '@lingui/core/macro'
import { z } from 'zod'
import { UserSearchResult } from '../../../shared/contract/account'
import { AddressSuggestion, CompanyMember, type AddAddressRequest, type AddMemberRequest } from '../../../shared/contract/companies'
import { DENMARK } from '../../../shared/domain/address'
import type { CompanyRole } from '../../../shared/domain/roles'
import { api, type ActionKey } from '../../lib/api'
import { formats } from '../../sync/field-format'
import { registerMutationKind } from '../../sync/mutation-kinds'
import { answerAsRow, reduce } from '../../sync/optimistic'
import type { SyncHandle } from '../../sync/use-sync'
import { companyRoleLabels } from '../profile/labels'

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

export const ADDRESS_ADD = 'address.add'

registerMutationKind(ADDRESS_ADD, {
  reducer: reduce.insert((m) => {
    const body = m.body as Record<string, unknown> & { id: string }
    const companyId = m.path.split('/')[2] ?? ''
    return { ...body, companyId, country: DENMARK, createdAt: new Date(m.createdAt).toISOString(), _version: 0 }
  }),
  label: msg`Add address`,
  failed: msg`Failed to add address`,
})

/** POST /company/{id}/addresses with a client-made id, so the new row keeps it. */
export const addAddress = ({ engine }: SyncHandle, companyId: string, address: AddAddressRequest & { id: string }) =>
  engine.mutate({ kind: ADDRESS_ADD, method: 'POST', path: `/company/${companyId}/addresses`, body: address, entity: 'address', entityId: address.id })

export const MEMBER_ROLE = 'member.role'

registerMutationKind(MEMBER_ROLE, {
  reducer: reduce.patch((_row, m) => ({ role: (m.body as { role: CompanyRole }).role })),
  label: msg`Change role`,
  failed: msg`Failed to change role`,
  answeredRow: answerAsRow,
  merge: {
    fields: () => [{ name: 'role', label: msg`Role`, format: formats.oneOf(companyRoleLabels) }],
    mine: (m) => ({ role: (m.body as { role: CompanyRole }).role }),
    body: (values) => ({ role: values.role }),
  },
})

/** PATCH /company/{id}/member/{memberId} with the role, on the version the user saw (If-Match). */
export const changeMemberRole = ({ engine }: SyncHandle, companyId: string, memberId: string, role: CompanyRole, baseVersion?: number) =>
  engine.mutate({
    kind: MEMBER_ROLE,
    method: 'PATCH',
    path: `/company/${companyId}/member/${memberId}`,
    body: { role },
    entity: 'member',
    entityId: memberId,
    baseVersion,
  })

/** Address suggestions for what the user typed (GET /address-search); needs the connection. */
export const searchAddresses = (q: string, signal: AbortSignal) => api('GET', '/address-search', { query: { q }, schema: z.array(AddressSuggestion), signal })

/** Users whose e-mail matches what the user typed, to add as a member (GET /account/users). */
export const searchUsers = (email: string, signal: AbortSignal) => api('GET', '/account/users', { query: { email }, schema: z.array(UserSearchResult), signal })

/**
 * POST /company/{id}/member: sent at once, not queued (it may invite a new user by e-mail, so
 * success is shown only once the server has answered); the next pull brings the member.
 */
export const addMember = (companyId: string, body: AddMemberRequest, action: ActionKey) =>
  api('POST', `/company/${companyId}/member`, { body, schema: CompanyMember, action })
