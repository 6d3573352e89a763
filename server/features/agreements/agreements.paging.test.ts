import { onPostgres } from '../../test/template-db'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { asc, eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { openDatabase } from '../../db/client'
import { agreements } from '../../db/schema/agreements'
import { users } from '../../db/schema/users'
import { demo, testApp, type TestApp } from '../../test/harness'
import { allPages, statementsPerPage } from '../../test/paging'
import { companyIds } from '../companies/test-helpers'
import { insertAgreements } from './bulk-test-data'
import { createAgreement } from './test-helpers'

/** The items `keep` says yes to, in order. */
async function filterAsync<T>(items: T[], keep: (item: T) => Promise<boolean>): Promise<T[]> {
  const kept = await Promise.all(items.map(keep))
  return items.filter((_, i) => kept[i])
}

const DA = { 'Accept-Language': 'da' }

/** Ids of a company's agreements (or all) in the list's order: company, external id. */
const idsInOrder = async (t: TestApp, companyId?: string) =>
  (
    await t.db
      .select({ id: agreements.id })
      .from(agreements)
      .where(companyId ? eq(agreements.companyId, companyId) : undefined)
      .orderBy(asc(agreements.companyId), asc(agreements.externalSeq))
      .all()
  ).map((r) => r.id)

describe('GET /api/agreement pages through a cursor', () => {
  it('pages by company and external id through the Link header; the last page has none; filters stay in the link', async () => {
    const t = await testApp()
    const { main, second } = await companyIds(t)
    await insertAgreements(t.db, main, 25, 1)
    await insertAgreements(t.db, second, 5, 2)
    const superadmin = await t.login(demo.superadmin)

    const pages = await allPages(t, superadmin, '/agreement?limit=10')
    expect(pages.map((p) => p.length)).toEqual([10, 10, 10])
    expect(pages.flat()).toEqual(await idsInOrder(t))

    const ofMain = await allPages(t, superadmin, `/agreement?companyId=${main}&limit=10`)
    expect(ofMain.map((p) => p.length)).toEqual([10, 10, 5])
    expect(ofMain.flat()).toEqual(await idsInOrder(t, main))
    // A last page that is exactly full links to nothing.
    expect(await allPages(t, superadmin, `/agreement?companyId=${second}&limit=5`)).toEqual([await idsInOrder(t, second)])

    const first = await t.call('GET', `/agreement?companyId=${main}&status=ACCEPTED&limit=2`, { token: superadmin })
    const link = new URL(/^<([^>]+)>/.exec(first.headers.get('Link')!)![1]!, 'http://x')
    expect(link.pathname).toBe('/api/agreement')
    expect([...link.searchParams.keys()].sort()).toEqual(['companyId', 'cursor', 'limit', 'status'])
    const accepted = (await allPages(t, superadmin, `/agreement?companyId=${main}&status=ACCEPTED&limit=2`)).flat()
    expect(accepted).toEqual(
      await filterAsync(
        await idsInOrder(t, main),
        async (id) => (await t.db.select().from(agreements).where(eq(agreements.id, id)).get())!.status === 'ACCEPTED',
      ),
    )
    expect(accepted.length).toBeGreaterThan(2)
  })

  it("answers at most 200 without a limit; limit 1–200; a cursor not made by us is 400 on `cursor` in the caller's language", async () => {
    const t = await testApp()
    const { main } = await companyIds(t)
    await insertAgreements(t.db, main, 201, 3)
    const admin = await t.login(demo.admin)
    const all = await t.call('GET', '/agreement', { token: admin })
    expect(all.json).toHaveLength(200)
    expect(all.headers.get('Link')).toMatch(/cursor=/)
    expect((await allPages(t, admin, '/agreement')).map((p) => p.length)).toEqual([200, 1])

    for (const limit of ['201', '0', '-1', 'ten']) {
      const res = await t.call('GET', `/agreement?limit=${limit}`, { token: admin })
      expect(res.status, limit).toBe(400)
      expect(res.json.code).toBe('VALIDATION_FAILED')
      expect(res.json.issues.map((i: { path: string }) => i.path)).toEqual(['limit'])
    }
    for (const cursor of ['nope', 'bm90LW91cnM', Buffer.from('["a",1]').toString('base64url'), Buffer.from('[1,2,3]').toString('base64url')]) {
      const res = await t.call('GET', `/agreement?cursor=${cursor}`, { token: admin, headers: DA })
      expect(res.status, cursor).toBe(400)
      expect(res.json).toEqual({
        code: 'VALIDATION_FAILED',
        message: 'Nogle felter er ikke gyldige.',
        issues: [{ path: 'cursor', message: 'Indtast en gyldig værdi' }],
      })
    }
    expect((await t.call('GET', '/agreement?cursor=nope', { token: admin })).json.issues).toEqual([{ path: 'cursor', message: 'Please enter a valid value' }])
  })

  it("keeps who sees what: a resident pages through only their own; staff only their companies'", async () => {
    const t = await testApp()
    const { main, second } = await companyIds(t)
    const own = [(await createAgreement(t)).id, (await createAgreement(t)).id, (await createAgreement(t)).id]
    await insertAgreements(t.db, main, 4, 4)
    await insertAgreements(t.db, second, 3, 5)
    expect((await allPages(t, await t.login(demo.resident), '/agreement?limit=2')).flat()).toEqual(own)
    expect((await allPages(t, await t.login(demo.boardmember), '/agreement?limit=3')).flat()).toEqual(await idsInOrder(t, main))
    expect((await allPages(t, await t.login(demo.otherAdmin), '/agreement?limit=2')).flat()).toEqual(await idsInOrder(t, second))
    // A cursor from another list only says where to start: the caller still sees only their own.
    const staffLink = (await t.call('GET', `/agreement?limit=1`, { token: await t.login(demo.admin) })).headers.get('Link')!
    const cursor = new URL(/^<([^>]+)>/.exec(staffLink)![1]!, 'http://x').searchParams.get('cursor')!
    expect((await t.call('GET', `/agreement?cursor=${cursor}`, { token: await t.login(demo.resident) })).json.map((a: { id: string }) => a.id)).toEqual(
      own.slice(1),
    )
  })

  it("searches the member's name and e-mail (case-insensitive, æøå too) and the start of the external id", async () => {
    const t = await testApp()
    const { main } = await companyIds(t)
    const ids = await insertAgreements(t.db, main, 30, 6)
    const target = (await t.db.select().from(agreements).where(eq(agreements.id, ids[17]!)).get())!
    const member = (await t.db.select().from(users).where(eq(users.id, target.memberUserId)).get())!
    const admin = await t.login(demo.admin)
    const search = async (q: string) =>
      (await t.call('GET', `/agreement?search=${encodeURIComponent(q)}`, { token: admin })).json.map((a: { id: string }) => a.id) as string[]
    const ofMember = await filterAsync(
      await idsInOrder(t, main),
      async (id) => (await t.db.select().from(agreements).where(eq(agreements.id, id)).get())!.memberUserId === member.id,
    )
    expect(await search(member.emailAddress.toUpperCase())).toEqual(ofMember)
    expect(await search(member.fullName.split(' ').at(-1)!)).toEqual(ofMember)
    expect(await search(String(target.externalSeq))).toEqual([target.id])
    // Case-insensitive beyond a–z too.
    const named = async (part: string) =>
      await filterAsync(await idsInOrder(t, main), async (id) => {
        const row = (await t.db.select().from(agreements).where(eq(agreements.id, id)).get())!
        return (await t.db.select().from(users).where(eq(users.id, row.memberUserId)).get())!.fullName.toLowerCase().includes(part)
      })
    expect((await named('ærø')).length).toBeGreaterThan(0)
    expect(await search('ærø')).toEqual(await named('ærø'))
    expect(await search('SØREN')).toEqual(await named('søren'))
    expect(await search('%')).toEqual([])
    expect(await search('no such member')).toEqual([])
  })

  it('costs the same number of statements for a page of 10 and of 100 (set-based views)', async () => {
    const t = await testApp()
    const { main } = await companyIds(t)
    await insertAgreements(t.db, main, 120, 9)
    // Every view then needs every kind of read (the collection problem is read for ACCEPTED ones only).
    await t.db.update(agreements).set({ status: 'ACCEPTED' }).run()
    const admin = await t.login(demo.admin)
    const { ten, hundred } = await statementsPerPage(t, admin, (limit) => `/agreement?companyId=${main}&limit=${limit}`)
    expect(hundred).toBe(ten)
    // The page, then the views' members, addresses, parts, overdue and companies/providers (and
    // whatever authentication reads): per-row views ran about seven statements per agreement.
    expect(hundred).toBeGreaterThanOrEqual(6)
    expect(hundred).toBeLessThanOrEqual(15)
  })

  it.skipIf(onPostgres)('pages on a file database, where a GET reads on its own read-only connection (decision 0049)', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'bk-agreement-pages-'))
    let file: ReturnType<typeof openDatabase> | undefined
    try {
      const app = await testApp({}, ({ database }) => {
        const path = join(folder, 'boligkasse.db')
        writeFileSync(path, database.sqlite!.serialize())
        file = openDatabase(path)
        return { database: file }
      })
      // The harness's own handle is the in-memory copy the file was made from: use the file's.
      const t = { ...app, db: file!.db, database: file! }
      const { main } = await companyIds(t)
      await insertAgreements(t.db, main, 12, 10)
      const admin = await t.login(demo.admin)
      const reader = file!.reader!
      const prepare = reader.prepare.bind(reader)
      const preparedOnReader: string[] = []
      reader.prepare = ((source: string) => (preparedOnReader.push(source), prepare(source))) as typeof reader.prepare
      expect((await allPages(t, admin, `/agreement?companyId=${main}&limit=5`)).flat()).toEqual(await idsInOrder(t, main))
      expect(preparedOnReader.filter((source) => /FROM agreements a|json_each/.test(source)).length).toBeGreaterThanOrEqual(5)
      // A write after the reads prepared their statements is seen by the next page read.
      const created = await createAgreement(t, {}, admin)
      expect((await allPages(t, admin, `/agreement?companyId=${main}&limit=5`)).flat().at(-1)).toBe(created.id)
    } finally {
      await file?.close()
      rmSync(folder, { recursive: true, force: true })
    }
  })
})
