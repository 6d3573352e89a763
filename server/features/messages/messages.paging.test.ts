import { and, asc, desc, eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { companyMembers } from '../../db/schema/companies'
import { messageRecipients, messages } from '../../db/schema/messages'
import { users } from '../../db/schema/users'
import { encodeCursor } from '../../http/paging'
import { demo, testApp, type TestApp } from '../../test/harness'
import { allPages, cursorOf, foreignCursors, statementsPerPage } from '../../test/paging'
import { createAgreement } from '../agreements/test-helpers'
import { companyIds } from '../companies/test-helpers'
import { transaction } from '../../db/client'

const DA = { 'Accept-Language': 'da' }

/**
 * A notice the board sent to all members of the demo company (two residents and the staff), and
 * `extra` copies of it with their recipients: creation times repeating, so only the id tells some
 * apart; the first `ofSecond` of them in the other association, without recipients (its staff read them).
 */
async function sentNotices(extra: number, ofSecond = 0) {
  const t = await testApp()
  const { main, second } = await companyIds(t)
  const admin = await t.login(demo.admin)
  await createAgreement(t, {}, admin)
  await createAgreement(t, { emailAddress: demo.residentDa, memberName: 'Lars Pedersen' }, admin)
  const board = await t.login(demo.boardmember)
  const body = { companyId: main, type: 'NOTICE', subject: 'Generalforsamling', body: 'Den 12. marts.', recipient: { kind: 'ALL_MEMBERS' } }
  const created = await t.call('POST', '/messages', { token: board, body })
  expect((await t.call('POST', `/messages/${created.json.id}/send`, { token: board })).status).toBe(200)
  const model = (await t.db.select().from(messages).where(eq(messages.id, created.json.id)).get())!
  const recipients = await t.db.select().from(messageRecipients).where(eq(messageRecipients.messageId, model.id)).all()
  expect(recipients.length).toBeGreaterThan(2)
  await transaction(t.db, async () => {
    for (let n = 0; n < extra; n++) {
      // Ids not in creation order, so the id only decides ties.
      const id = `0190d5e6-0008-7000-8000-${String((n * 7919) % 1000003).padStart(12, '0')}`
      const createdAt = `2026-10-1${n % 4}T10:00:00.000Z`
      await t.db
        .insert(messages)
        .values({ ...model, id, companyId: n < ofSecond ? second : main, subject: `Notice ${n}`, createdAt, updatedAt: createdAt })
        .run()
      // The demo company's people are no recipients in the other association.
      if (n >= ofSecond)
        await t.db
          .insert(messageRecipients)
          .values(recipients.map((r, i) => ({ ...r, id: `${id.slice(0, -2)}${String(i).padStart(2, '0')}`.replace('-0008-', '-0018-'), messageId: id })))
          .run()
    }
  })
  return { t, main, second }
}

/** Message ids in the list's order (newest first: created, id), of a company. */
const idsInOrder = async (t: TestApp, companyId: string) =>
  (
    await t.db.select({ id: messages.id }).from(messages).where(eq(messages.companyId, companyId)).orderBy(desc(messages.createdAt), desc(messages.id)).all()
  ).map((r) => r.id)

describe('GET /api/messages pages through a cursor', () => {
  it('pages newest first through the Link header to the last page, which has none; staff see all, a resident only their own line', async () => {
    const { t, main, second } = await sentNotices(22, 3)
    const admin = await t.login(demo.admin)
    // 1 + 19 in the demo company.
    const pages = await allPages(t, admin, `/messages?companyId=${main}&limit=8`)
    expect(pages.map((p) => p.length)).toEqual([8, 8, 4])
    expect(pages.flat()).toEqual(await idsInOrder(t, main))
    // A last page that is exactly full links to nothing.
    expect((await allPages(t, admin, `/messages?companyId=${main}&limit=5`)).map((p) => p.length)).toEqual([5, 5, 5, 5])
    expect(await allPages(t, await t.login(demo.otherAdmin), `/messages?limit=3`)).toEqual([await idsInOrder(t, second)])

    const resident = await t.login(demo.resident)
    expect((await allPages(t, resident, '/messages?status=SENT&limit=6')).flat()).toEqual(await idsInOrder(t, main))
    const first = await t.call('GET', '/messages?status=SENT&limit=6', { token: resident })
    expect(
      first.json.every((m: { recipients: { emailAddress: string }[] }) => m.recipients.length === 1 && m.recipients[0]!.emailAddress === demo.resident),
    ).toBe(true)
    const staffView = await t.call('GET', '/messages?status=SENT&limit=6', { token: admin })
    expect(staffView.json[0].recipients.length).toBeGreaterThan(2)
    expect(staffView.json[0].companyName).toBe('Andelsboligforeningen Solgården')
    expect(staffView.json[0].sender.emailAddress).toBe(demo.boardmember)
    const link = new URL(/^<([^>]+)>/.exec(first.headers.get('Link')!)![1]!, 'http://x')
    expect([...link.searchParams.keys()].sort()).toEqual(['cursor', 'limit', 'status'])
  })

  it('answers at most 200 without a limit; limit 1–200; a cursor not made by us is 400 on `cursor` in the caller’s language', async () => {
    const { t } = await sentNotices(200)
    const admin = await t.login(demo.admin)
    expect((await allPages(t, admin, '/messages')).map((p) => p.length)).toEqual([200, 1])
    for (const limit of ['201', '0', 'ten']) {
      const res = await t.call('GET', `/messages?limit=${limit}`, { token: admin })
      expect(res.status, limit).toBe(400)
      expect(res.json.issues.map((i: { path: string }) => i.path)).toEqual(['limit'])
    }
    for (const cursor of [...foreignCursors, Buffer.from('["a","b","c"]').toString('base64url')]) {
      const res = await t.call('GET', `/messages?cursor=${cursor}`, { token: admin, headers: DA })
      expect(res.status, cursor).toBe(400)
      expect(res.json).toEqual({
        code: 'VALIDATION_FAILED',
        message: 'Nogle felter er ikke gyldige.',
        issues: [{ path: 'cursor', message: 'Indtast en gyldig værdi' }],
      })
    }
  })

  it("keeps who sees what: another association's company is 404 with or without a cursor; a cursor never widens the list", async () => {
    const { t, main, second } = await sentNotices(6, 2)
    const admin = await t.login(demo.admin)
    const cursor = cursorOf((await t.call('GET', `/messages?companyId=${main}&limit=1`, { token: admin })).headers.get('Link'))
    const other = await t.login(demo.otherAdmin)
    expect((await t.call('GET', `/messages?companyId=${main}&limit=1`, { token: other })).status).toBe(404)
    expect((await t.call('GET', `/messages?companyId=${main}&cursor=${cursor}`, { token: other })).status).toBe(404)
    expect((await t.call('GET', `/messages?companyId=${second}&cursor=${cursor}`, { token: admin })).status).toBe(404)
    // The demo company's cursor, used by the other association's admin: only where to start.
    expect((await allPages(t, other, `/messages?cursor=${cursor}`)).flat()).toEqual(await idsInOrder(t, second))
  })

  it('a former board member still sees the company through its messages they wrote, on a page past them too', async () => {
    const { t, main } = await sentNotices(2)
    const admin = await t.login(demo.admin)
    const board = (await t.db.select().from(users).where(eq(users.emailAddress, demo.boardmember)).get())!
    const membership = (await t.db
      .select()
      .from(companyMembers)
      .where(and(eq(companyMembers.companyId, main), eq(companyMembers.userId, board.id)))
      .get())!
    expect((await t.call('DELETE', `/company/${main}/member/${membership.id}`, { token: admin })).status).toBe(204)
    const former = await t.login(demo.boardmember)
    const oldest = (await t.db.select().from(messages).orderBy(asc(messages.createdAt), asc(messages.id)).get())!
    const received = (await allPages(t, former, `/messages?companyId=${main}&limit=1`)).flat()
    // They wrote all three (the copies keep the sender).
    expect(received).toEqual(await idsInOrder(t, main))
    // A cursor after the last of them: an empty page, not a 404.
    const past = await t.call('GET', `/messages?companyId=${main}&cursor=${encodeCursor([oldest.createdAt, oldest.id])}`, { token: former })
    expect(past.status).toBe(200)
    expect(past.json).toEqual([])
    expect((await t.call('GET', `/messages?companyId=${main}`, { token: await t.login(demo.otherAdmin) })).status).toBe(404)
  })

  it('costs the same number of statements for a page of 10 and of 100 (set-based views)', async () => {
    const { t, main } = await sentNotices(120)
    const admin = await t.login(demo.admin)
    const { ten, hundred } = await statementsPerPage(t, admin, (limit) => `/messages?companyId=${main}&limit=${limit}`)
    expect(hundred).toBe(ten)
    expect(hundred).toBeLessThanOrEqual(12)
  })
})
