import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { statisticsCategories, statisticsOfSums, type AddressSums } from '../../../shared/domain/statistics'
import { statisticsJson } from './statistics-json'

/**
 * The statistics written as text (decision 0056) are byte for byte what serialising the shared
 * module's table gave: same keys in the same order, same rows in the same order, same numbers,
 * same escaping, zero rows left out.
 */
const address = fc.oneof(
  fc.constantFrom(
    '',
    'Vej 2',
    'Vej 10',
    'Vej 2A',
    'vej 2',
    'Æblevej 1',
    'Zebravej 1',
    'Aabenraavej 3',
    'Solvej 12, 2. th, 2100 København Ø',
    'Quote "1"',
    'Back\\slash',
    'Tab\there',
    'Line\u2028sep',
    '\u0001\u001f',
  ),
  fc.string({ unit: 'binary', maxLength: 8 }),
)
const amount = fc.oneof(fc.constant(0), fc.constant(0), fc.integer({ min: -5_000_000, max: 5_000_000 }))
const row = fc
  .tuple(address, fc.array(amount, { minLength: statisticsCategories.length, maxLength: statisticsCategories.length }))
  .map(([a, xs]) => [a, ...xs] as AddressSums)
/** A part as the repository reads it: each address at most once. */
const part = fc.uniqueArray(row, { selector: (r) => r[0], maxLength: 30 })

describe('statistics as JSON text', () => {
  it('equals JSON.stringify of the shared table for any parts', () => {
    fc.assert(
      fc.property(fc.array(part, { maxLength: 4 }), (parts) => {
        expect(statisticsJson(parts)).toBe(JSON.stringify(statisticsOfSums(parts.flat())))
      }),
      { numRuns: 400 },
    )
  })

  it('writes an empty table and a single part the same way', () => {
    expect(statisticsJson([])).toBe(JSON.stringify(statisticsOfSums([])))
    const one: AddressSums[] = [
      ['Vej 10', 1, 2, 3, 4, 5, 6, 7, 8],
      ['Vej 9', 0, 0, 0, 0, 0, 0, 0, 0],
      ['', -1, 0, 0, 0, 0, 0, 0, 0],
      ['Vej 2', 0, 0, 0, 0, 0, 0, 0, -3],
    ]
    const text = statisticsJson([one, []])
    expect(text).toBe(JSON.stringify(statisticsOfSums(one)))
    expect(JSON.parse(text).charges.map((r: { consumerAddress: string }) => r.consumerAddress)).toEqual(['Vej 2', 'Vej 10', ''])
  })
})
