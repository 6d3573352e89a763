import { describe, expect, it } from 'vitest'
import { v7 } from 'uuid'
import { demo, testApp, type TestApp } from '../../test/harness'
import { callers, classOf, tokenFor, documentedRoutes } from '../../test/authorization'
import { documentFixtures, pdfBytes } from '../documents/test-helpers'
import { attachFile, createArticle } from './test-helpers'

/**
 * Who may call which knowledge-bank route (docs/PRODUCT.md "Knowledge bank"): one row
 * per route, one column per caller (server/test/authorization.ts). `o` allowed, `3` 403, `4` 404
 * (another association's article is never revealed), `1` 401. `article` is Solgården's (written by
 * its administrator), `platform` the super admin's for everyone. Every articles route the app
 * serves has a row (checked below).
 */
type Ctx = { main: string; second: string; article: string; platform: string; attachment: string }
type Row = [method: string, route: string, path: (c: Ctx) => string, expected: string, send?: 'create' | 'createPlatform' | 'patch' | 'attach']

//                                                                                                     S C A K B R N O -
const table: Row[] = [
  ['GET', '/articles', () => '/articles', 'oooooooo1'],
  ['GET', '/articles', () => '/articles?q=storskrald', 'oooooooo1'],
  ['GET', '/articles', (c) => `/articles?companyId=${c.main}&q=vaskeri`, 'ooooooo41'],
  ['GET', '/articles', (c) => `/articles?companyId=${c.second}`, 'o444444o1'],
  ['POST', '/articles', () => '/articles', 'ooooo3341', 'create'],
  ['POST', '/articles', () => '/articles', 'o33333331', 'createPlatform'],
  ['GET', '/articles/{id}', (c) => `/articles/${c.article}`, 'ooooooo41'],
  ['GET', '/articles/{id}', (c) => `/articles/${c.platform}`, 'oooooooo1'],
  ['PATCH', '/articles/{id}', (c) => `/articles/${c.article}`, 'ooooo3341', 'patch'],
  ['PATCH', '/articles/{id}', (c) => `/articles/${c.platform}`, 'o33333331', 'patch'],
  ['POST', '/articles/{id}/attachments', (c) => `/articles/${c.article}`, 'ooooo3341', 'attach'],
  ['POST', '/articles/{id}/attachments', (c) => `/articles/${c.platform}`, 'o33333331', 'attach'],
  ['GET', '/articles/{id}/attachments/{attachmentId}', (c) => `/articles/${c.article}/attachments/${c.attachment}`, 'ooooooo41'],
  ['DELETE', '/articles/{id}/attachments/{attachmentId}', (c) => `/articles/${c.article}/attachments/${c.attachment}`, 'ooooo3341'],
  ['DELETE', '/articles/{id}', (c) => `/articles/${c.article}`, 'ooooo3341'],
  ['DELETE', '/articles/{id}', (c) => `/articles/${c.platform}`, 'o33333331'],
]

async function send(t: TestApp, token: string | undefined, method: string, path: string, c: Ctx, body?: Row[4]): Promise<number> {
  if (body === 'attach') return (await attachFile(t, token, path.split('/')[2]!, { name: 'Regler.pdf', bytes: pdfBytes() })).status
  if (body === 'create') return (await createArticle(t, token, { companyId: c.main, language: 'da', title: 'Cykelkælderen', body: '<p>Ryd op</p>' })).status
  if (body === 'createPlatform') return (await createArticle(t, token, { companyId: null, language: 'en', title: 'Platform', body: '<p>All</p>' })).status
  const json = body === 'patch' ? { title: 'Ny titel' } : undefined
  return (await t.call(method, path, { token, body: json, headers: { 'Idempotency-Key': v7() } })).status
}

describe('authorization matrix (knowledge bank)', () => {
  it.each(callers.map((caller) => [caller] as const))('%s', async (caller) => {
    const t = await testApp()
    const f = await documentFixtures(t)
    const superadmin = await t.login(demo.superadmin)
    const token = await tokenFor(t, caller)
    const want: string[] = []
    const got: string[] = []
    for (const [method, , path, expected, body] of table) {
      const article = await createArticle(t, f.admin, { companyId: f.main, language: 'da', title: 'Vaskeriet', body: '<p>Storskrald</p>' })
      expect(article.status, JSON.stringify(article.json)).toBe(201)
      const platform = await createArticle(t, superadmin, { language: 'en', title: 'Vipps', body: '<p>Agreements</p>' })
      const attached = await attachFile(t, f.admin, article.json.id, { name: 'Regler.pdf', bytes: pdfBytes() })
      const c: Ctx = { main: f.main, second: f.second, article: article.json.id, platform: platform.json.id, attachment: attached.json.attachments[0].id }
      want.push(`${method} ${path(c)} → ${expected[callers.indexOf(caller)]}`)
      got.push(`${method} ${path(c)} → ${classOf(await send(t, token, method, path(c), c, body))}`)
    }
    expect(got).toEqual(want)
  })

  it('has a row for every articles route the API documents', async () => {
    const t = await testApp()
    expect(new Set(table.map(([m, r]) => `${m} ${r}`))).toEqual(await documentedRoutes(t, '/articles'))
  })
})
