import { describe, expect, it } from 'vitest'
import { v7 } from 'uuid'
import { demo, testApp, type TestApp } from '../../test/harness'
import { callers, classOf, tokenFor, documentedRoutes } from '../../test/authorization'
import { documentFixtures } from '../documents/test-helpers'
import { createListing, putPhoto } from './test-helpers'

/**
 * Who may call which market route (docs/PRODUCT.md "Market"): one row per route, one
 * column per caller (server/test/authorization.ts). `o` allowed, `3` 403, `4` 404 (another
 * association's listing is never revealed), `1` 401. The listing is the resident's (column R).
 * Every market route the app serves has a row (checked below).
 */
type Ctx = { main: string; second: string; listing: string }
type Row = [method: string, route: string, path: (c: Ctx) => string, expected: string, send?: 'create' | 'patch' | 'photo' | 'contact']

//                                                                              S C A K B R N O -
const table: Row[] = [
  ['GET', '/market', (c) => `/market?companyId=${c.main}`, 'ooooooo41'],
  ['GET', '/market', (c) => `/market?companyId=${c.second}&kind=SWAP`, 'o444444o1'],
  ['POST', '/market', () => '/market', '3oooooo41', 'create'],
  ['GET', '/market/{id}', (c) => `/market/${c.listing}`, 'ooooooo41'],
  ['PATCH', '/market/{id}', (c) => `/market/${c.listing}`, '33333o341', 'patch'],
  ['POST', '/market/{id}/renew', (c) => `/market/${c.listing}/renew`, '33333o341'],
  ['GET', '/market/{id}/photo', (c) => `/market/${c.listing}/photo`, 'ooooooo41'],
  ['PUT', '/market/{id}/photo', (c) => `/market/${c.listing}/photo`, '33333o341', 'photo'],
  ['POST', '/market/{id}/contact', (c) => `/market/${c.listing}/contact`, 'ooooooo41', 'contact'],
  ['DELETE', '/market/{id}', (c) => `/market/${c.listing}`, 'oooooo341'],
]

async function send(t: TestApp, token: string | undefined, method: string, path: string, c: Ctx, body?: Row[4]): Promise<number> {
  if (body === 'photo') return (await putPhoto(t, token, c.listing)).status
  if (body === 'create') return (await createListing(t, token, { companyId: c.main, kind: 'SWAP', title: 'Plantestiklinger' })).status
  const json =
    body === 'patch' ? { title: 'Ny titel' }
    : body === 'contact' ? { text: 'Er den stadig ledig?' }
    : undefined
  return (await t.call(method, path, { token, body: json, headers: { 'Idempotency-Key': v7() } })).status
}

describe('authorization matrix (market)', () => {
  it.each(callers.map((caller) => [caller] as const))('%s', async (caller) => {
    const t = await testApp()
    const f = await documentFixtures(t)
    const seller = await t.login(demo.resident)
    const token = await tokenFor(t, caller)
    const want: string[] = []
    const got: string[] = []
    for (const [method, , path, expected, body] of table) {
      const created = await createListing(t, seller, { companyId: f.main, kind: 'SWAP', title: 'Cykel', description: 'Blå damecykel' })
      expect(created.status, JSON.stringify(created.json)).toBe(201)
      expect((await putPhoto(t, seller, created.json.id)).status).toBe(200)
      const c: Ctx = { main: f.main, second: f.second, listing: created.json.id }
      want.push(`${method} ${path(c)} → ${expected[callers.indexOf(caller)]}`)
      got.push(`${method} ${path(c)} → ${classOf(await send(t, token, method, path(c), c, body))}`)
    }
    expect(got).toEqual(want)
  })

  it('has a row for every market route the API documents', async () => {
    const t = await testApp()
    expect(new Set(table.map(([m, r]) => `${m} ${r}`))).toEqual(await documentedRoutes(t, '/market'))
  })
})
