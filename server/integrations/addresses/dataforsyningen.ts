import { z } from 'zod'
import type { AddressSuggestion } from '../../../shared/contract/companies'
import { AddressProviderUnavailable, addressText, type AddressProvider } from './address-provider'

/** GSearch v2 (api.dataforsyningen.dk), the successor of DAWA's autocomplete; token required. */
export const DATAFORSYNINGEN_URL = 'https://api.dataforsyningen.dk/rest/gsearch/v2.0/adresse'

/**
 * One address of GSearch's `adresse` resource. Only the fields we map are required; the service
 * sends more (geometry, municipality), which are ignored.
 */
const GsearchAddress = z.object({
  id: z.string(),
  vejnavn: z.string(),
  husnummer: z.string(),
  etagebetegnelse: z.string().nullish(),
  doerbetegnelse: z.string().nullish(),
  postnummer: z.string(),
  postnummernavn: z.string(),
  visningstekst: z.string().optional(),
})
const GsearchResponse = z.array(GsearchAddress)

const blankToNull = (v: string | null | undefined) => (v && v.trim() ? v.trim() : null)

/** Maps one GSearch address to our suggestion (docs/PRODUCT.md §3 "Address autocomplete suggestion"). */
export function toSuggestion(a: z.infer<typeof GsearchAddress>): AddressSuggestion {
  const s = {
    referenceId: a.id,
    street: a.vejnavn,
    number: a.husnummer,
    floor: blankToNull(a.etagebetegnelse),
    side: blankToNull(a.doerbetegnelse),
    zip: a.postnummer,
    city: a.postnummernavn,
  }
  return { ...s, text: a.visningstekst ?? addressText(s) }
}

export function createDataforsyningenProvider(opts: { token: string; fetch?: typeof globalThis.fetch; baseUrl?: string; timeoutMs?: number }): AddressProvider {
  const fetch = opts.fetch ?? globalThis.fetch
  return {
    name: 'dataforsyningen',
    async search(query, limit) {
      const url = new URL(opts.baseUrl ?? DATAFORSYNINGEN_URL)
      url.searchParams.set('q', query)
      url.searchParams.set('limit', String(limit))
      url.searchParams.set('token', opts.token)
      let body: unknown
      try {
        const res = await fetch(url, { headers: { Accept: 'application/json' }, signal: AbortSignal.timeout(opts.timeoutMs ?? 5000) })
        if (!res.ok) throw new AddressProviderUnavailable(`Dataforsyningen answered ${res.status}`)
        body = await res.json()
      } catch (err) {
        if (err instanceof AddressProviderUnavailable) throw err
        throw new AddressProviderUnavailable('Dataforsyningen could not be reached', err)
      }
      const parsed = GsearchResponse.safeParse(body)
      if (!parsed.success) throw new AddressProviderUnavailable('Dataforsyningen sent an unexpected answer', parsed.error)
      return parsed.data.slice(0, limit).map(toSuggestion)
    },
  }
}
