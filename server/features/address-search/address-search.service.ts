import { DomainError } from '../../errors'
import type { AddressSuggestion } from '../../../shared/contract/companies'
import { messages } from '../../../shared/i18n-messages'
import { AddressProviderUnavailable, type AddressProvider } from '../../integrations/addresses/address-provider'
import type { Actor } from '../../access/actor'
import { assertCan } from '../../access/policy'

export type AddressSearchService = ReturnType<typeof createAddressSearchService>

/** GET /api/address-search: suggestions for the Addresses tab from the configured provider. */
export function createAddressSearchService(deps: { provider: AddressProvider }) {
  return {
    async search(actor: Actor, query: string, limit: number): Promise<AddressSuggestion[]> {
      assertCan(actor, 'addresses:search')
      try {
        return await deps.provider.search(query, limit)
      } catch (err) {
        if (err instanceof AddressProviderUnavailable) throw new DomainError('PROVIDER_UNAVAILABLE', messages.addressSearchUnavailable.id)
        throw err
      }
    },
  }
}
