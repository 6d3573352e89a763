import { describe, expect, it } from 'vitest'
import { v7 } from 'uuid'
import { testApp, type TestApp } from '../../test/harness'
import { callers, classOf, tokenFor, documentedRoutes } from '../../test/authorization'
import { documentFixtures } from '../documents/test-helpers'
import { createSpecialist, plumber } from './test-helpers'

/**
 * Who may call which specialists route (docs/PRODUCT.md "Specialists"): one row per
 * route, one column per caller (server/test/authorization.ts). `o` allowed, `3` 403, `4` 404
 * (another association's directory is never revealed), `1` 401. Every specialists route the app
 * serves has a row (checked below).
 */
type Ctx = { main: string; second: string; specialist: string }
type Row = [method: string, route: string, path: (c: Ctx) => string, expected: string, send?: 'create' | 'patch']

//                                                                                      S C A K B R N O -
const table: Row[] = [
  ['GET', '/specialists', (c) => `/specialists?companyId=${c.main}`, 'ooooooo41'],
  ['GET', '/specialists', (c) => `/specialists?companyId=${c.second}&kind=LAWYER`, 'o444444o1'],
  ['POST', '/specialists', () => '/specialists', 'ooooo3341', 'create'],
  ['GET', '/specialists/{id}', (c) => `/specialists/${c.specialist}`, 'ooooooo41'],
  ['PATCH', '/specialists/{id}', (c) => `/specialists/${c.specialist}`, 'ooooo3341', 'patch'],
  ['DELETE', '/specialists/{id}', (c) => `/specialists/${c.specialist}`, 'ooooo3341'],
]

async function send(t: TestApp, token: string | undefined, method: string, path: string, c: Ctx, body?: Row[4]): Promise<number> {
  if (body === 'create') return (await createSpecialist(t, token, { companyId: c.main, kind: 'ELECTRICIAN', name: 'El-Ole' })).status
  const json = body === 'patch' ? { notes: 'Ny note' } : undefined
  return (await t.call(method, path, { token, body: json, headers: { 'Idempotency-Key': v7() } })).status
}

describe('authorization matrix (specialists)', () => {
  it.each(callers.map((caller) => [caller] as const))('%s', async (caller) => {
    const t = await testApp()
    const f = await documentFixtures(t)
    const token = await tokenFor(t, caller)
    const want: string[] = []
    const got: string[] = []
    for (const [method, , path, expected, body] of table) {
      const created = await createSpecialist(t, f.admin, { ...plumber, companyId: f.main })
      expect(created.status, JSON.stringify(created.json)).toBe(201)
      const c: Ctx = { main: f.main, second: f.second, specialist: created.json.id }
      want.push(`${method} ${path(c)} → ${expected[callers.indexOf(caller)]}`)
      got.push(`${method} ${path(c)} → ${classOf(await send(t, token, method, path(c), c, body))}`)
    }
    expect(got).toEqual(want)
  })

  it('has a row for every specialists route the API documents', async () => {
    const t = await testApp()
    expect(new Set(table.map(([m, r]) => `${m} ${r}`))).toEqual(await documentedRoutes(t, '/specialists'))
  })
})
