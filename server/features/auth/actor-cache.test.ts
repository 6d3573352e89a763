import { describe, expect, it } from 'vitest'
import { eq } from 'drizzle-orm'
import { demo, testApp, type TestApp } from '../../test/harness'
import { sessions, users } from '../../db/schema/users'
import { companyMembers } from '../../db/schema/companies'
import { sha256 } from '../../lib/ids'
import { companyIds } from '../companies/test-helpers'
import { ACTOR_TTL_MS } from '../users/actor-cache'

/**
 * The actor is reused per token for a few seconds, and every change of what it holds
 * counts from the very next request. Each change goes through the API, as a user makes it; a hand
 * edit of the database shows what the cache alone would keep.
 */
const userId = async (t: TestApp, email: string) => (await t.db.select().from(users).where(eq(users.emailAddress, email)).get())!.id
const status = async (t: TestApp, method: string, path: string, token: string, body?: unknown) => (await t.call(method, path, { token, body })).status
const members = async (t: TestApp, companyId: string, token: string) =>
  (await t.call('GET', `/company/${companyId}/members`, { token })).json as { id: string; email: string; role: string; version: number }[]

describe('the actor cache', () => {
  it('reuses the actor for a few seconds: a hand edit of the database shows only after the TTL', async () => {
    const t = await testApp()
    const { main } = await companyIds(t)
    const admin = await t.login(demo.admin)
    expect(await status(t, 'GET', `/company/${main}`, admin)).toBe(200)
    // Nothing that invalidates runs for a hand edit: the cached membership still counts ...
    await t.db
      .delete(companyMembers)
      .where(eq(companyMembers.userId, await userId(t, demo.admin)))
      .run()
    expect(await status(t, 'GET', `/company/${main}`, admin)).toBe(200)
    t.clock.advance(ACTOR_TTL_MS - 1)
    expect(await status(t, 'GET', `/company/${main}`, admin)).toBe(200)
    // ... until the TTL has passed.
    t.clock.advance(1)
    expect(await status(t, 'GET', `/company/${main}`, admin)).toBe(404)
  })

  it('never outlives the session: a session that expires within the TTL ends exactly at its expiry', async () => {
    const t = await testApp()
    const admin = await t.login(demo.admin)
    const expiresAt = new Date(t.clock.now().getTime() + 2_000).toISOString()
    await t.db
      .update(sessions)
      .set({ expiresAt })
      .where(eq(sessions.tokenHash, sha256(admin)))
      .run()
    expect(await status(t, 'GET', '/account/info', admin)).toBe(200)
    t.clock.advance(1_999)
    expect(await status(t, 'GET', '/account/info', admin)).toBe(200)
    t.clock.advance(1)
    expect(await status(t, 'GET', '/account/info', admin)).toBe(401)
  })

  it('a sign-out counts on the next request', async () => {
    const t = await testApp()
    const admin = await t.login(demo.admin)
    const other = await t.login(demo.admin)
    expect(await status(t, 'GET', '/account/info', admin)).toBe(200)
    expect(await status(t, 'GET', '/account/info', other)).toBe(200)
    expect(await status(t, 'POST', '/auth/logout', admin)).toBe(204)
    expect(await status(t, 'GET', '/account/info', admin)).toBe(401)
    // The user's other device stays signed in.
    expect(await status(t, 'GET', '/account/info', other)).toBe(200)
  })

  it('a password reset ends every session on the next request, cached or not', async () => {
    const t = await testApp()
    const phone = await t.login(demo.admin)
    const laptop = await t.login(demo.admin)
    expect(await status(t, 'GET', '/account/info', phone)).toBe(200)
    expect(await status(t, 'GET', '/account/info', laptop)).toBe(200)
    await t.call('POST', '/auth/forgot-password', { body: { email: demo.admin } })
    const mail = (await t.mails()).filter((m) => m.to === demo.admin).at(-1)!
    const token = decodeURIComponent(/reset-password\?token=([\w%-]+)/.exec(mail.text)![1]!)
    expect((await t.call('POST', '/auth/reset-password', { body: { token, newPassword: 'Helt-ny-kode-42' } })).status).toBe(200)
    expect(await status(t, 'GET', '/account/info', phone)).toBe(401)
    expect(await status(t, 'GET', '/account/info', laptop)).toBe(401)
  })

  it("a member's role counts on the next request, up and down", async () => {
    const t = await testApp()
    const { main } = await companyIds(t)
    const chairman = await t.login(demo.chairman)
    const board = await t.login(demo.boardmember)
    const rename = (token: string, value: string) => status(t, 'PATCH', `/company/${main}/field/acronym`, token, { value })
    expect(await rename(board, 'SOL1')).toBe(403)
    const member = (await members(t, main, chairman)).find((m) => m.email === demo.boardmember)!
    expect(await status(t, 'PATCH', `/company/${main}/member/${member.id}`, chairman, { role: 'ADMINISTRATOR' })).toBe(200)
    expect(await rename(board, 'SOL2')).toBe(200)
    expect(await status(t, 'PATCH', `/company/${main}/member/${member.id}`, chairman, { role: 'BOARDMEMBER' })).toBe(200)
    expect(await rename(board, 'SOL3')).toBe(403)
  })

  it('a removed member loses the company on the next request; an added one gains it', async () => {
    const t = await testApp()
    const { main } = await companyIds(t)
    const chairman = await t.login(demo.chairman)
    const accountant = await t.login(demo.accountant)
    expect(await status(t, 'GET', `/company/${main}/members`, accountant)).toBe(200)
    const member = (await members(t, main, chairman)).find((m) => m.email === demo.accountant)!
    expect(await status(t, 'DELETE', `/company/${main}/member/${member.id}`, chairman)).toBe(204)
    expect(await status(t, 'GET', `/company/${main}/members`, accountant)).toBe(404)
    const again = { user: { name: 'Kasserer', email: demo.accountant }, role: 'ACCOUNTANT' }
    expect(await status(t, 'POST', `/company/${main}/member`, chairman, again)).toBe(201)
    expect(await status(t, 'GET', `/company/${main}/members`, accountant)).toBe(200)
  })

  it("a user's own profile change (language) counts on the next request", async () => {
    const t = await testApp()
    const admin = await t.login(demo.admin)
    const missing = async () => (await t.call('GET', '/company/00000000-0000-4000-8000-000000000000', { token: admin })).json.message
    expect(await missing()).toBe('Not found.')
    const version = (await t.call('GET', '/account/info', { token: admin })).json.version
    const res = await t.call('PATCH', '/account/profile/language', { token: admin, body: { value: 'DA' }, headers: { 'If-Match': `"${version}"` } })
    expect(res.status).toBe(200)
    expect(await missing()).not.toBe('Not found.')
  })

  it("a suspended company refuses its staff's next write; a deleted one leaves their actor on the next request", async () => {
    const t = await testApp()
    const { second } = await companyIds(t)
    const sa = await t.login(demo.superadmin)
    const other = await t.login(demo.otherAdmin)
    const rename = (value: string) => status(t, 'PATCH', `/company/${second}/field/acronym`, other, { value })
    expect(await rename('HH1')).toBe(200)
    expect(await status(t, 'POST', `/company/${second}/suspend`, sa)).toBe(200)
    expect(await rename('HH2')).toBe(409)
    // The user search is for staff of some company: the other association's administrator has only this one.
    expect(await status(t, 'GET', '/account/users?email=admin@', other)).toBe(200)
    expect(await status(t, 'POST', `/company/${second}/deactivate`, sa)).toBe(200)
    expect(await status(t, 'POST', `/company/${second}/delete`, sa)).toBe(200)
    expect(await status(t, 'GET', '/account/users?email=admin@', other)).toBe(403)
  })

  it("a company's new name is in its staff's actor on the next request", async () => {
    const t = await testApp()
    const { main } = await companyIds(t)
    const chairman = await t.login(demo.chairman)
    const admin = await t.login(demo.admin)
    expect(await status(t, 'GET', '/account/info', admin)).toBe(200)
    expect(await status(t, 'PATCH', `/company/${main}/field/name`, chairman, { value: 'Solgården Nord' })).toBe(200)
    // What the next request of the administrator gets as its actor.
    expect((await t.services.auth.authenticate(admin))!.companies.find((c) => c.id === main)!.name).toBe('Solgården Nord')
  })
})
