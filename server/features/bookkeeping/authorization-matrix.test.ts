import { describe, expect, it } from 'vitest'
import { v7 } from 'uuid'
import { demo, testApp, type TestApp } from '../../test/harness'
import { callers, documentedRoutes, walkMatrix } from '../../test/authorization'
import { defaultAccountPlan } from '../../../shared/domain/bookkeeping'
import { documentFixtures } from '../documents/test-helpers'

/**
 * Who may use bookkeeping (decision 0067): company admin staff (chairman,
 * administrator, accountant) of the company and the super admin. A board member gets 403 with the
 * reason (they know the association); residents and another association's administrator get 404
 * (the books are not shown to them at all); 401 without a token. `o` allowed. Each route once for the demo company (main) and once for
 * the other association (second), whose administrator is column O. Every documented bookkeeping
 * route has a row (checked below).
 */
type Ctx = { main: string; second: string; mainExport: string; secondExport: string }
type Row = [method: string, route: string, path: (c: Ctx) => string, expected: string, body?: () => unknown]

const period = { from: '2026-10-01', to: '2026-10-31' }
//                                                                                                   S C A K B R N O -
const table: Row[] = [
  ['GET', '/bookkeeping/{companyId}/accounts', (c) => `/bookkeeping/${c.main}/accounts`, 'oooo34441'],
  ['GET', '/bookkeeping/{companyId}/accounts', (c) => `/bookkeeping/${c.second}/accounts`, 'o444444o1'],
  ['PUT', '/bookkeeping/{companyId}/accounts', (c) => `/bookkeeping/${c.main}/accounts`, 'oooo34441', defaultAccountPlan],
  ['PUT', '/bookkeeping/{companyId}/accounts', (c) => `/bookkeeping/${c.second}/accounts`, 'o444444o1', defaultAccountPlan],
  ['GET', '/bookkeeping/{companyId}/journal', (c) => `/bookkeeping/${c.main}/journal?from=2026-10-01&to=2026-10-31`, 'oooo34441'],
  ['GET', '/bookkeeping/{companyId}/journal', (c) => `/bookkeeping/${c.second}/journal?from=2026-10-01&to=2026-10-31`, 'o444444o1'],
  ['GET', '/bookkeeping/{companyId}/exports', (c) => `/bookkeeping/${c.main}/exports`, 'oooo34441'],
  ['GET', '/bookkeeping/{companyId}/exports', (c) => `/bookkeeping/${c.second}/exports`, 'o444444o1'],
  ['POST', '/bookkeeping/{companyId}/exports', (c) => `/bookkeeping/${c.main}/exports`, 'oooo34441', () => ({ id: v7(), ...period, format: 'CSV' })],
  ['POST', '/bookkeeping/{companyId}/exports', (c) => `/bookkeeping/${c.second}/exports`, 'o444444o1', () => ({ id: v7(), ...period, format: 'XLSX' })],
  ['GET', '/bookkeeping/{companyId}/exports/{id}/file', (c) => `/bookkeeping/${c.main}/exports/${c.mainExport}/file`, 'oooo34441'],
  ['GET', '/bookkeeping/{companyId}/exports/{id}/file', (c) => `/bookkeeping/${c.second}/exports/${c.secondExport}/file`, 'o444444o1'],
  // Another company's export under one's own company: 404 even for its staff.
  ['GET', '/bookkeeping/{companyId}/exports/{id}/file', (c) => `/bookkeeping/${c.main}/exports/${c.secondExport}/file`, '444434441'],
  ['GET', '/bookkeeping/{companyId}/closed-months', (c) => `/bookkeeping/${c.main}/closed-months`, 'oooo34441'],
  ['GET', '/bookkeeping/{companyId}/closed-months', (c) => `/bookkeeping/${c.second}/closed-months`, 'o444444o1'],
  ['POST', '/bookkeeping/{companyId}/closed-months', (c) => `/bookkeeping/${c.main}/closed-months`, 'oooo34441', () => ({ month: '2026-10' })],
  ['POST', '/bookkeeping/{companyId}/closed-months', (c) => `/bookkeeping/${c.second}/closed-months`, 'o444444o1', () => ({ month: '2026-10' })],
]

async function exportOf(t: TestApp, token: string, companyId: string): Promise<string> {
  const res = await t.call('POST', `/bookkeeping/${companyId}/exports`, { token, body: { id: v7(), ...period, format: 'CSV' } })
  expect(res.status, JSON.stringify(res.json)).toBe(201)
  return res.json.id
}

describe('authorization matrix (bookkeeping)', () => {
  it.each(callers.map((caller) => [caller] as const))('%s', async (caller) => {
    const t = await testApp()
    const f = await documentFixtures(t)
    const c: Ctx = {
      main: f.main,
      second: f.second,
      mainExport: await exportOf(t, await t.login(demo.admin), f.main),
      secondExport: await exportOf(t, await t.login(demo.otherAdmin), f.second),
    }
    const { want, got } = await walkMatrix(t, table, c, caller)
    expect(got).toEqual(want)
  })

  it('has a row for every bookkeeping route the API documents', async () => {
    const t = await testApp()
    expect(new Set(table.map(([m, r]) => `${m} ${r}`))).toEqual(await documentedRoutes(t, '/bookkeeping'))
  })
})
