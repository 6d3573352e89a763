import type { AddressSuggestion } from '../../../shared/contract/companies'

/**
 * Where address suggestions come from (docs/DOMAIN.md "Addresses"): the browser never calls a third
 * party; `GET /api/address-search` asks one of these. `builtin` (a shipped sample, works offline)
 * or `dataforsyningen` (the public successor of DAWA, needs ADDRESS_API_TOKEN).
 */
export interface AddressProvider {
  readonly name: 'builtin' | 'dataforsyningen'
  search(query: string, limit: number): Promise<AddressSuggestion[]>
}

/** The provider could not answer (network, status, unexpected body). */
export class AddressProviderUnavailable extends Error {
  constructor(message: string, cause?: unknown) {
    super(message, { cause })
    this.name = 'AddressProviderUnavailable'
  }
}

/** "Vestergade 12, 2. tv, 8000 Aarhus C" — how Danish addresses are written on one line. */
export function addressText(a: Pick<AddressSuggestion, 'street' | 'number' | 'floor' | 'side' | 'zip' | 'city'>): string {
  const unit = [a.floor ? `${a.floor}.` : null, a.side].filter(Boolean).join(' ')
  return `${a.street} ${a.number}${unit ? `, ${unit}` : ''}, ${a.zip} ${a.city}`
}
