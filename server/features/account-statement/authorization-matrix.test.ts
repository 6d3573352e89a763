import { describe, expect, it } from 'vitest'
import { v7 } from 'uuid'
import { testApp } from '../../test/harness'
import { callers, classOf, documentedRoutes, tokenFor } from '../../test/authorization'
import { statementFixture } from './test-helpers'

/**
 * Who may read which account statement (decision 0068): one row per route and case, one
 * column per caller (server/test/authorization.ts). `o` allowed, `4` 404 (another association's
 * member, or a statement that is not theirs, is never revealed), `3` 403, `1` 401. The member is the first
 * demo resident (column R) of the demo company.
 */
type Ctx = { main: string; second: string; member: string }
type Row = [method: string, route: string, path: (c: Ctx) => string, expected: string]

//                                                                                                                  S C A K B R N O -
const table: Row[] = [
  ['GET', '/account-statement', (c) => `/account-statement?companyId=${c.main}&year=2026`, 'oooooo441'],
  ['GET', '/account-statement', (c) => `/account-statement?companyId=${c.second}&year=2026`, 'o444444o1'],
  ['GET', '/companies/{companyId}/members/{userId}/account-statement', (c) => `/companies/${c.main}/members/${c.member}/account-statement`, 'oooo34441'],
  ['GET', '/companies/{companyId}/members/{userId}/account-statement', (c) => `/companies/${c.second}/members/${c.member}/account-statement`, '444444441'],
  // The yearly sendouts: company admin staff's (a board member 403; anyone outside the staff 404).
  ['GET', '/companies/{companyId}/account-statement-sendouts', (c) => `/companies/${c.main}/account-statement-sendouts`, 'oooo34441'],
  ['GET', '/companies/{companyId}/account-statement-sendouts', (c) => `/companies/${c.second}/account-statement-sendouts`, 'o444444o1'],
  ['POST', '/companies/{companyId}/account-statement-sendouts/{year}', (c) => `/companies/${c.main}/account-statement-sendouts/2025`, 'oooo34441'],
  ['POST', '/companies/{companyId}/account-statement-sendouts/{year}', (c) => `/companies/${c.second}/account-statement-sendouts/2025`, 'o444444o1'],
]

describe('authorization matrix (account statements)', () => {
  it.each(callers.map((caller) => [caller] as const))('%s', async (caller) => {
    const t = await testApp()
    const f = await statementFixture(t)
    const token = await tokenFor(t, caller)
    const c: Ctx = { main: f.main, second: f.second, member: f.residentId }
    const want = table.map(([m, , path, expected]) => `${m} ${path(c)} → ${expected[callers.indexOf(caller)]}`)
    const got: string[] = []
    for (const [m, , path] of table)
      got.push(`${m} ${path(c)} → ${classOf((await t.call(m, path(c), { token, headers: { 'Idempotency-Key': v7() } })).status)}`)
    expect(got).toEqual(want)
  })

  it('has a row for every account statement route the API documents', async () => {
    const t = await testApp()
    const documented = [...(await documentedRoutes(t, '/account-statement', '/companies'))].filter((r) => r.includes('/account-statement'))
    expect(new Set(table.map(([m, r]) => `${m} ${r}`))).toEqual(new Set(documented))
  })
})
