import { describe, expect, it } from 'vitest'
import { v7 } from 'uuid'
import { demo, testApp } from '../../test/harness'
import { callers, classOf, documentedRoutes, tokenFor } from '../../test/authorization'
import { statementFixture } from './test-helpers'

/**
 * Who may read which account statement (decision 0068): one row per route and case, one
 * column per caller (server/test/authorization.ts). `o` allowed, `4` 404 (another association's
 * member, or a statement that is not theirs, is never revealed), `3` 403, `1` 401. The member is the first
 * demo resident (column R) of the demo company.
 */
type Ctx = { main: string; second: string; member: string; sendout: string; otherSendout: string }
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
  // Interim statements of the running year, and resends of a sent statement (decision 0081): the same callers.
  [
    'POST',
    '/companies/{companyId}/account-statement-sendouts/{year}/interim',
    (c) => `/companies/${c.main}/account-statement-sendouts/2026/interim`,
    'oooo34441',
  ],
  [
    'POST',
    '/companies/{companyId}/account-statement-sendouts/{year}/interim',
    (c) => `/companies/${c.second}/account-statement-sendouts/2026/interim`,
    'o444444o1',
  ],
  [
    'POST',
    '/companies/{companyId}/account-statement-sendouts/{sendoutId}/resend',
    (c) => `/companies/${c.main}/account-statement-sendouts/${c.sendout}/resend`,
    'oooo34441',
  ],
  [
    'POST',
    '/companies/{companyId}/account-statement-sendouts/{sendoutId}/resend',
    (c) => `/companies/${c.second}/account-statement-sendouts/${c.otherSendout}/resend`,
    'o444444o1',
  ],
  // Another association's sendout through this association's path: 404 for everyone, the super admin too.
  [
    'POST',
    '/companies/{companyId}/account-statement-sendouts/{sendoutId}/resend',
    (c) => `/companies/${c.main}/account-statement-sendouts/${c.otherSendout}/resend`,
    '444434441',
  ],
]

/**
 * A sent interim statement of each association (2 December 2026), so a resend has something to
 * resend; the resend goes to one member of it, the demo resident in the main association.
 */
async function sentSendouts(t: Awaited<ReturnType<typeof testApp>>, f: Awaited<ReturnType<typeof statementFixture>>) {
  t.clock.set('2026-12-02T10:00:00.000Z')
  const send = async (email: string, company: string) =>
    (
      await t.call('POST', `/companies/${company}/account-statement-sendouts/2026/interim`, {
        token: await t.login(email),
        headers: { 'Idempotency-Key': v7() },
      })
    ).json as { id: string }
  const sendout = (await send(demo.admin, f.main)).id
  const otherSendout = (await send(demo.otherAdmin, f.second)).id
  while ((await t.services.statementSendouts.tick()) > 0);
  // The next day: the interims the callers send are new ones.
  t.clock.set('2026-12-03T10:00:00.000Z')
  return { sendout, otherSendout }
}

describe('authorization matrix (account statements)', () => {
  it.each(callers.map((caller) => [caller] as const))('%s', async (caller) => {
    const t = await testApp()
    const f = await statementFixture(t)
    const c: Ctx = { main: f.main, second: f.second, member: f.residentId, ...(await sentSendouts(t, f)) }
    const token = await tokenFor(t, caller)
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
