import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { createBuiltinAddressProvider } from './builtin'
import { createDataforsyningenProvider, DATAFORSYNINGEN_URL } from './dataforsyningen'
import { AddressProviderUnavailable } from './address-provider'

const sample = JSON.parse(readFileSync(new URL('./builtin-addresses.json', import.meta.url), 'utf8')) as Array<Record<string, string | null>>
const recorded = readFileSync(new URL('./fixtures/gsearch-adresse-vestergade.json', import.meta.url), 'utf8')

describe('builtin address provider', () => {
  const provider = createBuiltinAddressProvider()

  it('ships at least 300 Danish addresses with 4-digit postcodes and unique reference ids', () => {
    expect(sample.length).toBeGreaterThanOrEqual(300)
    expect(sample.every((a) => /^\d{4}$/.test(a.zip!) && a.street && a.number && a.city)).toBe(true)
    expect(new Set(sample.map((a) => a.referenceId)).size).toBe(sample.length)
  })

  it('finds by street, street and number, postcode and town, best matches first', async () => {
    const byStreet = await provider.search('vester', 10)
    expect(byStreet.length).toBeGreaterThan(0)
    expect(byStreet.every((s) => s.street.startsWith('Vester'))).toBe(true)
    const first = sample.find((a) => a.street === 'Vestergade')!
    const byNumber = await provider.search(`Vestergade ${first.number}`, 20)
    expect(byNumber.every((s) => s.street === 'Vestergade' && s.number === first.number)).toBe(true)
    expect((await provider.search('8000', 50)).every((s) => s.zip === '8000')).toBe(true)
    expect((await provider.search('aarhus', 50)).every((s) => s.city.startsWith('Aarhus'))).toBe(true)
    expect((await provider.search('københavn', 50)).every((s) => s.city.startsWith('København'))).toBe(true)
    expect(await provider.search('zzzz', 10)).toEqual([])
  })

  it('shapes suggestions per docs/PRODUCT.md §3 with a one-line text, and honours the limit', async () => {
    const [s] = await provider.search('2200', 1)
    expect(Object.keys(s!).sort()).toEqual(['city', 'floor', 'number', 'referenceId', 'side', 'street', 'text', 'zip'])
    expect(s!.text).toMatch(/^\S.* \d+[A-C]?(, (st|\d)\. (tv|th|mf))?, 2200 København N$/)
    expect(await provider.search('vej', 3)).toHaveLength(3)
  })
})

describe('dataforsyningen address provider (recorded GSearch answer)', () => {
  it('asks GSearch with the token and maps adresse entries to suggestions', async () => {
    const calls: string[] = []
    const fetch = (async (url: URL) => {
      calls.push(String(url))
      return new Response(recorded, { headers: { 'Content-Type': 'application/json' } })
    }) as unknown as typeof globalThis.fetch
    const provider = createDataforsyningenProvider({ token: 'secret-token', fetch })
    const result = await provider.search('Vestergade 12, 8000', 5)
    const url = new URL(calls[0]!)
    expect(`${url.origin}${url.pathname}`).toBe(DATAFORSYNINGEN_URL)
    expect(Object.fromEntries(url.searchParams)).toEqual({ q: 'Vestergade 12, 8000', limit: '5', token: 'secret-token' })
    expect(result).toEqual([
      {
        referenceId: '0a3f50a0-73ca-32b8-e044-0003ba298018',
        street: 'Vestergade',
        number: '12',
        floor: '2',
        side: 'tv',
        zip: '8000',
        city: 'Aarhus C',
        text: 'Vestergade 12, 2. tv, 8000 Aarhus C',
      },
      {
        referenceId: '0a3f50a0-73cb-32b8-e044-0003ba298018',
        street: 'Vestergade',
        number: '12',
        floor: null,
        side: null,
        zip: '8000',
        city: 'Aarhus C',
        text: 'Vestergade 12, 8000 Aarhus C',
      },
    ])
  })

  it('reports an error status, a network failure or an unexpected body as unavailable', async () => {
    const answers: Array<() => Promise<Response>> = [
      async () => new Response('{"message":"token invalid"}', { status: 403 }),
      async () => Promise.reject(new TypeError('fetch failed')),
      async () => Response.json({ unexpected: true }),
    ]
    for (const answer of answers) {
      const provider = createDataforsyningenProvider({ token: 't', fetch: answer as unknown as typeof globalThis.fetch })
      await expect(provider.search('Vestergade', 5)).rejects.toBeInstanceOf(AddressProviderUnavailable)
    }
  })
})
