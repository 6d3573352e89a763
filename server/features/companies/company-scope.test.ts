import { describe, expect, it } from 'vitest'
import { and, eq } from 'drizzle-orm'
import { demo, testApp } from '../../test/harness'
import { companyMembers } from '../../db/schema/companies'
import { users } from '../../db/schema/users'
import { createAgreement } from '../agreements/test-helpers'
import { companyIds } from '../companies/test-helpers'

/** A company id that does not exist. */
const UNKNOWN = '0190d5e6-0000-7000-8000-00000000beef'
const LISTS = ['/agreement', '/invoice', '/messages'] as const

/**
 * A list given a companyId the caller may not see answers 404 with the same contract body as the
 * company itself would (GET /company/{id}), never 200 []; an id that does not exist answers the
 * same (docs/decisions/0033-privacy-between-associations.md). The authorization matrices hold the
 * full caller × route table.
 */
describe("lists filtered by another association's companyId", () => {
  it('answer 404 with the body of the company itself, the same for an unknown id', async () => {
    const t = await testApp()
    const { main } = await companyIds(t)
    const other = await t.login(demo.otherAdmin)
    const single = await t.call('GET', `/company/${main}`, { token: other })
    expect(single).toMatchObject({ status: 404, json: { code: 'NOT_FOUND', message: expect.any(String) } })
    for (const list of LISTS) {
      for (const id of [main, UNKNOWN]) {
        const res = await t.call('GET', `${list}?companyId=${id}`, { token: other })
        expect({ status: res.status, json: res.json }, `${list} ${id === main ? 'Solgården' : 'unknown'}`).toEqual({ status: single.status, json: single.json })
      }
    }
  })

  it("answer in the caller's language", async () => {
    const t = await testApp()
    const { main } = await companyIds(t)
    const other = await t.login(demo.otherAdmin)
    for (const [language, message] of [
      ['DA', 'Ikke fundet.'],
      ['EN', 'Not found.'],
    ] as const) {
      await t.call('PATCH', '/account/profile/language', { token: other, body: { value: language } })
      for (const list of LISTS)
        expect((await t.call('GET', `${list}?companyId=${main}`, { token: other })).json, `${language} ${list}`).toEqual({ code: 'NOT_FOUND', message })
    }
  })

  it('answer the super admin 404 only for a company that does not exist', async () => {
    const t = await testApp()
    const { second } = await companyIds(t)
    const sa = await t.login(demo.superadmin)
    const single = await t.call('GET', `/company/${UNKNOWN}`, { token: sa })
    expect(single).toMatchObject({ status: 404, json: { code: 'NOT_FOUND', message: 'Company not found' } })
    for (const list of LISTS) {
      expect((await t.call('GET', `${list}?companyId=${UNKNOWN}`, { token: sa })).json, list).toEqual(single.json)
      expect((await t.call('GET', `${list}?companyId=${second}`, { token: sa })).status, list).toBe(200)
    }
    for (const list of ['members', 'addresses', 'payment-providers', 'charges-statistics'])
      expect((await t.call('GET', `/company/${UNKNOWN}/${list}`, { token: sa })).json, list).toEqual(single.json)
  })

  it('give a resident their own records of their association, and 404 for any other', async () => {
    const t = await testApp()
    const { main, second } = await companyIds(t)
    const admin = await t.login(demo.admin)
    const agreement = await createAgreement(t, {}, admin)
    const resident = await t.login(demo.resident)
    const own = await t.call('GET', `/agreement?companyId=${main}`, { token: resident })
    expect(own.status).toBe(200)
    expect(own.json.map((a: { id: string }) => a.id)).toEqual([agreement.id])
    expect((await t.call('GET', `/invoice?companyId=${main}`, { token: resident })).status).toBe(200)
    for (const list of LISTS) expect((await t.call('GET', `${list}?companyId=${second}`, { token: resident })).status, list).toBe(404)
  })

  it('still give former staff the messages they received from the association', async () => {
    const t = await testApp()
    const { main } = await companyIds(t)
    const admin = await t.login(demo.admin)
    const draft = { companyId: main, type: 'MESSAGE', subject: 'Bestyrelsesmøde', body: 'Mødet er flyttet.', recipient: { kind: 'BOARD' } }
    const message = (await t.call('POST', '/messages', { token: admin, body: draft })).json
    expect((await t.call('POST', `/messages/${message.id}/send`, { token: admin })).status).toBe(200)
    const board = (await t.db.select().from(users).where(eq(users.emailAddress, demo.boardmember)).get())!
    const membership = (await t.db
      .select()
      .from(companyMembers)
      .where(and(eq(companyMembers.companyId, main), eq(companyMembers.userId, board.id)))
      .get())!
    expect((await t.call('DELETE', `/company/${main}/member/${membership.id}`, { token: admin })).status).toBe(204)
    const former = await t.login(demo.boardmember)
    const res = await t.call('GET', `/messages?companyId=${main}`, { token: former })
    expect(res.status).toBe(200)
    expect(res.json.map((m: { id: string }) => m.id)).toEqual([message.id])
    expect((await t.call('GET', `/agreement?companyId=${main}`, { token: former })).status).toBe(404)
  })
})
