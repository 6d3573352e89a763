import { describe, expect, it } from 'vitest'
import { v7 } from 'uuid'
import { demo, testApp, type TestApp } from '../../test/harness'
import { callers, classOf, tokenFor, documentedRoutes } from '../../test/authorization'
import { documentFixtures } from '../documents/test-helpers'
import { postsOf, replyTo, startThread } from './test-helpers'

/**
 * Who may call which forum route (docs/PRODUCT.md "Forum"): one row per route, one
 * column per caller (server/test/authorization.ts). `o` allowed, `3` 403, `4` 404 (another
 * association's thread is never revealed), `1` 401. The thread and its opening post are the
 * resident's (column R); the neighbour (N) has reported that post. The association's staff (C A K
 * B: the board included) moderate. Every forum route the app serves has a row (checked below).
 */
type Ctx = { main: string; second: string; thread: string; post: string; report: string }
type Send = 'create' | 'reply' | 'edit' | 'lock' | 'hidePost' | 'report'
type Row = [method: string, route: string, path: (c: Ctx) => string, expected: string, send?: Send]

//                                                                                              S C A K B R N O -
const table: Row[] = [
  ['GET', '/forum/threads', (c) => `/forum/threads?companyId=${c.main}`, 'ooooooo41'],
  ['GET', '/forum/threads', (c) => `/forum/threads?companyId=${c.second}`, 'o444444o1'],
  ['POST', '/forum/threads', () => '/forum/threads', '3oooooo41', 'create'],
  ['GET', '/forum/threads/{id}', (c) => `/forum/threads/${c.thread}`, 'ooooooo41'],
  ['GET', '/forum/threads/{id}/posts', (c) => `/forum/threads/${c.thread}/posts`, 'ooooooo41'],
  ['POST', '/forum/threads/{id}/posts', (c) => `/forum/threads/${c.thread}/posts`, '3oooooo41', 'reply'],
  ['PUT', '/forum/threads/{id}/follow', (c) => `/forum/threads/${c.thread}/follow`, '3oooooo41'],
  ['DELETE', '/forum/threads/{id}/follow', (c) => `/forum/threads/${c.thread}/follow`, '3oooooo41'],
  ['POST', '/forum/threads/{id}/moderation', (c) => `/forum/threads/${c.thread}/moderation`, '3oooo3341', 'lock'],
  ['PATCH', '/forum/posts/{id}', (c) => `/forum/posts/${c.post}`, '33333o341', 'edit'],
  ['DELETE', '/forum/posts/{id}', (c) => `/forum/posts/${c.post}`, '33333o341'],
  ['POST', '/forum/posts/{id}/moderation', (c) => `/forum/posts/${c.post}/moderation`, '3oooo3341', 'hidePost'],
  ['POST', '/forum/posts/{id}/report', (c) => `/forum/posts/${c.post}/report`, '3oooooo41', 'report'],
  ['GET', '/forum/reports', (c) => `/forum/reports?companyId=${c.main}`, '3oooo3341'],
  ['GET', '/forum/reports', (c) => `/forum/reports?companyId=${c.second}`, '3444444o1'],
  ['POST', '/forum/reports/{id}/resolve', (c) => `/forum/reports/${c.report}/resolve`, '3oooo3341'],
]

async function send(t: TestApp, token: string | undefined, method: string, path: string, c: Ctx, body?: Send): Promise<number> {
  if (body === 'create') return (await startThread(t, token, { companyId: c.main, title: 'Cykelkælderen', body: 'Hvem har nøglen?' })).status
  if (body === 'reply') return (await replyTo(t, token, c.thread, { body: 'Det har viceværten.' })).status
  const json =
    body === 'edit' ? { body: 'Rettet tekst' }
    : body === 'lock' ? { action: 'LOCK' }
    : body === 'hidePost' ? { action: 'HIDE', reason: 'Personangreb' }
    : body === 'report' ? { reason: 'Upassende' }
    : undefined
  return (await t.call(method, path, { token, body: json, headers: { 'Idempotency-Key': v7() } })).status
}

describe('authorization matrix (forum)', () => {
  it.each(callers.map((caller) => [caller] as const))('%s', async (caller) => {
    const t = await testApp()
    const f = await documentFixtures(t)
    const author = await t.login(demo.resident)
    const neighbour = await t.login(demo.residentDa)
    const board = await t.login(demo.boardmember)
    const token = await tokenFor(t, caller)
    const want: string[] = []
    const got: string[] = []
    for (const [method, , path, expected, body] of table) {
      const created = await startThread(t, author, { companyId: f.main, title: 'Fælles cykeloprydning', body: '<p>Hvornår?</p>' })
      expect(created.status, JSON.stringify(created.json)).toBe(201)
      const post = (await postsOf(t, author, created.json.id))[0]!.id
      expect((await t.call('POST', `/forum/posts/${post}/report`, { token: neighbour, body: { reason: 'Spam' } })).status).toBe(202)
      const reports = await t.call('GET', `/forum/reports?companyId=${f.main}`, { token: board })
      const report = (reports.json as { id: string; postId: string }[]).find((r) => r.postId === post)!.id
      const c: Ctx = { main: f.main, second: f.second, thread: created.json.id, post, report }
      want.push(`${method} ${path(c)} → ${expected[callers.indexOf(caller)]}`)
      got.push(`${method} ${path(c)} → ${classOf(await send(t, token, method, path(c), c, body))}`)
    }
    expect(got).toEqual(want)
  })

  it('has a row for every forum route the API documents', async () => {
    const t = await testApp()
    expect(new Set(table.map(([m, r]) => `${m} ${r}`))).toEqual(await documentedRoutes(t, '/forum'))
  })
})
