import type { Config } from '../../env'
import type { AddressProvider } from './address-provider'
import { createBuiltinAddressProvider } from './builtin'
import { createDataforsyningenProvider } from './dataforsyningen'

/** The provider ADDRESS_PROVIDER names; `dataforsyningen` needs ADDRESS_API_TOKEN. */
export function addressProviderFor(config: Pick<Config, 'addressProvider' | 'addressApiToken'>): AddressProvider {
  if (config.addressProvider === 'dataforsyningen') {
    if (!config.addressApiToken) throw new Error('ADDRESS_PROVIDER=dataforsyningen needs ADDRESS_API_TOKEN')
    return createDataforsyningenProvider({ token: config.addressApiToken })
  }
  return createBuiltinAddressProvider()
}
