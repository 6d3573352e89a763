import { and, desc, eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { invoiceLines, invoices } from '../../db/schema/invoices'
import { users } from '../../db/schema/users'
import { demo, testApp, type TestApp } from '../../test/harness'
import { allPages, cursorOf, foreignCursors, statementsPerPage } from '../../test/paging'
import { companyIds } from '../companies/test-helpers'
import { acceptedAgreement } from './test-helpers'
import { transaction } from '../../db/client'

const DA = { 'Accept-Language': 'da' }

/**
 * The demo company's two November invoices (the resident's and a neighbour's), and `extra` copies
 * of the resident's with their lines: issue dates spread over a few days so many share one, the
 * first `ofSecond` of them in the other association (numbers there repeat the demo company's, so
 * only the id tells equal dates and numbers apart).
 */
async function invoicesOf(extra: number, ofSecond = 0) {
  const t = await testApp()
  const { main, second } = await companyIds(t)
  await acceptedAgreement(t)
  await acceptedAgreement(t, { emailAddress: demo.residentDa, memberName: 'Lars Nielsen' })
  t.clock.set('2026-11-28T09:00:00.000Z')
  await t.services.billing.run()
  const resident = (await t.db.select().from(users).where(eq(users.emailAddress, demo.resident)).get())!
  const model = (await t.db.select().from(invoices).where(eq(invoices.memberUserId, resident.id)).get())!
  const lines = await t.db.select().from(invoiceLines).where(eq(invoiceLines.invoiceId, model.id)).all()
  expect(lines.length).toBeGreaterThan(0)
  await transaction(t.db, async () => {
    for (let n = 0; n < extra; n++) {
      // Ids not in issue order, so the id only decides ties.
      const id = `0190d5e6-0000-7000-8000-${String((n * 7919) % 1000003).padStart(12, '0')}`
      const inSecond = n < ofSecond
      await t.db
        .insert(invoices)
        .values({
          ...model,
          id,
          companyId: inSecond ? second : main,
          number: inSecond ? n + 1 : n + 3,
          issueDate: `2026-10-${String(10 + (n % 4)).padStart(2, '0')}`,
        })
        .run()
      await t.db
        .insert(invoiceLines)
        .values(lines.map((l) => ({ ...l, invoiceId: id })))
        .run()
    }
  })
  return { t, main, second, resident }
}

/** Ids in the list's order (newest first: issue date, number, id), of a company or a member. */
const idsInOrder = async (t: TestApp, filter: { companyId?: string; memberUserId?: string }) =>
  (
    await t.db
      .select({ id: invoices.id })
      .from(invoices)
      .where(
        and(
          filter.companyId ? eq(invoices.companyId, filter.companyId) : undefined,
          filter.memberUserId ? eq(invoices.memberUserId, filter.memberUserId) : undefined,
        ),
      )
      .orderBy(desc(invoices.issueDate), desc(invoices.number), desc(invoices.id))
      .all()
  ).map((r) => r.id)

describe('GET /api/invoice pages through a cursor', () => {
  it("pages newest first through the Link header to the last page, which has none; staff get the company's, a resident their own", async () => {
    const { t, main, second, resident } = await invoicesOf(23, 4)
    const admin = await t.login(demo.admin)
    // 2 + 19 copies in the demo company.
    const pages = await allPages(t, admin, `/invoice?companyId=${main}&limit=8`)
    expect(pages.map((p) => p.length)).toEqual([8, 8, 5])
    expect(pages.flat()).toEqual(await idsInOrder(t, { companyId: main }))
    // A last page that is exactly full links to nothing.
    expect((await allPages(t, admin, `/invoice?companyId=${main}&limit=7`)).map((p) => p.length)).toEqual([7, 7, 7])
    expect(await allPages(t, await t.login(demo.otherAdmin), `/invoice?companyId=${second}&limit=4`)).toEqual([await idsInOrder(t, { companyId: second })])

    // Views are whole on every page: articles and all.
    const first = await t.call('GET', `/invoice?companyId=${main}&limit=2`, { token: admin })
    expect(first.json[0].invoiceArticles.length).toBeGreaterThan(0)
    const link = new URL(/^<([^>]+)>/.exec(first.headers.get('Link')!)![1]!, 'http://x')
    expect(link.pathname).toBe('/api/invoice')
    expect([...link.searchParams.keys()].sort()).toEqual(['companyId', 'cursor', 'limit'])

    // The resident's own (the copies are theirs too), in both associations; the same with companyId.
    const own = await idsInOrder(t, { memberUserId: resident.id })
    expect((await allPages(t, await t.login(demo.resident), '/invoice?limit=5')).flat()).toEqual(own)
    expect((await allPages(t, await t.login(demo.resident), `/invoice?companyId=${main}&limit=5`)).flat()).toEqual(
      await idsInOrder(t, { memberUserId: resident.id, companyId: main }),
    )
    // The status filter stays in the link.
    const created = (await allPages(t, admin, `/invoice?companyId=${main}&status=CREATED&limit=4`)).flat()
    expect(created).toEqual(await idsInOrder(t, { companyId: main }))
    expect(await allPages(t, admin, `/invoice?companyId=${main}&status=EXECUTED&limit=4`)).toEqual([[]])
  })

  it('answers at most 200 without a limit; limit 1–200; a cursor not made by us is 400 on `cursor` in the caller’s language', async () => {
    const { t, main } = await invoicesOf(199)
    const admin = await t.login(demo.admin)
    expect((await allPages(t, admin, `/invoice?companyId=${main}`)).map((p) => p.length)).toEqual([200, 1])
    for (const limit of ['201', '0', 'ten']) {
      const res = await t.call('GET', `/invoice?companyId=${main}&limit=${limit}`, { token: admin })
      expect(res.status, limit).toBe(400)
      expect(res.json.issues.map((i: { path: string }) => i.path)).toEqual(['limit'])
    }
    for (const cursor of foreignCursors) {
      const res = await t.call('GET', `/invoice?companyId=${main}&cursor=${cursor}`, { token: admin, headers: DA })
      expect(res.status, cursor).toBe(400)
      expect(res.json).toEqual({
        code: 'VALIDATION_FAILED',
        message: 'Nogle felter er ikke gyldige.',
        issues: [{ path: 'cursor', message: 'Indtast en gyldig værdi' }],
      })
    }
  })

  it("keeps who sees what: another association's company is 404 with or without a cursor; a cursor never widens the list", async () => {
    const { t, main, second, resident } = await invoicesOf(6, 2)
    const admin = await t.login(demo.admin)
    const cursor = cursorOf((await t.call('GET', `/invoice?companyId=${main}&limit=1`, { token: admin })).headers.get('Link'))
    const other = await t.login(demo.otherAdmin)
    expect((await t.call('GET', `/invoice?companyId=${main}&limit=1`, { token: other })).status).toBe(404)
    expect((await t.call('GET', `/invoice?companyId=${main}&cursor=${cursor}`, { token: other })).status).toBe(404)
    expect((await t.call('GET', `/invoice?companyId=${second}&limit=1`, { token: admin })).status).toBe(404)
    // The staff's cursor, used by the resident: only where to start, still only their own.
    const ofCompany = await idsInOrder(t, { companyId: main })
    const own = await idsInOrder(t, { memberUserId: resident.id })
    const after = (await t.call('GET', `/invoice?cursor=${cursor}`, { token: await t.login(demo.resident) })).json.map((i: { id: string }) => i.id)
    expect(after).toEqual(own.filter((id) => !ofCompany.includes(id) || ofCompany.indexOf(id) > 0))
  })

  it('costs the same number of statements for a page of 10 and of 100 (set-based views)', async () => {
    const { t, main } = await invoicesOf(120)
    const admin = await t.login(demo.admin)
    const { ten, hundred } = await statementsPerPage(t, admin, (limit) => `/invoice?companyId=${main}&limit=${limit}`)
    expect(hundred).toBe(ten)
    expect(hundred).toBeLessThanOrEqual(12)
  })
})
