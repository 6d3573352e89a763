/**
 * The provider's two switches (docs/PRODUCT.md §2 "Payment provider edit": each saves at once). They carry no
 * secret, so they go through the outbox like other edits and show at once, also offline. Config
 * changes hold secrets and are sent directly instead (see provider-actions.ts), so no secret is
 * ever written to the browser's database.
 */
import { msg } from '@lingui/core/macro'
import { formats } from '../../sync/field-format'
import { registerMutationKind, type EditField } from '../../sync/mutation-kinds'
import { reduce } from '../../sync/optimistic'
import type { SyncHandle } from '../../sync/use-sync'

export const PROVIDER_SWITCH = 'paymentProvider.switch'

export type ProviderSwitch = 'isActive' | 'isTest'

registerMutationKind(PROVIDER_SWITCH, {
  reducer: reduce.patch((_row, m) => (m.body as Partial<Record<ProviderSwitch, boolean>>) ?? {}),
  label: msg`Update payment provider`,
  failed: msg`Failed to update provider. Please try again.`,
  merge: {
    fields: (): EditField[] => [
      { name: 'isActive', label: msg`Active`, format: formats.yesNo },
      { name: 'isTest', label: msg`Test environment`, format: formats.yesNo },
    ],
    mine: (m) => ({ ...(m.body as Partial<Record<ProviderSwitch, boolean>>) }),
    body: (values) => values,
  },
})

export const providerPath = (companyId: string, providerId: string) => `/company/${companyId}/payment-providers/${providerId}`

/** PATCH …/payment-providers/{providerId} with `{isActive}` or `{isTest}`, If-Match the row's version. */
export const setProviderSwitch = (
  { engine }: SyncHandle,
  provider: { id: string; companyId: string; _version?: number },
  name: ProviderSwitch,
  value: boolean,
) =>
  engine.mutate({
    kind: PROVIDER_SWITCH,
    method: 'PATCH',
    path: providerPath(provider.companyId, provider.id),
    body: { [name]: value },
    entity: 'paymentProvider',
    entityId: provider.id,
    baseVersion: provider._version,
  })
