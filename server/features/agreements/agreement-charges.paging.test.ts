import { asc, eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { chargeEvents, charges } from '../../db/schema/agreements'
import { demo, testApp, type TestApp } from '../../test/harness'
import { allPages, cursorOf, foreignCursors, statementsPerPage } from '../../test/paging'
import { companyIds } from '../companies/test-helpers'
import { insertAgreements } from './bulk-test-data'
import { createAgreement } from './test-helpers'
import { transaction } from '../../db/client'

const DA = { 'Accept-Language': 'da' }

/**
 * An agreement of the demo company (the first demo resident's) with `n` one-time charges, each
 * with a history event: due dates over a few days and creation times repeating, so only the id
 * tells some apart; and an agreement of the other association.
 */
async function agreementWithCharges(n: number) {
  const t = await testApp()
  const { main, second } = await companyIds(t)
  const a = await createAgreement(t)
  await transaction(t.db, async () => {
    for (let i = 0; i < n; i++) {
      // Ids not in due order, so the id only decides ties.
      const id = `0190d5e6-0009-7000-8000-${String((i * 7919) % 1000003).padStart(12, '0')}`
      const createdAt = `2026-11-2${i % 3}T10:00:00.000Z`
      await t.db
        .insert(charges)
        .values({
          id,
          agreementId: a.id,
          companyId: main,
          kind: 'ONE_TIME',
          type: 'UNSCHEDULED',
          amountOre: 10_000 + i,
          description: `Nøgle ${i}`,
          due: `2026-12-0${1 + (i % 5)}`,
          createdAt,
          updatedAt: createdAt,
        })
        .run()
      await t.db
        .insert(chargeEvents)
        .values({ id: `${id.slice(0, -1)}e`, chargeId: id, event: 'CREATE', amountOre: 10_000 + i, occurredAt: createdAt, eventKey: `k-${id}` })
        .run()
    }
  })
  const [other] = await insertAgreements(t.db, second, 1, 11)
  return { t, id: a.id, other: other! }
}

/** The agreement's charge ids in the list's order: due date, creation, id. */
const idsInOrder = async (t: TestApp, agreementId: string) =>
  (
    await t.db
      .select({ id: charges.id })
      .from(charges)
      .where(eq(charges.agreementId, agreementId))
      .orderBy(asc(charges.due), asc(charges.createdAt), asc(charges.id))
      .all()
  ).map((r) => r.id)

describe('GET /api/agreement/{id}/charges pages through a cursor', () => {
  it('pages by due date through the Link header to the last page, which has none; staff and the member alike', async () => {
    const { t, id } = await agreementWithCharges(23)
    const admin = await t.login(demo.admin)
    const pages = await allPages(t, admin, `/agreement/${id}/charges?limit=10`)
    expect(pages.map((p) => p.length)).toEqual([10, 10, 3])
    expect(pages.flat()).toEqual(await idsInOrder(t, id))
    expect((await allPages(t, await t.login(demo.resident), `/agreement/${id}/charges?limit=23`)).map((p) => p.length)).toEqual([23])
    const first = await t.call('GET', `/agreement/${id}/charges?limit=4`, { token: admin })
    expect(first.json[0].history).toHaveLength(1)
    expect(first.headers.get('Link')).toMatch(new RegExp(`^</api/agreement/${id}/charges\\?limit=4&cursor=[A-Za-z0-9_-]+>; rel="next"$`))
    expect((await t.call('GET', `/agreement/${id}/charges`, { token: admin })).headers.get('Link')).toBeNull()
  })

  it('answers at most 200 without a limit; limit 1–200; a cursor not made by us is 400 on `cursor` in the caller’s language', async () => {
    const { t, id } = await agreementWithCharges(201)
    const admin = await t.login(demo.admin)
    expect((await allPages(t, admin, `/agreement/${id}/charges`)).map((p) => p.length)).toEqual([200, 1])
    for (const limit of ['201', '0', 'ten']) {
      const res = await t.call('GET', `/agreement/${id}/charges?limit=${limit}`, { token: admin })
      expect(res.status, limit).toBe(400)
      expect(res.json.issues.map((i: { path: string }) => i.path)).toEqual(['limit'])
    }
    for (const cursor of [...foreignCursors, Buffer.from('["2026-12-01","x",3]').toString('base64url')]) {
      const res = await t.call('GET', `/agreement/${id}/charges?cursor=${cursor}`, { token: admin, headers: DA })
      expect(res.status, cursor).toBe(400)
      expect(res.json).toEqual({
        code: 'VALIDATION_FAILED',
        message: 'Nogle felter er ikke gyldige.',
        issues: [{ path: 'cursor', message: 'Indtast en gyldig værdi' }],
      })
    }
  })

  it("keeps who sees what: another association's agreement is 404 with or without a cursor, as is someone else's", async () => {
    const { t, id, other } = await agreementWithCharges(3)
    const cursor = cursorOf((await t.call('GET', `/agreement/${id}/charges?limit=1`, { token: await t.login(demo.admin) })).headers.get('Link'))
    for (const [who, agreementId] of [
      [demo.otherAdmin, id],
      [demo.admin, other],
      [demo.residentDa, id],
    ] as const) {
      const token = await t.login(who)
      expect((await t.call('GET', `/agreement/${agreementId}/charges?limit=1`, { token })).status, who).toBe(404)
      expect((await t.call('GET', `/agreement/${agreementId}/charges?cursor=${cursor}`, { token })).status, who).toBe(404)
    }
  })

  it('costs the same number of statements for a page of 10 and of 100 (set-based views)', async () => {
    const { t, id } = await agreementWithCharges(120)
    const admin = await t.login(demo.admin)
    const { ten, hundred } = await statementsPerPage(t, admin, (limit) => `/agreement/${id}/charges?limit=${limit}`)
    expect(hundred).toBe(ten)
    expect(hundred).toBeLessThanOrEqual(12)
  })
})
