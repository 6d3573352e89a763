import { readFileSync } from 'node:fs'
import type { AddressSuggestion } from '../../../shared/contract/companies'
import { addressText, type AddressProvider } from './address-provider'
import { fromRoot } from '../../lib/project-root'

type Row = Omit<AddressSuggestion, 'text'>

/** Lower case without accents that people often leave out (ø→o is not folded: Danish keeps them apart). */
const fold = (s: string) =>
  s
    .toLocaleLowerCase('da')
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')

/**
 * The shipped sample (scripts/generate-addresses.ts writes it). Every word of the query must
 * match: the start of a street word, the house number, the postcode or the start of a town
 * word. Results whose street starts with the query come first.
 */
export function createBuiltinAddressProvider(rows: Row[] = loadSample()): AddressProvider {
  const index = rows.map((r) => {
    const suggestion: AddressSuggestion = { ...r, text: addressText(r) }
    const words = fold(`${r.street} ${r.city}`)
      .split(/[\s.,]+/)
      .filter(Boolean)
    return {
      suggestion,
      words,
      street: fold(r.street),
      number: fold(r.number),
      zip: r.zip,
      floor: r.floor ? fold(r.floor) : '',
      side: r.side ? fold(r.side) : '',
    }
  })

  return {
    name: 'builtin',
    async search(query, limit) {
      const terms = fold(query)
        .split(/[\s,]+/)
        .map((t) => t.replace(/\.$/, ''))
        .filter(Boolean)
      if (!terms.length) return []
      const q = fold(query.trim())
      return index
        .filter((e) =>
          terms.every(
            (t) => e.words.some((w) => w.startsWith(t)) || e.street.startsWith(t) || e.number === t || e.zip.startsWith(t) || e.floor === t || e.side === t,
          ),
        )
        .map((e) => ({ e, rank: e.street.startsWith(q) || fold(e.suggestion.text).startsWith(q) ? 0 : 1 }))
        .sort((a, b) => a.rank - b.rank || a.e.suggestion.text.localeCompare(b.e.suggestion.text, 'da', { numeric: true }))
        .slice(0, limit)
        .map(({ e }) => e.suggestion)
    },
  }
}

function loadSample(): Row[] {
  return JSON.parse(readFileSync(fromRoot('server', 'integrations', 'addresses', 'builtin-addresses.json'), 'utf8')) as Row[]
}
