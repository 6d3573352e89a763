import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { compareAddresses } from '../../../shared/domain/statistics'
import { sortByAddress, sortedByHint } from './address-order'

/**
 * The statistics rows' order (decision 0056): `sortByAddress` gives exactly the order of
 * `compareAddresses` (the old sort) for any strings, and its hints alone already give it for
 * addresses as they are printed, so that the final pass with the collator has nothing to move.
 */
const oldSort = (addresses: readonly string[]) => [...addresses].sort(compareAddresses)
const byHint = (addresses: readonly string[]) => sortedByHint(addresses).map((i) => addresses[i]!)
/** As the month sums hand them over: distinct, in SQLite's order of the key (code points). */
const asRead = (addresses: readonly string[]) => [...new Set(addresses)].sort()

/** Printed like billing's `formatAddress`: "Solvej 12, 2. th, 2100 København Ø". */
const street = fc.constantFrom(
  'Vej',
  'vej',
  'Zebravej',
  'Æblevej',
  'Ægirsgade',
  'Ørstedsvej',
  'Åboulevard',
  'Aabenraavej',
  'Aalborggade',
  'Ahornvej',
  'Haandværkervej',
  'Skt. Jørgens Allé',
  'H.C. Andersens Boulevard',
  'Ny Østergade',
  'Nørre Voldgade',
  'Bænkevej 1',
  'Tårnvej',
  'Tagensvej',
  'Dronning Louises Bro',
  'Strandvejen',
  'Sønder Boulevard',
  'Øster Allé',
)
const houseNumber = fc.tuple(fc.integer({ min: 1, max: 250 }), fc.constantFrom('', '', '', 'A', 'B', 'b', ' A', 'C')).map(([n, l]) => `${n}${l}`)
const floor = fc.constantFrom('', 'st.', 'kl.', '1.', '2.', '10.', '0.')
const side = fc.constantFrom('', 'th', 'tv', 'mf', '1', '12')
const city = fc.constantFrom('2400 København NV', '2100 København Ø', '8000 Aarhus C', '5000 Odense C', '9000 Aalborg', '6200 Aabenraa')
const printed = fc
  .tuple(street, houseNumber, floor, side, city)
  .map(([s, n, f, d, c]) => `${s} ${n}${f || d ? `, ${[f, d].filter(Boolean).join(' ')}` : ''}, ${c}`)

describe('statistics address order', () => {
  it('is the Danish numeric order of the old sort on a tricky set', () => {
    const tricky = [
      'Vej 10',
      'Vej 2',
      'Vej 2B',
      'Vej 2A',
      'Vej 2 A',
      'Vej 02',
      'vej 2',
      'Zebravej 1',
      'Æblevej 1',
      'Ørstedsvej 1',
      'Åboulevard 1',
      'Aabenraavej 1',
      'Ahornvej 1',
      'Abildgade 1',
      'Ærøvej 1',
      '',
      'Bænkevej 1 10, 4. th, 2400 København NV',
      'Bænkevej 1 9, 4. th, 2400 København NV',
      'Bænkevej 10 1, 0. tv, 2400 København NV',
      'Œstergade 1',
      'Oestergade 2',
      'Straße 1',
      'Strasse 1',
      '日本 1',
      '😀 1',
      'Vej\u00ad 3',
    ]
    const sorted = sortByAddress(tricky, (a) => a)
    expect(sorted).toEqual(oldSort(tricky))
    // What the Danish order means, spelled out.
    const at = (a: string) => sorted.indexOf(a)
    expect(at('Vej 2')).toBeLessThan(at('Vej 10'))
    expect(at('Vej 2A')).toBeLessThan(at('Vej 2B'))
    expect(at('Vej 2 A')).toBeLessThan(at('Vej 2A'))
    expect(at('Zebravej 1')).toBeLessThan(at('Æblevej 1'))
    expect(at('Æblevej 1')).toBeLessThan(at('Ørstedsvej 1'))
    expect(at('Ørstedsvej 1')).toBeLessThan(at('Aabenraavej 1'))
    expect(at('Ahornvej 1')).toBeLessThan(at('Zebravej 1'))
    expect(sorted.at(-1)).toBe('')
  })

  it('is the old sort for any strings, whatever the hints get wrong', () => {
    // Characters the hints know, ones they get wrong (expansions, ignorables) and any other.
    const known = fc.constantFrom('a', 'A', 'å', 'æ', 'Ø', '0', '1', '9', ' ', '.', '-', ',', 'z')
    const other = fc.oneof(fc.constantFrom('œ', 'ß', 'ü', 'y', '\u00ad', '\u0001', 'ǆ', '²'), fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }))
    const anyText = fc.string({ unit: fc.oneof(known, known, other), maxLength: 12 })
    fc.assert(
      fc.property(fc.array(anyText, { maxLength: 60 }), (addresses) => {
        const distinct = [...new Set(addresses)]
        expect(sortByAddress(distinct, (a) => a)).toEqual(oldSort(distinct))
      }),
      { numRuns: 300 },
    )
  })

  it('needs no correction from the collator for printed addresses', () => {
    fc.assert(
      fc.property(fc.array(printed, { minLength: 1, maxLength: 200 }), (addresses) => {
        const read = asRead(addresses)
        expect(byHint(read)).toEqual(oldSort(read))
      }),
      { numRuns: 300 },
    )
  })

  it('sorts items by the address picked from each', () => {
    const rows = [
      ['Vej 10', 1],
      ['', 2],
      ['Vej 9', 3],
    ] as const
    expect(sortByAddress(rows, (r) => r[0])).toEqual([rows[2], rows[0], rows[1]])
  })
})
