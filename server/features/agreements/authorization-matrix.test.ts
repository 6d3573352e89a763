import { describe, expect, it } from 'vitest'
import { demo, testAppWithVipps } from '../../test/harness'
import { acceptedWithCollectedCharge, agreementFixtures, createAgreement, createPayload } from './test-helpers'
import { callers, classOf, tokenFor } from '../../test/authorization'

/**
 * Who may call which agreement route (docs/PRODUCT.md §6, docs/decisions/0024-agreements.md): one row per route, one column
 * per caller. `o` allowed (any answer but 401/403/404: a 409 from the status table is still
 * "allowed"), `3` 403, `4` 404 (an agreement the caller may not see is never revealed), `1` 401.
 * Each row runs on a fresh agreement of the demo company for the first demo resident ("resident";
 * "neighbour" is another resident). Every agreement route the app serves must have a row.
 */
type Ctx = { id: string; chargeId: string; f: Awaited<ReturnType<typeof agreementFixtures>> }
type Row = [method: string, route: string, path: (c: Ctx) => string, expected: string, body?: (c: Ctx) => unknown, setup?: 'accepted with a collected charge']

/** A company id that does not exist. */
const UNKNOWN = '0190d5e6-0000-7000-8000-00000000beef'

//                                                                                   S C A K B R N O -
const table: Row[] = [
  ['GET', '/agreement', () => '/agreement', 'oooooooo1'],
  // Paging (docs/API.md "Lists") keeps who sees what: one row a page, the same 404 for another association.
  ...(['/agreement', '/invoice', '/messages'] as const).flatMap((list): Row[] => [
    ['GET', list, (c) => `${list}?companyId=${c.f.main}&limit=1`, 'oooooo441'],
    ['GET', list, (c) => `${list}?companyId=${c.f.second}&limit=1`, 'o444444o1'],
  ]),
  // A list's companyId of a company the caller has nothing to do with (another association, or one
  // that does not exist) answers 404 like its single records, never 200 [] (decision 0033).
  // The resident holds the row's agreement with the demo company; the neighbour holds none.
  ...(['/agreement', '/invoice', '/messages'] as const).flatMap((list): Row[] => [
    ['GET', list, (c) => `${list}?companyId=${c.f.main}`, 'oooooo441'],
    ['GET', list, (c) => `${list}?companyId=${c.f.second}`, 'o444444o1'],
    ['GET', list, () => `${list}?companyId=${UNKNOWN}`, '444444441'],
  ]),
  ['POST', '/agreement', () => '/agreement', 'oooo34441', (c) => createPayload(c.f)],
  ['GET', '/agreement/{id}', (c) => `/agreement/${c.id}`, 'oooooo441'],
  ['PATCH', '/agreement/{id}', (c) => `/agreement/${c.id}`, 'oooo33441', () => ({ paymentPeriod: 'WEEKLY' })],
  ['GET', '/agreement/{id}/charges', (c) => `/agreement/${c.id}/charges`, 'oooooo441'],
  ['GET', '/agreement/{id}/charges', (c) => `/agreement/${c.id}/charges?limit=1`, 'oooooo441'],
  ['POST', '/agreement/{id}/accept', (c) => `/agreement/${c.id}/accept`, '33333o441'],
  ['GET', '/agreement/{id}/accept', (c) => `/agreement/${c.id}/accept`, '33333o441'],
  ['POST', '/agreement/{id}/reject', (c) => `/agreement/${c.id}/reject`, '33333o441'],
  ['GET', '/agreement/{id}/reject', (c) => `/agreement/${c.id}/reject`, '33333o441'],
  ['POST', '/agreement/{id}/cancel', (c) => `/agreement/${c.id}/cancel`, 'oooo33441', () => ({ terminationDate: '2026-12-23', finalPaymentRequired: false })],
  // Creating, editing, terminating, one-off payments and refunds are company admin staff's
  // (administrator, accountant, chairman) and the super admin's; a board member only reads (403, decision 0024).
  [
    'POST',
    '/agreement/{id}/requestOneTimeCharge',
    (c) => `/agreement/${c.id}/requestOneTimeCharge`,
    'oooo33441',
    () => ({ amount: 10_000, description: 'Nøgle' }),
    'accepted with a collected charge',
  ],
  [
    'POST',
    '/agreement/{id}/refund',
    (c) => `/agreement/${c.id}/refund`,
    'oooo33441',
    (c) => ({ chargeId: c.chargeId, amount: 10_000, description: 'Fejl' }),
    'accepted with a collected charge',
  ],
]

describe('authorization matrix (agreement routes)', () => {
  it.each(callers.map((caller) => [caller] as const))('%s gets the expected answer on every route', async (caller) => {
    const t = await testAppWithVipps()
    const f = await agreementFixtures(t)
    const token = await tokenFor(t, caller)
    const admin = caller === 'admin' ? token : await t.login(demo.admin)
    const got: string[] = []
    const want: string[] = []
    for (const [method, route, path, expected, body, setup] of table) {
      const ctx: Ctx = { id: (await createAgreement(t, {}, admin)).id, chargeId: '00000000-0000-7000-8000-000000000000', f }
      if (setup) ctx.chargeId = await acceptedWithCollectedCharge(t, ctx.id)
      const res = await t.call(method, path(ctx), { token, body: body?.(ctx) })
      const label = `${method} ${route}${path(ctx)
        .replace(/^[^?]*/, '')
        .replace(ctx.f.main, 'main')
        .replace(ctx.f.second, 'second')
        .replace(UNKNOWN, 'unknown')}`
      got.push(`${label} → ${classOf(res.status)}`)
      want.push(`${label} → ${expected[callers.indexOf(caller)]}`)
    }
    expect(got).toEqual(want)
  })

  it('has a row for every agreement route the app serves', async () => {
    const t = await testAppWithVipps()
    const served = new Set(
      t.app.routes
        .filter((r) => /^\/api\/agreement/.test(r.path) && r.method !== 'ALL')
        .map((r) => `${r.method} ${r.path.replace(/^\/api/, '').replace(/:([A-Za-z]+)/g, '{$1}')}`),
    )
    const listed = new Set(table.filter(([, route]) => route.startsWith('/agreement')).map(([method, route]) => `${method} ${route}`))
    expect([...served].filter((r) => !listed.has(r))).toEqual([])
    expect([...listed].filter((r) => !served.has(r))).toEqual([])
  })
})
