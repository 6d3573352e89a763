import { describe, expect, it } from 'vitest'
import { v7 } from 'uuid'
import { eq } from 'drizzle-orm'
import { agreements } from '../../db/schema/agreements'
import { demo, testApp } from '../../test/harness'
import { createAgreement } from '../agreements/test-helpers'
import { callers, documentedRoutes, walkMatrix } from '../../test/authorization'
import { newMember } from './test-helpers'

/**
 * Who may call which personal-data route (decisions 0069 and 0080): one row per route and
 * association, one column per caller (server/test/authorization.ts). `o` allowed (a 409 or 422 of a
 * refusal too), `3` 403, `4` 404, `1` 401. A fresh member of the demo association with nothing open
 * (its agreement closed) has filed a request to erase their data; the rows with the other
 * association reach for that request or member there, where nobody finds them (404, the super
 * admin too). Every documented route has a row.
 */
type Ctx = { main: string; second: string; member: string; request: string }
type Row = [method: string, route: string, path: (c: Ctx) => string, expected: string, body?: (c: Ctx) => unknown]

const MINE = '/account/erasure-requests'
const REQUESTS = '/companies/{companyId}/erasure-requests'
const recorded = (c: Ctx) => ({ userId: c.member, channel: 'LETTER', requestedOn: '2026-11-20' })
const note = () => ({ note: 'Not the member’s own request' })
//                                                                                                          S C A K B R N O -
const table: Row[] = [
  ['GET', '/account/personal-data', () => '/account/personal-data', 'oooooooo1'],
  ['GET', '/account/personal-data.html', () => '/account/personal-data.html', 'oooooooo1'],
  ['GET', MINE, () => MINE, 'oooooooo1'],
  // Staff are refused with 422 (an answer, so `o`); the super admin and the other association's admin belong to none of it.
  ['POST', MINE, () => MINE, '4oooooo41', (c) => ({ companyId: c.main })],
  ['POST', `${MINE}/{requestId}/withdraw`, (c) => `${MINE}/${c.request}/withdraw`, '444444441'],
  ['GET', REQUESTS, (c) => `/companies/${c.main}/erasure-requests`, 'ooooo3341'],
  ['GET', REQUESTS, (c) => `/companies/${c.second}/erasure-requests`, 'o444444o1'],
  // A request already waits for the member: 409 for those allowed.
  ['POST', REQUESTS, (c) => `/companies/${c.main}/erasure-requests`, 'ooooo3341', recorded],
  ['POST', REQUESTS, (c) => `/companies/${c.second}/erasure-requests`, '444444441', recorded],
  ['POST', `${REQUESTS}/{requestId}/reject`, (c) => `/companies/${c.second}/erasure-requests/${c.request}/reject`, '444444441', note],
  ['POST', `${REQUESTS}/{requestId}/approve`, (c) => `/companies/${c.second}/erasure-requests/${c.request}/approve`, '444444441'],
  // Approved (and erased) by the first three; the reject after it finds it decided (409).
  ['POST', `${REQUESTS}/{requestId}/approve`, (c) => `/companies/${c.main}/erasure-requests/${c.request}/approve`, 'ooo333341'],
  ['POST', `${REQUESTS}/{requestId}/reject`, (c) => `/companies/${c.main}/erasure-requests/${c.request}/reject`, 'ooo333341', note],
]

describe('authorization matrix (personal data)', () => {
  it.each(callers.map((caller) => [caller] as const))('%s', async (caller) => {
    const t = await testApp()
    const m = await newMember(t, { name: 'Vera Vang', email: 'vera.vang@example.dk' })
    // Residents of the association: the demo resident and the neighbour hold agreements.
    await createAgreement(t, {}, m.admin)
    await createAgreement(t, { emailAddress: demo.residentDa, memberName: 'Lars Pedersen' }, m.admin)
    await t.db.update(agreements).set({ status: 'CLOSED' }).where(eq(agreements.id, m.agreementId)).run()
    const filed = await t.call('POST', MINE, {
      token: await t.login('vera.vang@example.dk'),
      body: { companyId: m.main },
      headers: { 'Idempotency-Key': v7() },
    })
    expect(filed.status, JSON.stringify(filed.json)).toBe(201)
    const c: Ctx = { main: m.main, second: m.second, member: m.userId, request: filed.json.id }
    const { want, got } = await walkMatrix(t, table, c, caller)
    expect(got).toEqual(want)
  })

  it('has a row for every personal-data route the API documents', async () => {
    const t = await testApp()
    const documented = await documentedRoutes(t, '/account/personal-data', MINE, REQUESTS)
    expect(new Set(table.map(([m, r]) => `${m} ${r}`))).toEqual(documented)
    expect(documented).toContain(`POST ${REQUESTS}/{requestId}/approve`)
  })
})
