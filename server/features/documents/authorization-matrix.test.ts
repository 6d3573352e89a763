import { describe, expect, it } from 'vitest'
import { v7 } from 'uuid'
import { testApp, type TestApp } from '../../test/harness'
import { callers, classOf, tokenFor, documentedRoutes } from '../../test/authorization'
import { documentFixtures, pdfBytes, uploadDocument } from './test-helpers'

/**
 * Who may call which documents route (docs/PRODUCT.md "Documents"): one row per route and
 * audience, one column per caller (server/test/authorization.ts). `o` allowed, `3` 403, `4` 404 (a
 * document the caller may not read, or another association's, is never revealed), `1` 401.
 * Every documents route the app serves has a row (checked below).
 */
type Ctx = { main: string; second: string; doc: Record<'MEMBERS' | 'BOARD' | 'STAFF', string> }
type Row = [method: string, route: string, path: (c: Ctx) => string, expected: string, send?: 'json' | 'file']

//                                                                                             S C A K B R N O -
const table: Row[] = [
  ['GET', '/documents', (c) => `/documents?companyId=${c.main}`, 'ooooooo41'],
  ['GET', '/documents', (c) => `/documents?companyId=${c.second}`, 'o444444o1'],
  ['POST', '/documents', () => '/documents', 'ooooo3341', 'file'],
  ['GET', '/documents/{id}', (c) => `/documents/${c.doc.MEMBERS}`, 'ooooooo41'],
  ['GET', '/documents/{id}', (c) => `/documents/${c.doc.BOARD}`, 'ooooo4441'],
  ['GET', '/documents/{id}', (c) => `/documents/${c.doc.STAFF}`, 'oooo44441'],
  ['GET', '/documents/{id}/file', (c) => `/documents/${c.doc.MEMBERS}/file`, 'ooooooo41'],
  ['GET', '/documents/{id}/file', (c) => `/documents/${c.doc.STAFF}/file`, 'oooo44441'],
  ['GET', '/documents/{id}/history', (c) => `/documents/${c.doc.MEMBERS}/history`, 'ooooo3341'],
  ['PATCH', '/documents/{id}', (c) => `/documents/${c.doc.MEMBERS}`, 'ooooo3341', 'json'],
  ['PATCH', '/documents/{id}', (c) => `/documents/${c.doc.STAFF}`, 'oooo44441', 'json'],
  ['PUT', '/documents/{id}/file', (c) => `/documents/${c.doc.MEMBERS}/file`, 'ooooo3341', 'file'],
  ['PUT', '/documents/{id}/file', (c) => `/documents/${c.doc.BOARD}/file`, 'ooooo4441', 'file'],
  ['DELETE', '/documents/{id}', (c) => `/documents/${c.doc.MEMBERS}`, 'ooooo3341'],
  ['DELETE', '/documents/{id}', (c) => `/documents/${c.doc.STAFF}`, 'oooo44441'],
]

async function send(t: TestApp, token: string | undefined, method: string, path: string, c: Ctx, body?: 'json' | 'file'): Promise<number> {
  if (body !== 'file')
    return (await t.call(method, path, { token, body: body === 'json' ? { title: 'Ny titel' } : undefined, headers: { 'Idempotency-Key': v7() } })).status
  if (method === 'POST') return (await uploadDocument(t, token, { companyId: c.main, title: 'Budget', category: 'BUDGET', audience: 'MEMBERS' })).status
  const form = new FormData()
  form.set('file', new File([pdfBytes('ny') as unknown as ArrayBuffer], 'ny.pdf'))
  return (await t.app.request(`/api${path}`, { method, headers: token ? { Authorization: `Bearer ${token}` } : {}, body: form })).status
}

describe('authorization matrix (documents)', () => {
  it.each(callers.map((caller) => [caller] as const))('%s', async (caller) => {
    const t = await testApp()
    const f = await documentFixtures(t)
    const token = await tokenFor(t, caller)
    const want: string[] = []
    const got: string[] = []
    for (const [method, , path, expected, body] of table) {
      const doc = {} as Ctx['doc']
      for (const audience of ['MEMBERS', 'BOARD', 'STAFF'] as const)
        doc[audience] = (await uploadDocument(t, f.admin, { companyId: f.main, title: audience, category: 'OTHER', audience })).json.id
      const c: Ctx = { main: f.main, second: f.second, doc }
      want.push(`${method} ${path(c)} → ${expected[callers.indexOf(caller)]}`)
      got.push(`${method} ${path(c)} → ${classOf(await send(t, token, method, path(c), c, body))}`)
    }
    expect(got).toEqual(want)
  })

  it('has a row for every documents route the API documents', async () => {
    const t = await testApp()
    expect(new Set(table.map(([m, r]) => `${m} ${r}`))).toEqual(await documentedRoutes(t, '/documents'))
  })
})
