import { describe, expect, it } from 'vitest'
import { demo, testApp } from '../../test/harness'
import type { AddressProvider } from '../../integrations/addresses/address-provider'
import { companyIds } from '../companies/test-helpers'
import { csvOf, DANISH, importFile } from './import-test-helpers'

/** A register that knows every address asked for (the builtin sample has 420). */
const everyAddress: AddressProvider = {
  name: 'builtin',
  async search(query) {
    const [street, number, ...rest] = query.split(' ')
    const zip = rest.pop()!
    const [floor, side] = rest
    return [{ referenceId: `ref-${query}`, street: street!, number: number!, floor: floor ?? null, side: side ?? null, zip, city: 'Aarhus C', text: query }]
  },
}

/**
 * The import's size target (docs/decisions/0092, 0093): 500 households with 800 residents and 500
 * agreements in one request
 * (its time is the lead's bench row; the association is read once and rows are written in
 * multi-row statements).
 */
describe('household import at volume', () => {
  it('imports 500 households with 800 residents, and the same file again changes nothing', async () => {
    const t = await testApp({}, { addressProvider: everyAddress })
    const { main } = await companyIds(t)
    const admin = await t.login(demo.admin)
    const rows: string[][] = [DANISH[0]!]
    for (let i = 0; i < 500; i++) {
      const address = [`H-${i}`, `Importvej`, String(i + 1), String(i % 5), 'tv', '8000', 'Aarhus C', 'Lejlighed', '74,5', '1,25']
      rows.push([...address, `Beboer ${i}`, `beboer-${i}@import.example.dk`, '01-02-2024', 'Ejer', 'Ja', '4.250,00', '600,00', '250,00'])
      if (i < 300) rows.push([...address, `Partner ${i}`, `partner-${i}@import.example.dk`, '01-02-2024', 'Ejer', 'Nej', '', '', ''])
    }
    const file = csvOf(rows)
    const first = await importFile(t, admin, main, file)
    expect(first.status, JSON.stringify(first.json).slice(0, 500)).toBe(200)
    expect(first.json.counts).toEqual({ NEW: 800, UPDATE: 0, UNCHANGED: 0, ERROR: 0 })
    expect(first.json.agreements).toMatchObject({ NEW: 500, EXISTING: 0 })
    const again = await importFile(t, admin, main, file)
    expect(again.json.counts).toEqual({ NEW: 0, UPDATE: 0, UNCHANGED: 800, ERROR: 0 })
    expect(again.json.agreements).toMatchObject({ NEW: 0, EXISTING: 500 })
  }, 60_000)
})
