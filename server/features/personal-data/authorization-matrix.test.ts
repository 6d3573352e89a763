import { describe, expect, it } from 'vitest'
import { v7 } from 'uuid'
import { eq } from 'drizzle-orm'
import { agreements } from '../../db/schema/agreements'
import { demo, testApp } from '../../test/harness'
import { createAgreement } from '../agreements/test-helpers'
import { callers, classOf, documentedRoutes, tokenFor } from '../../test/authorization'
import { newMember } from './test-helpers'

/**
 * Who may call which personal-data route (decision 0069): one row per route, one column
 * per caller (server/test/authorization.ts). `o` allowed, `3` 403, `4` 404, `1` 401. The erase
 * target is a fresh member of the demo association with nothing open (its agreement closed); the
 * second row names the other association, where only the super admin may act and the member is
 * not (404 for the super admin too: not a member there). Every documented route has a row.
 */
type Ctx = { main: string; second: string; member: string }
type Row = [method: string, route: string, path: (c: Ctx) => string, expected: string]

const ERASE = '/companies/{companyId}/members/{userId}/erase'
//                                                                                          S C A K B R N O -
const table: Row[] = [
  ['GET', '/account/personal-data', () => '/account/personal-data', 'oooooooo1'],
  ['GET', '/account/personal-data.html', () => '/account/personal-data.html', 'oooooooo1'],
  ['POST', ERASE, (c) => `/companies/${c.main}/members/${c.member}/erase`, 'ooo333341'],
  ['POST', ERASE, (c) => `/companies/${c.second}/members/${c.member}/erase`, '444444441'],
]

describe('authorization matrix (personal data)', () => {
  it.each(callers.map((caller) => [caller] as const))('%s', async (caller) => {
    const t = await testApp()
    const m = await newMember(t, { name: 'Vera Vang', email: 'vera.vang@example.dk' })
    // Residents of the association: the demo resident and the neighbour hold agreements.
    await createAgreement(t, {}, m.admin)
    await createAgreement(t, { emailAddress: demo.residentDa, memberName: 'Lars Pedersen' }, m.admin)
    await t.db.update(agreements).set({ status: 'CLOSED' }).where(eq(agreements.id, m.agreementId)).run()
    const token = await tokenFor(t, caller)
    const c: Ctx = { main: m.main, second: m.second, member: m.userId }
    const want: string[] = []
    const got: string[] = []
    for (const [method, , path, expected] of table) {
      want.push(`${method} ${path(c)} → ${expected[callers.indexOf(caller)]}`)
      const res = await t.call(method, path(c), {
        token,
        body: method === 'POST' ? { reason: 'MEMBER_REQUEST', requestedOn: '2026-11-20' } : undefined,
        headers: { 'Idempotency-Key': v7() },
      })
      got.push(`${method} ${path(c)} → ${classOf(res.status)}`)
    }
    expect(got).toEqual(want)
  })

  it('has a row for every personal-data route the API documents', async () => {
    const t = await testApp()
    // The members' routes under /companies are several features' (account statements too): ours end in /erase.
    const documented = [...(await documentedRoutes(t, '/account/personal-data', '/companies/{companyId}/members/'))].filter(
      (r) => r.includes('/account/personal-data') || r.endsWith('/erase'),
    )
    expect(new Set(table.map(([m, r]) => `${m} ${r}`))).toEqual(new Set(documented))
    expect(documented).toContain(`POST ${ERASE}`)
  })
})
