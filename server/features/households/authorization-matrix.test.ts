import { describe, expect, it } from 'vitest'
import { v7 } from 'uuid'
import { demo, testApp, type TestApp } from '../../test/harness'
import { callers, documentedRoutes, walkMatrix } from '../../test/authorization'
import { documentFixtures } from '../documents/test-helpers'
import { agreementFixtures } from '../agreements/test-helpers'
import { addResident } from './test-helpers'

/**
 * Who may call which households route (docs/PRODUCT.md "Households", docs/decisions/0090): one row
 * per route, one column per caller (server/test/authorization.ts). `o` allowed, `3` 403, `4` 404
 * (another association's household is never revealed), `1` 401. The resident lives in the
 * household; the neighbour lives elsewhere in the association. Every households route the app
 * serves has a row (checked below).
 */
type Ctx = { main: string; second: string; household: string; resident: string }
type Row = [method: string, route: string, path: (c: Ctx) => string, expected: string, body?: (c: Ctx) => unknown]

//                                                                                                  S C A K B R N O -
const table: Row[] = [
  ['GET', '/households', (c) => `/households?companyId=${c.main}`, 'ooooo3341'],
  ['GET', '/households', (c) => `/households?companyId=${c.second}`, 'o444444o1'],
  ['GET', '/households/{id}', (c) => `/households/${c.household}`, 'oooooo441'],
  ['PATCH', '/households/{id}', (c) => `/households/${c.household}`, 'oooo33441', () => ({ area: '81.5' })],
  [
    'POST',
    '/households/{id}/residents',
    (c) => `/households/${c.household}/residents`,
    'oooo33441',
    () => ({ fullName: 'Ny Lejer', emailAddress: `lejer-${v7()}@example.dk`, kind: 'TENANT', moveInDate: '2026-12-01' }),
  ],
  ['PATCH', '/households/{id}/residents/{residentId}', (c) => `/households/${c.household}/residents/${c.resident}`, 'oooo33441', () => ({ kind: 'TENANT' })],
  ['GET', '/households/{id}/settlement', (c) => `/households/${c.household}/settlement?date=2026-12-11`, 'oooo33441'],
  [
    'POST',
    '/households/{id}/moves',
    (c) => `/households/${c.household}/moves`,
    'oooo33441',
    () => ({ moveDate: '2026-12-11', arriving: [{ fullName: 'Ny Ejer', emailAddress: `ejer-${v7()}@example.dk`, kind: 'OWNER' }] }),
  ],
]

async function ctxOf(t: TestApp): Promise<Ctx> {
  const f = await documentFixtures(t)
  const { addressIds } = await agreementFixtures(t)
  const household = addressIds[0]!
  const added = await addResident(t, f.admin, household, {
    fullName: 'Sofie Jensen',
    emailAddress: demo.resident,
    kind: 'OWNER',
    moveInDate: '2020-01-01',
    isPayer: true,
  })
  expect(added.status, JSON.stringify(added.json)).toBe(201)
  return { main: f.main, second: f.second, household, resident: added.json.residents[0].id }
}

describe('authorization matrix (households)', () => {
  it.each(callers.map((caller) => [caller] as const))('%s', async (caller) => {
    const t = await testApp()
    const c = await ctxOf(t)
    const { want, got } = await walkMatrix(t, table, c, caller)
    expect(got).toEqual(want)
  })

  it('has a row for every households route the API documents', async () => {
    const t = await testApp()
    expect(new Set(table.map(([m, r]) => `${m} ${r}`))).toEqual(await documentedRoutes(t, '/households'))
  })
})
