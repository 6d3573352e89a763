import { describe, expect, it } from 'vitest'
import { testApp, type TestApp } from '../../test/harness'
import { callers, classOf, tokenFor, documentedRoutes } from '../../test/authorization'
import { companyIds } from '../companies/test-helpers'
import { csvOf, DANISH, importFile } from './import-test-helpers'

/**
 * Who may call the household import's routes (docs/decisions/0092): one row per route and
 * association, one column per caller (server/test/authorization.ts). `o` allowed, `3` 403, `4` 404
 * (another association is never revealed; the association's residents do not see its staff routes),
 * `1` 401. The import runs as a dry run and for real.
 */
type Ctx = { main: string; second: string }
type Row = [method: string, route: string, call: (t: TestApp, token: string | undefined, c: Ctx) => Promise<{ status: number }>, expected: string]

const template = (id: (c: Ctx) => string) => async (t: TestApp, token: string | undefined, c: Ctx) =>
  await t.app.request(`/api/companies/${id(c)}/import/template`, { headers: token ? { Authorization: `Bearer ${token}` } : {} })
const upload = (id: (c: Ctx) => string, query: string) => async (t: TestApp, token: string | undefined, c: Ctx) =>
  await importFile(t, token, id(c), csvOf(DANISH), query)

//                                                                                          S C A K B R N O -
const table: Row[] = [
  ['GET', '/companies/{id}/import/template', template((c) => c.main), 'oooo34441'],
  ['GET', '/companies/{id}/import/template', template((c) => c.second), 'o444444o1'],
  ['POST', '/companies/{id}/import', upload((c) => c.main, '?dryRun=true'), 'oooo34441'],
  ['POST', '/companies/{id}/import', upload((c) => c.second, '?dryRun=true'), 'o444444o1'],
  ['POST', '/companies/{id}/import', upload((c) => c.main, ''), 'oooo34441'],
  ['POST', '/companies/{id}/import', upload((c) => c.second, ''), 'o444444o1'],
]

describe('authorization matrix (household import)', () => {
  it.each(callers.map((caller) => [caller] as const))('%s', async (caller) => {
    const t = await testApp()
    const c = await companyIds(t)
    const token = await tokenFor(t, caller)
    const want: string[] = []
    const got: string[] = []
    for (const [method, route, call, expected] of table) {
      want.push(`${method} ${route} → ${expected[callers.indexOf(caller)]}`)
      got.push(`${method} ${route} → ${classOf((await call(t, token, c)).status)}`)
    }
    expect(got).toEqual(want)
  })

  it('has a row for every import route the API documents', async () => {
    const t = await testApp()
    const documented = await documentedRoutes(t, '/companies/{id}/import')
    expect(new Set(table.map(([m, r]) => `${m} ${r}`))).toEqual(documented)
  })
})
