import { defineModule } from '../../kernel/module'
import { addressProviderFor } from '../../integrations/addresses/address-provider-for'
import { createAddressSearchService, type AddressSearchService } from './address-search.service'
import { addressSearchRoutes } from './address-search.routes'

declare module '../../kernel/module' {
  interface Services {
    addressSearch: AddressSearchService
  }
}

/** Address suggestions for the Addresses tab (the shipped sample or Dataforsyningen). */
export const addressSearchModule = defineModule({
  name: 'address-search',
  tables: [],
  services: { addressSearch: (_s, k) => createAddressSearchService({ provider: k.options.addressProvider ?? addressProviderFor(k.config) }) },
  routes: (s) => [addressSearchRoutes(s.addressSearch)],
})
