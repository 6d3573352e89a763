import { describe, expect, it } from 'vitest'
import { eq } from 'drizzle-orm'
import { agreements, charges } from '../../db/schema/agreements'
import { demo, testApp, type TestApp } from '../../test/harness'
import { companyIds } from '../companies/test-helpers'
import { insertAgreements } from './bulk-test-data'
import { createAgreement } from './test-helpers'

type Change = { entity: string; id: string; op: string; version?: number; data?: Record<string, any> }

async function pullAll(t: TestApp, token: string, cursor?: string, limit = 500) {
  const changes: Change[] = []
  for (;;) {
    const res = await t.call('GET', `/sync?limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`, { token })
    expect(res.status).toBe(200)
    changes.push(...res.json.changes)
    cursor = res.json.cursor
    if (!res.json.hasMore) return { changes, cursor: cursor! }
  }
}
const of = (changes: Change[], entity: string) => changes.filter((c) => c.entity === entity)

describe('agreements in GET /api/sync', () => {
  it("sends the company's agreements to staff and only their own to a resident, then each change", async () => {
    const t = await testApp()
    const a = await createAgreement(t)
    const b = await createAgreement(t, { emailAddress: demo.residentDa, memberName: 'Lars Pedersen' })
    const board = await t.login(demo.boardmember)
    const resident = await t.login(demo.resident)
    const other = await t.login(demo.otherAdmin)

    const staffFirst = await pullAll(t, board)
    expect(
      of(staffFirst.changes, 'agreement')
        .map((c) => c.id)
        .sort(),
    ).toEqual([a.id, b.id].sort())
    expect(of(staffFirst.changes, 'agreement')[0]).toMatchObject({
      op: 'upsert',
      version: 1,
      data: { status: 'CREATED', parts: expect.any(Array), member: expect.any(Object) },
    })
    const residentFirst = await pullAll(t, resident)
    expect(of(residentFirst.changes, 'agreement').map((c) => c.id)).toEqual([a.id])
    expect(of((await pullAll(t, other)).changes, 'agreement')).toEqual([])

    await t.call('POST', `/agreement/${a.id}/reject`, { token: resident })
    // The board member reads; the accountant edits (decision 0024).
    expect((await t.call('PATCH', `/agreement/${b.id}`, { token: board, body: { paymentPeriod: 'YEARLY' } })).status).toBe(403)
    await t.call('PATCH', `/agreement/${b.id}`, { token: await t.login(demo.accountant), body: { paymentPeriod: 'YEARLY' } })
    const staffNext = await pullAll(t, board, staffFirst.cursor)
    expect(of(staffNext.changes, 'agreement').map((c) => [c.id, c.version, c.data?.status])).toEqual([
      [a.id, 2, 'REJECTED'],
      [b.id, 2, 'CREATED'],
    ])
    const residentNext = await pullAll(t, resident, residentFirst.cursor)
    expect(of(residentNext.changes, 'agreement').map((c) => c.id)).toEqual([a.id])
  })

  it('sends charges with the audience of their agreement', async () => {
    const t = await testApp()
    const a = await createAgreement(t)
    await t.db.update(agreements).set({ status: 'ACCEPTED', vippsAgreementId: 'agr_sync' }).where(eq(agreements.id, a.id)).run()
    const admin = await t.login(demo.admin)
    const res = await t.call('POST', `/agreement/${a.id}/cancel`, { token: admin, body: { terminationDate: '2026-12-23', finalPaymentRequired: true } })
    expect(res.status).toBe(200)
    const chargeId = (await t.db.select().from(charges).get())!.id
    expect(of((await pullAll(t, await t.login(demo.resident))).changes, 'charge')).toMatchObject([{ id: chargeId, data: { kind: 'FINAL', due: '2026-12-20' } }])
    expect(of((await pullAll(t, await t.login(demo.residentDa))).changes, 'charge')).toEqual([])
    expect(of((await pullAll(t, await t.login(demo.accountant))).changes, 'charge')).toHaveLength(1)
  })

  it('snapshots in pages of set-based views: every row once, each as its own GET answers it', async () => {
    const t = await testApp()
    const { main, second } = await companyIds(t)
    const ofMain = await insertAgreements(t.db, main, 25, 11)
    await insertAgreements(t.db, second, 6, 12)
    const admin = await t.login(demo.admin)
    const agreementsOf = async (token: string) => of((await pullAll(t, token, undefined, 7)).changes, 'agreement')
    const pulled = await agreementsOf(admin)
    expect(pulled.map((c) => c.id)).toEqual([...ofMain].sort())
    for (const change of [pulled[0]!, pulled[13]!, pulled[24]!])
      expect(JSON.stringify(change.data)).toBe(JSON.stringify((await t.call('GET', `/agreement/${change.id}`, { token: admin })).json))
    expect((await agreementsOf(await t.login(demo.superadmin))).length).toBe(31)
  })
})
