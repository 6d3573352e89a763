import { describe, expect, it } from 'vitest'
import { v7 } from 'uuid'
import { demo, testApp, type TestApp } from '../../test/harness'
import { callers, classOf, tokenFor, documentedRoutes } from '../../test/authorization'
import { documentFixtures } from '../documents/test-helpers'
import { createItem, loanStep, putItemPhoto, requestLoan } from './test-helpers'

/**
 * Who may call which lending route (docs/PRODUCT.md "Lending"): one row per route, one
 * column per caller (server/test/authorization.ts). `o` allowed, `3` 403, `4` 404 (another
 * association's item or loan is never revealed), `1` 401. The item is the resident's (column R);
 * the loan is the neighbour's (column N) request, brought to the state the step needs. A step the
 * loan is not at (409) counts as allowed: the party check comes first (403 for the others, and for
 * the party the step is not for: the borrower does not accept, the lender does not cancel).
 * Every lending route the app serves has a row (checked below).
 */
type Ctx = { main: string; second: string; item: string; loan: string }
type Stage = 'requested' | 'accepted' | 'confirmed' | 'handedOver' | 'returnedDamaged'
type Row = [method: string, route: string, path: (c: Ctx) => string, expected: string, send?: string, stage?: Stage]

//                                                                                          S C A K B R N O -
const table: Row[] = [
  ['GET', '/lending', (c) => `/lending?companyId=${c.main}`, 'ooooooo41'],
  ['GET', '/lending', (c) => `/lending?companyId=${c.second}`, 'o444444o1'],
  ['POST', '/lending', () => '/lending', '3oooooo41', 'create'],
  ['GET', '/lending/{id}', (c) => `/lending/${c.item}`, 'ooooooo41'],
  ['PATCH', '/lending/{id}', (c) => `/lending/${c.item}`, '33333o341', 'patch'],
  ['GET', '/lending/{id}/photo', (c) => `/lending/${c.item}/photo`, 'ooooooo41'],
  ['PUT', '/lending/{id}/photo', (c) => `/lending/${c.item}/photo`, '33333o341', 'photo'],
  ['GET', '/lending/{id}/loans', (c) => `/lending/${c.item}/loans`, 'ooooooo41'],
  ['POST', '/lending/{id}/loans', (c) => `/lending/${c.item}/loans`, '3oooooo41', 'request'],
  ['DELETE', '/lending/{id}', (c) => `/lending/${c.item}`, 'oooooo341'],
  ['GET', '/loans', () => '/loans?role=lender', 'oooooooo1'],
  ['GET', '/loans/{id}', (c) => `/loans/${c.loan}`, 'ooooooo41'],
  ['POST', '/loans/{id}/accept', (c) => `/loans/${c.loan}/accept`, '33333o341'],
  ['POST', '/loans/{id}/decline', (c) => `/loans/${c.loan}/decline`, '33333o341'],
  ['POST', '/loans/{id}/cancel', (c) => `/loans/${c.loan}/cancel`, '333333o41'],
  ['POST', '/loans/{id}/terms', (c) => `/loans/${c.loan}/terms`, '33333o341', 'terms', 'accepted'],
  ['POST', '/loans/{id}/confirm', (c) => `/loans/${c.loan}/confirm`, '33333oo41', undefined, 'accepted'],
  ['POST', '/loans/{id}/handover', (c) => `/loans/${c.loan}/handover`, '33333o341', 'handover', 'confirmed'],
  ['POST', '/loans/{id}/return', (c) => `/loans/${c.loan}/return`, '33333o341', 'return', 'handedOver'],
  ['POST', '/loans/{id}/deposit/settle', (c) => `/loans/${c.loan}/deposit/settle`, '3ooo33341', 'settle', 'returnedDamaged'],
]

async function send(t: TestApp, token: string | undefined, method: string, path: string, c: Ctx, body?: string): Promise<number> {
  if (body === 'photo') return (await putItemPhoto(t, token, c.item)).status
  if (body === 'create') return (await createItem(t, token, { companyId: c.main, title: 'Symaskine' })).status
  if (body === 'request') return (await requestLoan(t, token, c.item, { fromDate: '2026-12-10', toDate: '2026-12-11' })).status
  const json =
    body === 'patch' ? { title: 'Ny titel' }
    : body === 'terms' ? { conditionOut: 'Som ny' }
    : body === 'handover' ? {}
    : body === 'return' ? { condition: 'Fin' }
    : body === 'settle' ? { refundOre: 0 }
    : undefined
  return (await t.call(method, path, { token, body: json, headers: { 'Idempotency-Key': v7() } })).status
}

describe('authorization matrix (lending)', () => {
  it.each(callers.map((caller) => [caller] as const))('%s', async (caller) => {
    const t = await testApp()
    const f = await documentFixtures(t)
    const lender = await t.login(demo.resident)
    const borrower = await t.login(demo.residentDa)
    const token = await tokenFor(t, caller)
    const want: string[] = []
    const got: string[] = []
    for (const [method, , path, expected, body, stage] of table) {
      const item = await createItem(t, lender, { companyId: f.main, title: 'Boremaskine', description: 'Bosch' })
      expect(item.status, JSON.stringify(item.json)).toBe(201)
      expect((await putItemPhoto(t, lender, item.json.id)).status).toBe(200)
      const loan = await requestLoan(t, borrower, item.json.id, { fromDate: '2026-11-24', toDate: '2026-11-25' })
      expect(loan.status, JSON.stringify(loan.json)).toBe(201)
      const steps: [string, string, Record<string, unknown>?][] = []
      if (stage && stage !== 'requested') steps.push(['accept', lender])
      if (stage === 'confirmed' || stage === 'handedOver' || stage === 'returnedDamaged') steps.push(['confirm', lender], ['confirm', borrower])
      if (stage === 'handedOver' || stage === 'returnedDamaged') steps.push(['handover', lender, {}])
      if (stage === 'returnedDamaged') steps.push(['return', lender, { condition: 'Ridset', damage: 'Ridse i håndtaget' }])
      for (const [step, who, b] of steps) expect((await loanStep(t, who, loan.json.id, step, b)).status).toBe(200)
      const c: Ctx = { main: f.main, second: f.second, item: item.json.id, loan: loan.json.id }
      want.push(`${method} ${path(c)} → ${expected[callers.indexOf(caller)]}`)
      got.push(`${method} ${path(c)} → ${classOf(await send(t, token, method, path(c), c, body))}`)
    }
    expect(got).toEqual(want)
  })

  it('has a row for every lending route the API documents', async () => {
    const t = await testApp()
    expect(new Set(table.map(([m, r]) => `${m} ${r}`))).toEqual(await documentedRoutes(t, '/lending', '/loans'))
  })
})
