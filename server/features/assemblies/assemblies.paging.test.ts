import { desc, eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { transaction } from '../../db/client'
import { generalAssemblies } from '../../db/schema/assemblies'
import { demo, testApp, type TestApp } from '../../test/harness'
import { allPages, cursorOf, foreignCursors, statementsPerPage } from '../../test/paging'
import { assemblyFixtures, createAssembly, NOTICE, tickAt } from './test-helpers'

const DA = { 'Accept-Language': 'da' }

/**
 * One assembly called through the API, and `extra` copies of it: meeting times repeating, so only
 * the id tells some apart; the first `ofSecond` of them in the other association.
 */
async function assemblies(extra: number, ofSecond = 0) {
  const t = await testApp()
  const f = await assemblyFixtures(t)
  const a = await createAssembly(t, f.main)
  const model = (await t.db.select().from(generalAssemblies).where(eq(generalAssemblies.id, a.id)).get())!
  await transaction(t.db, async () => {
    for (let n = 0; n < extra; n++) {
      // Ids not in meeting order, so the id only decides ties.
      const id = `0190d5e6-0009-7000-8000-${String((n * 7919) % 1000003).padStart(12, '0')}`
      const heldAt = `2027-0${(n % 4) + 4}-12T18:00:00.000Z`
      await t.db
        .insert(generalAssemblies)
        .values({ ...model, id, heldAt, companyId: n < ofSecond ? f.second : f.main, title: `Assembly ${n}` })
        .run()
    }
  })
  return { t, ...f }
}

/** Assembly ids in the list's order (latest meeting first: heldAt, id), of a company. */
const idsInOrder = async (t: TestApp, companyId: string) =>
  (
    await t.db
      .select({ id: generalAssemblies.id })
      .from(generalAssemblies)
      .where(eq(generalAssemblies.companyId, companyId))
      .orderBy(desc(generalAssemblies.heldAt), desc(generalAssemblies.id))
      .all()
  ).map((r) => r.id)

describe('GET /api/assemblies pages', () => {
  it('pages latest meeting first through the Link header to the last page, which has none', async () => {
    const { t, main, second } = await assemblies(14, 3)
    const admin = await t.login(demo.admin)
    // 1 + 11 in the demo company.
    const pages = await allPages(t, admin, `/assemblies?companyId=${main}&limit=5`)
    expect(pages.map((p) => p.length)).toEqual([5, 5, 2])
    expect(pages.flat()).toEqual(await idsInOrder(t, main))
    expect((await allPages(t, admin, `/assemblies?companyId=${main}&limit=4`)).map((p) => p.length)).toEqual([4, 4, 4])
    expect((await allPages(t, admin, '/assemblies?limit=7')).flat()).toEqual(await idsInOrder(t, main))
    expect((await allPages(t, await t.login(demo.otherAdmin), '/assemblies?limit=2')).flat()).toEqual(await idsInOrder(t, second))
    const link = new URL(
      /^<([^>]+)>/.exec((await t.call('GET', `/assemblies?companyId=${main}&limit=5`, { token: admin })).headers.get('Link')!)![1]!,
      'http://x',
    )
    expect([...link.searchParams.keys()].sort()).toEqual(['companyId', 'cursor', 'limit'])
  })

  it('answers at most 200 without a limit; a foreign cursor or limit is 400 on its field; a cursor never widens what the caller sees', async () => {
    const { t, main } = await assemblies(200)
    const admin = await t.login(demo.admin)
    expect((await allPages(t, admin, '/assemblies')).map((p) => p.length)).toEqual([200, 1])
    for (const limit of ['201', '0', 'ten']) {
      const res = await t.call('GET', `/assemblies?limit=${limit}`, { token: admin })
      expect(res.status, limit).toBe(400)
      expect(res.json.issues.map((i: { path: string }) => i.path)).toEqual(['limit'])
    }
    for (const cursor of foreignCursors) {
      const res = await t.call('GET', `/assemblies?cursor=${cursor}`, { token: admin, headers: DA })
      expect(res.status, cursor).toBe(400)
      expect(res.json.issues).toEqual([{ path: 'cursor', message: 'Indtast en gyldig værdi' }])
    }
    const cursor = cursorOf((await t.call('GET', `/assemblies?companyId=${main}&limit=1`, { token: admin })).headers.get('Link'))
    const other = await t.login(demo.otherAdmin)
    expect((await t.call('GET', `/assemblies?companyId=${main}&cursor=${cursor}`, { token: other })).status).toBe(404)
    expect((await t.call('GET', `/assemblies?cursor=${cursor}`, { token: other })).json).toEqual([])
    // A resident sees them only once the notice went out (only the first has a notice).
    const resident = await t.login(demo.residentDa)
    expect(await allPages(t, resident, '/assemblies?limit=50')).toEqual([[]])
    await tickAt(t, new Date(new Date(NOTICE).getTime() + 1000).toISOString())
    expect((await allPages(t, await t.login(demo.residentDa), '/assemblies?limit=50')).flat()).toHaveLength(1)
  })

  it('costs the same number of statements for a page of 10 and of 100 (set-based views)', async () => {
    const { t, main } = await assemblies(120)
    const admin = await t.login(demo.admin)
    const { ten, hundred } = await statementsPerPage(t, admin, (limit) => `/assemblies?companyId=${main}&limit=${limit}`)
    expect(hundred).toBe(ten)
    expect(hundred).toBeLessThanOrEqual(12)
  })
})
