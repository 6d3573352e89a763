import { and, asc, eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { companyMembers } from '../../db/schema/companies'
import { users } from '../../db/schema/users'
import { demo, testApp, type TestApp } from '../../test/harness'
import { allPages, cursorOf, foreignCursors, statementsPerPage } from '../../test/paging'
import { companyIds } from './test-helpers'
import { transaction } from '../../db/client'

const DA = { 'Accept-Language': 'da' }

/**
 * The demo company's staff plus `extra` board members (copies of the demo board member's user
 * and membership): names repeating, so only the membership id tells some apart.
 */
async function staffOf(extra: number) {
  const t = await testApp()
  const { main, second } = await companyIds(t)
  const board = (await t.db.select().from(users).where(eq(users.emailAddress, demo.boardmember)).get())!
  const membership = (await t.db
    .select()
    .from(companyMembers)
    .where(and(eq(companyMembers.companyId, main), eq(companyMembers.userId, board.id)))
    .get())!
  await transaction(t.db, async () => {
    for (let n = 0; n < extra; n++) {
      // Ids not in name order, so the id only decides ties.
      const suffix = String((n * 7919) % 1000003).padStart(12, '0')
      const userId = `0190d5e6-0007-7000-8000-${suffix}`
      await t.db
        .insert(users)
        .values({ ...board, id: userId, emailAddress: `board${n}@example.dk`, fullName: `Bestyrelse ${String.fromCharCode(65 + (n % 6))}`, mobileNumber: null })
        .run()
      await t.db
        .insert(companyMembers)
        .values({ ...membership, id: `0190d5e6-0017-7000-8000-${suffix}`, userId })
        .run()
    }
  })
  return { t, main, second }
}

/** Membership ids of a company in the list's order: name, membership id. */
const idsInOrder = async (t: TestApp, companyId: string) =>
  (
    await t.db
      .select({ id: companyMembers.id })
      .from(companyMembers)
      .innerJoin(users, eq(users.id, companyMembers.userId))
      .where(eq(companyMembers.companyId, companyId))
      .orderBy(asc(users.fullName), asc(companyMembers.id))
      .all()
  ).map((r) => r.id)

describe('GET /api/company/{id}/members pages through a cursor', () => {
  it('pages by name through the Link header to the last page, which has none', async () => {
    const { t, main } = await staffOf(25)
    const all = await idsInOrder(t, main)
    const admin = await t.login(demo.admin)
    const pages = await allPages(t, admin, `/company/${main}/members?limit=10`)
    expect(pages.map((p) => p.length)).toEqual([10, 10, all.length - 20])
    expect(pages.flat()).toEqual(all)
    expect((await allPages(t, await t.login(demo.boardmember), `/company/${main}/members?limit=${all.length}`)).map((p) => p.length)).toEqual([all.length])
    const first = await t.call('GET', `/company/${main}/members?limit=3`, { token: admin })
    expect(first.headers.get('Link')).toMatch(new RegExp(`^</api/company/${main}/members\\?limit=3&cursor=[A-Za-z0-9_-]+>; rel="next"$`))
    expect((await t.call('GET', `/company/${main}/members`, { token: admin })).headers.get('Link')).toBeNull()
  })

  it('answers at most 200 without a limit; limit 1–200; a cursor not made by us is 400 on `cursor` in the caller’s language', async () => {
    const { t, main } = await staffOf(200)
    const admin = await t.login(demo.admin)
    const count = (await idsInOrder(t, main)).length
    expect((await allPages(t, admin, `/company/${main}/members`)).map((p) => p.length)).toEqual([200, count - 200])
    for (const limit of ['201', '0', 'ten']) {
      const res = await t.call('GET', `/company/${main}/members?limit=${limit}`, { token: admin })
      expect(res.status, limit).toBe(400)
      expect(res.json.issues.map((i: { path: string }) => i.path)).toEqual(['limit'])
    }
    for (const cursor of [...foreignCursors, Buffer.from('["a","b","c"]').toString('base64url')]) {
      const res = await t.call('GET', `/company/${main}/members?cursor=${cursor}`, { token: admin, headers: DA })
      expect(res.status, cursor).toBe(400)
      expect(res.json).toEqual({
        code: 'VALIDATION_FAILED',
        message: 'Nogle felter er ikke gyldige.',
        issues: [{ path: 'cursor', message: 'Indtast en gyldig værdi' }],
      })
    }
  })

  it("keeps who sees what: another association's company is 404 with or without a cursor", async () => {
    const { t, main, second } = await staffOf(3)
    const cursor = cursorOf((await t.call('GET', `/company/${main}/members?limit=1`, { token: await t.login(demo.admin) })).headers.get('Link'))
    const other = await t.login(demo.otherAdmin)
    expect((await t.call('GET', `/company/${main}/members?limit=1`, { token: other })).status).toBe(404)
    expect((await t.call('GET', `/company/${main}/members?cursor=${cursor}`, { token: other })).status).toBe(404)
    expect((await t.call('GET', `/company/${second}/members?cursor=${cursor}`, { token: await t.login(demo.admin) })).status).toBe(404)
    // The demo company's cursor in the other association's list: only where to start.
    const [name, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString()) as [string, string]
    const after = (
      await t.db
        .select({ id: companyMembers.id, name: users.fullName })
        .from(companyMembers)
        .innerJoin(users, eq(users.id, companyMembers.userId))
        .where(eq(companyMembers.companyId, second))
        .orderBy(asc(users.fullName), asc(companyMembers.id))
        .all()
    ).filter((m) => m.name > name || (m.name === name && m.id > id))
    expect(after.length).toBeGreaterThan(0)
    expect((await allPages(t, other, `/company/${second}/members?cursor=${cursor}`)).flat()).toEqual(after.map((m) => m.id))
  })

  it('costs the same number of statements for a page of 10 and of 100', async () => {
    const { t, main } = await staffOf(120)
    const admin = await t.login(demo.admin)
    const { ten, hundred } = await statementsPerPage(t, admin, (limit) => `/company/${main}/members?limit=${limit}`)
    expect(hundred).toBe(ten)
    expect(hundred).toBeLessThanOrEqual(8)
  })
})
