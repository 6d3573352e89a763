import { describe, expect, it } from 'vitest'
import { and, eq } from 'drizzle-orm'
import { demo, testAppWithVipps } from '../../test/harness'
import { addresses, companyMembers } from '../../db/schema/companies'
import { paymentProviders } from '../../db/schema/payments'
import { users } from '../../db/schema/users'
import { companyIds } from './test-helpers'
import { classOf, tokenFor } from '../../test/authorization'

/**
 * Who may call which companies route (docs/PRODUCT.md §6, docs/API.md, docs/decisions/0015-who-does-what-in-a-company.md): one row per route, one column
 * per caller. `o` allowed (any answer but 401/403/404: a 409 from the life cycle is still
 * "allowed"), `3` 403, `4` 404 (another company's records are never revealed), `1` 401.
 * Every companies/address-search route the app serves must have a row (checked below).
 */
const callers = ['superadmin', 'chairman', 'admin', 'accountant', 'boardmember', 'resident', 'otherAdmin', 'anonymous'] as const
//                                                                          S C A K B R O N
type Ctx = { main: string; second: string; provider: string; address: string; member: string; n: number }
/** A company id that does not exist. */
const UNKNOWN = '0190d5e6-0000-7000-8000-00000000beef'
type Row = [method: string, route: string, path: (c: Ctx) => string, expected: string, body?: (c: Ctx) => unknown]

const table: Row[] = [
  ['GET', '/company', () => '/company', 'ooooooo1'],
  [
    'POST',
    '/company',
    () => '/company',
    'o3333331',
    (c) => ({
      name: `Forening ${c.n}`,
      acronym: 'F',
      cvr: ['35954716', '10000009', '10000025', '10000033', '10000041', '10000068', '10000076', '10000084'][c.n],
      unionType: 'COOP',
    }),
  ],
  ['GET', '/company/{id}', (c) => `/company/${c.main}`, 'ooooo441'],
  ['GET', '/companies/{id}', (c) => `/companies/${c.main}`, 'ooooo441'],
  ['GET', '/company/{id}/members', (c) => `/company/${c.main}/members`, 'ooooo441'],
  // Paging (docs/API.md "Lists") keeps who sees what: one row a page, the same 404 for another association.
  ['GET', '/company/{id}/members', (c) => `/company/${c.main}/members?limit=1`, 'ooooo441'],
  ['GET', '/company/{id}/members', (c) => `/company/${c.second}/members?limit=1`, 'o44444o1'],
  // Charge statistics (decision 0032): company admin staff; the full matrix is in server/features/statistics/statistics.test.ts.
  ['GET', '/company/{id}/charges-statistics', (c) => `/company/${c.main}/charges-statistics`, 'oooo3441'],
  ['GET', '/company/{id}/addresses', (c) => `/company/${c.main}/addresses`, 'ooooo441'],
  ['GET', '/address-search', () => '/address-search?q=vestergade', 'ooooo3o1'],
  ['GET', '/company/{id}/payment-providers', (c) => `/company/${c.main}/payment-providers`, 'ooooo441'],
  ['GET', '/company/{id}/payment-providers/{providerId}', (c) => `/company/${c.main}/payment-providers/${c.provider}`, 'ooooo441'],
  // The lists of another association (Havnehuset, the second company) and of a company that does
  // not exist answer 404 like its single records, never 200 [] (decision 0033).
  ...(['members', 'addresses', 'payment-providers'] as const).flatMap((list): Row[] => [
    ['GET', `/company/{id}/${list}`, (c) => `/company/${c.second}/${list}`, 'o44444o1'],
    ['GET', `/company/{id}/${list}`, () => `/company/${UNKNOWN}/${list}`, '44444441'],
  ]),
  ['GET', '/company/{id}/charges-statistics', (c) => `/company/${c.second}/charges-statistics`, 'o44444o1'],
  ['GET', '/company/{id}/charges-statistics', () => `/company/${UNKNOWN}/charges-statistics`, '44444441'],
  ['PUT', '/company/{id}', (c) => `/company/${c.main}`, 'oooo3441', () => ({ acronym: 'ABF S' })],
  ['PUT', '/companies/{id}', (c) => `/companies/${c.main}`, 'oooo3441', () => ({ acronym: 'ABF S' })],
  ['PATCH', '/company/{id}/field/{fieldName}', (c) => `/company/${c.main}/field/name`, 'oooo3441', () => ({ value: 'Solgården' })],
  ['PATCH', '/company/{id}/field/{fieldName}', (c) => `/company/${c.main}/field/heatingWaterPeriodStartDate`, 'ooooo441', () => ({ value: '01.07' })],
  [
    'POST',
    '/company/{id}/member',
    (c) => `/company/${c.main}/member`,
    'oooo3441',
    (c) => ({ user: { name: 'Ny Bruger', email: `ny${c.n}@example.dk` }, role: 'BOARDMEMBER' }),
  ],
  [
    'POST',
    '/company/{id}/addresses',
    (c) => `/company/${c.main}/addresses`,
    'oooo3441',
    () => ({ street: 'Vestergade', number: '1', zip: '8000', city: 'Aarhus C' }),
  ],
  [
    'POST',
    '/company/{id}/payment-providers',
    (c) => `/company/${c.main}/payment-providers`,
    'o3333441',
    () => ({ config: { providerName: 'V', merchantSerialNumber: '1', subscriptionKey: 'abcdef', clientId: 'c', clientSecret: 'secret' } }),
  ],
  ['PATCH', '/company/{id}/payment-providers/{providerId}', (c) => `/company/${c.main}/payment-providers/${c.provider}`, 'o3333441', () => ({ isTest: true })],
  [
    'PATCH',
    '/company/{id}/payment-providers/{providerId}/toggle-active',
    (c) => `/company/${c.main}/payment-providers/${c.provider}/toggle-active`,
    'o3333441',
  ],
  [
    'POST',
    '/company/{id}/payment-providers/{providerId}/test-connection',
    (c) => `/company/${c.main}/payment-providers/${c.provider}/test-connection`,
    'o3333441',
  ],
  ['DELETE', '/company/{id}/addresses/{addressId}', (c) => `/company/${c.main}/addresses/${c.address}`, 'oooo3441'],
  // Changing a member's role is the admin staff's, like adding and removing (decision 0038).
  ['PATCH', '/company/{id}/member/{memberId}', (c) => `/company/${c.main}/member/${c.member}`, 'oooo3441', () => ({ role: 'ACCOUNTANT' })],
  ['DELETE', '/company/{id}/member/{memberId}', (c) => `/company/${c.main}/member/${c.member}`, 'oooo3441'],
  ...(['suspend', 'activate', 'deactivate', 'delete'] as const).flatMap((action): Row[] => [
    ['GET', `/company/{id}/${action}`, (c) => `/company/${c.main}/${action}`, 'o3333441'],
    ['POST', `/company/{id}/${action}`, (c) => `/company/${c.main}/${action}`, 'o3333441'],
  ]),
]

describe('authorization matrix (companies and address-search routes)', () => {
  it.each(callers.map((caller, n) => [caller, n] as const))('%s gets the expected answer on every route', async (caller, n) => {
    const t = await testAppWithVipps()
    const { main, second } = await companyIds(t)
    const provider = (await t.db.select().from(paymentProviders).where(eq(paymentProviders.companyId, main)).get())!.id
    const address = (await t.db.select().from(addresses).where(eq(addresses.companyId, main)).get())!.id
    const board = (await t.db.select().from(users).where(eq(users.emailAddress, demo.boardmember)).get())!
    const member = (await t.db
      .select()
      .from(companyMembers)
      .where(and(eq(companyMembers.companyId, main), eq(companyMembers.userId, board.id)))
      .get())!.id
    const ctx: Ctx = { main, second, provider, address, member, n }
    const token = await tokenFor(t, caller)
    const got: string[] = []
    const want: string[] = []
    for (const [method, , path, expected, body] of table) {
      const res = await t.call(method, path(ctx), { token, body: body?.(ctx) })
      got.push(`${method} ${path(ctx).replace(/\?.*/, '')} → ${classOf(res.status)}`)
      want.push(`${method} ${path(ctx).replace(/\?.*/, '')} → ${expected[callers.indexOf(caller)]}`)
    }
    expect(got).toEqual(want)
  })

  it('has a row for every companies, providers and address-search route the app serves', async () => {
    const t = await testAppWithVipps()
    const served = new Set(
      t.app.routes
        .filter((r) => /^\/api\/(company|companies|address-search)/.test(r.path) && r.method !== 'ALL')
        // Routes of later features under /companies have their own matrices: erasure requests
        // (server/features/personal-data), account statements and their sendouts (server/features/account-statement),
        // invitations (server/features/invitations) and the household import
        // (server/features/households/import.authorization-matrix.test.ts).
        .filter(
          (r) =>
            !r.path.includes('/erasure-requests') && !r.path.includes('/account-statement') && !r.path.includes('/invitations') && !r.path.includes('/import'),
        )
        .map((r) => `${r.method} ${r.path.replace(/^\/api/, '').replace(/:([A-Za-z]+)/g, '{$1}')}`),
    )
    const listed = new Set(table.map(([method, route]) => `${method} ${route}`))
    expect([...served].filter((r) => !listed.has(r))).toEqual([])
    expect([...listed].filter((r) => !served.has(r))).toEqual([])
  })
})
