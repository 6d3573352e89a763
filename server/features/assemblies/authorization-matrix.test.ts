import { describe, expect, it } from 'vitest'
import { demo, testApp, type TestApp } from '../../test/harness'
import { callers, classOf, tokenFor } from '../../test/authorization'
import { createAgreement } from '../agreements/test-helpers'
import { companyIds } from '../companies/test-helpers'
import { assemblyBody } from './test-helpers'

/**
 * Who may call which general assembly route (docs/PRODUCT.md §6, docs/decisions/0061):
 * one row per route and association, one column per caller (server/test/authorization.ts:
 * S super admin, C chairman, A administrator, K accountant, B board member, R resident — a member
 * through an agreement, N a neighbour without one, O another association's administrator, −
 * anonymous). `o` allowed (any answer but 401/403/404: a 409 or 422 from the state is still
 * "allowed"), `3` 403, `4` 404 (another association's assembly is never revealed), `1` 401.
 * Each row runs on fresh assemblies whose notice went out: one of the demo company ("main", with a
 * proposal of the resident's) and one of Havnehuset ("second", with a proposal of its administrator's).
 * Every assembly route the app serves must have a row.
 */
type Ctx = { main: string; second: string; mainId: string; secondId: string; proposal: string; otherProposal: string; n: number }
type Row = [method: string, route: string, path: (c: Ctx) => string, expected: string, body?: (c: Ctx) => unknown]

/** A company id that does not exist. */
const UNKNOWN = '0190d5e6-0000-7000-8000-00000000beef'
const proposal = (c: Ctx) => ({ title: `Forslag ${c.n}`, body: 'Lad os plante et æbletræ.' })

//                                                                                                            S C A K B R N O -
const table: Row[] = [
  ['GET', '/assemblies', () => '/assemblies', 'oooooooo1'],
  ['GET', '/assemblies', (c) => `/assemblies?companyId=${c.mainId}`, 'oooooo441'],
  ['GET', '/assemblies', (c) => `/assemblies?companyId=${c.secondId}`, 'o444444o1'],
  ['GET', '/assemblies', () => `/assemblies?companyId=${UNKNOWN}`, '444444441'],
  ['POST', '/assemblies', () => '/assemblies', 'oooo33441', (c) => assemblyBody(c.mainId, { noticeAt: null })],
  ['POST', '/assemblies', () => '/assemblies', 'o444444o1', (c) => assemblyBody(c.secondId, { noticeAt: null })],
  ['GET', '/assemblies/{id}', (c) => `/assemblies/${c.main}`, 'oooooo441'],
  ['GET', '/assemblies/{id}', (c) => `/assemblies/${c.second}`, 'o444444o1'],
  ['PATCH', '/assemblies/{id}', (c) => `/assemblies/${c.main}`, 'oooo33441', () => ({ place: 'Kælderen' })],
  ['PATCH', '/assemblies/{id}', (c) => `/assemblies/${c.second}`, 'o444444o1', () => ({ place: 'Kælderen' })],
  ['POST', '/assemblies/{id}/cancel', (c) => `/assemblies/${c.main}/cancel`, 'oooo33441'],
  ['POST', '/assemblies/{id}/cancel', (c) => `/assemblies/${c.second}/cancel`, 'o444444o1'],
  // Before the meeting this is a 422 for those allowed.
  ['POST', '/assemblies/{id}/held', (c) => `/assemblies/${c.main}/held`, 'oooo33441'],
  ['POST', '/assemblies/{id}/held', (c) => `/assemblies/${c.second}/held`, 'o444444o1'],
  ['GET', '/assemblies/{id}/proposals', (c) => `/assemblies/${c.main}/proposals`, 'oooooo441'],
  ['GET', '/assemblies/{id}/proposals', (c) => `/assemblies/${c.second}/proposals`, 'o444444o1'],
  // Members propose (staff of any role and residents); the super admin is not a member.
  ['POST', '/assemblies/{id}/proposals', (c) => `/assemblies/${c.main}/proposals`, '3ooooo441', proposal],
  ['POST', '/assemblies/{id}/proposals', (c) => `/assemblies/${c.second}/proposals`, '3444444o1', proposal],
  // Only the author withdraws; those who see the proposal without being its author get 403.
  ['POST', '/assemblies/{id}/proposals/{proposalId}/withdraw', (c) => `/assemblies/${c.main}/proposals/${c.proposal}/withdraw`, '33333o441'],
  ['POST', '/assemblies/{id}/proposals/{proposalId}/withdraw', (c) => `/assemblies/${c.second}/proposals/${c.otherProposal}/withdraw`, '3444444o1'],
]

async function freshContext(t: TestApp, tokens: { chairman: string; otherAdmin: string; resident: string }, ids: { main: string; second: string }, n: number) {
  const create = async (token: string, companyId: string) => {
    const res = await t.call('POST', '/assemblies', { token, body: assemblyBody(companyId, { noticeAt: null }) })
    expect(res.status, JSON.stringify(res.json)).toBe(201)
    return res.json.id as string
  }
  const main = await create(tokens.chairman, ids.main)
  const second = await create(tokens.otherAdmin, ids.second)
  // The notices go out at the job's next turn: members see both from then on.
  await t.lock.run(() => t.services.assemblies.tick())
  const submit = async (token: string, id: string) => {
    const res = await t.call('POST', `/assemblies/${id}/proposals`, { token, body: { title: 'Æbletræ', body: 'I gården.' } })
    expect(res.status, JSON.stringify(res.json)).toBe(201)
    return res.json.id as string
  }
  return {
    main,
    second,
    mainId: ids.main,
    secondId: ids.second,
    proposal: await submit(tokens.resident, main),
    otherProposal: await submit(tokens.otherAdmin, second),
    n,
  }
}

describe('authorization matrix (general assembly routes)', () => {
  it.each(callers.map((caller) => [caller] as const))('%s gets the expected answer on every route, in its own and another association', async (caller) => {
    const t = await testApp()
    const ids = await companyIds(t)
    const admin = await t.login(demo.admin)
    // The resident is a member through an agreement; the neighbour has none.
    await createAgreement(t, {}, admin)
    const tokens = { chairman: await t.login(demo.chairman), otherAdmin: await t.login(demo.otherAdmin), resident: await t.login(demo.resident) }
    const token = await tokenFor(t, caller)
    const got: string[] = []
    const want: string[] = []
    for (const [i, [method, , path, expected, body]] of table.entries()) {
      const ctx = await freshContext(t, tokens, ids, i)
      const res = await t.call(method, path(ctx), { token, body: body?.(ctx) })
      const label = `${i} ${method} ${path(ctx).replace(/[0-9a-f-]{36}/g, '…')}`
      got.push(`${label} → ${classOf(res.status)}`)
      want.push(`${label} → ${expected[callers.indexOf(caller)]}`)
    }
    expect(got).toEqual(want)
  })

  it('has a row for every general assembly route the app serves', async () => {
    const t = await testApp()
    const served = new Set(
      t.app.routes
        .filter((r) => /^\/api\/assemblies/.test(r.path) && r.method !== 'ALL')
        .map((r) => `${r.method} ${r.path.replace(/^\/api/, '').replace(/:([A-Za-z]+)/g, '{$1}')}`),
    )
    const listed = new Set(table.map(([method, route]) => `${method} ${route}`))
    expect([...served].filter((r) => !listed.has(r))).toEqual([])
    expect([...listed].filter((r) => !served.has(r))).toEqual([])
  })
})
