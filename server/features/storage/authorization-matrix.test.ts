import { describe, expect, it } from 'vitest'
import { v7 } from 'uuid'
import { testApp } from '../../test/harness'
import { callers, classOf, documentedRoutes, tokenFor } from '../../test/authorization'
import { documentFixtures } from '../documents/test-helpers'

/**
 * Who may call which storage route (docs/PRODUCT.md "Storage"): one row per route and association,
 * one column per caller (server/test/authorization.ts). `o` allowed, `3` 403, `4` 404 (another
 * association's storage is never revealed), `1` 401. Every storage route the app serves has a row.
 */
type Ctx = { main: string; second: string }
type Row = [method: string, route: string, path: (c: Ctx) => string, expected: string]

//                                                                                       S C A K B R N O -
const table: Row[] = [
  ['GET', '/storage/{companyId}', (c) => `/storage/${c.main}`, 'ooooo3341'],
  ['GET', '/storage/{companyId}', (c) => `/storage/${c.second}`, 'o444444o1'],
  ['PUT', '/storage/{companyId}/quota', (c) => `/storage/${c.main}/quota`, 'o33333331'],
  ['PUT', '/storage/{companyId}/quota', (c) => `/storage/${c.second}/quota`, 'o33333331'],
]

describe('authorization matrix (storage)', () => {
  it.each(callers.map((caller) => [caller] as const))('%s', async (caller) => {
    const t = await testApp()
    const c = await documentFixtures(t)
    const token = await tokenFor(t, caller)
    const want: string[] = []
    const got: string[] = []
    for (const [method, , path, expected] of table) {
      const body = method === 'PUT' ? { quotaBytes: 5_000_000_000 } : undefined
      const res = await t.call(method, path(c), { token, body, headers: { 'Idempotency-Key': v7() } })
      want.push(`${method} ${path(c)} → ${expected[callers.indexOf(caller)]}`)
      got.push(`${method} ${path(c)} → ${classOf(res.status)}`)
    }
    expect(got).toEqual(want)
  })

  it('has a row for every storage route the API documents', async () => {
    const t = await testApp()
    expect(new Set(table.map(([m, r]) => `${m} ${r}`))).toEqual(await documentedRoutes(t, '/storage'))
  })
})
