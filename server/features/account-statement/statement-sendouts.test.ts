/**
 * The yearly account statements to all members (decision 0068): queued once per
 * company and year whatever the clicks and retries, sent by the job once (a second run, or a run
 * after the claim, sends nothing), each member told in the app and by e-mail in their language
 * with a link to the printable statement of that year.
 */
import { describe, expect, it } from 'vitest'
import { eq } from 'drizzle-orm'
import { v7 } from 'uuid'
import { agreements } from '../../db/schema/agreements'
import { statementSendoutRecipients, statementSendouts } from '../../db/schema/statements'
import { users } from '../../db/schema/users'
import { newId } from '../../lib/ids'
import { createStatementSendoutsService } from './statement-sendouts.service'
import { notifications } from '../../db/schema/notifications'
import { demo, testApp } from '../../test/harness'
import { DA, EN, issue } from '../../test/requests'
import { createAgreement } from '../agreements/test-helpers'
import { statementFixture, userIdOf } from './test-helpers'

describe('yearly account statements to all members', () => {
  it('queues a year once, sends it once to every member in their own language, and refuses the year again', async () => {
    const t = await testApp()
    const f = await statementFixture(t)
    // Emma (English) has a running agreement but no invoice this year: she is a member and gets it too.
    const emma = await createAgreement(t, { emailAddress: 'beboer03@solgaarden.dk', memberName: 'Emma Hansen', linkedAddress: [f.addressIds[1]] })
    await t.db.update(agreements).set({ status: 'ACCEPTED' }).where(eq(agreements.id, emma.id)).run()
    const admin = await t.login(demo.admin)
    const path = `/companies/${f.main}/account-statement-sendouts`

    // A double click: two sends of 2026 at once; one is queued, the other refused.
    const [a, b] = await Promise.all([
      t.call('POST', `${path}/2026`, { token: admin, headers: { 'Idempotency-Key': v7(), ...DA } }),
      t.call('POST', `${path}/2026`, { token: admin, headers: { 'Idempotency-Key': v7(), ...DA } }),
    ])
    expect([a.status, b.status].sort()).toEqual([202, 409])
    const refused = a.status === 409 ? a : b
    expect(refused.json.message).toBe('Kontokortene for 2026 er allerede sendt til medlemmerne.')
    const listed = await t.call('GET', path, { token: admin })
    expect(listed.json).toMatchObject([{ year: 2026, status: 'QUEUED', requestedBy: 'Anders Nielsen', sentAt: null, recipients: null }])

    const mailsBefore = (await t.mails()).length
    expect(await t.services.statementSendouts.tick()).toBe(1)
    expect(await t.services.statementSendouts.tick()).toBe(0)
    const mails = (await t.mails()).slice(mailsBefore)
    expect(mails.map((m) => m.to).sort()).toEqual(['beboer01@solgaarden.dk', 'beboer03@solgaarden.dk'])
    const da = mails.find((m) => m.to === demo.resident)!
    expect(da.subject).toBe('Dit kontokort for 2026')
    expect(da.text).toContain('Hej Sofie Jensen,')
    expect(da.text).toContain(`http://localhost:3000/account-statement?year=2026&companyId=${f.main}`)
    const en = mails.find((m) => m.to === 'beboer03@solgaarden.dk')!
    expect(en.subject).toBe('Your account statement for 2026')
    expect(en.text).toContain('Hello Emma Hansen,')
    const told = await t.db.select().from(notifications).where(eq(notifications.userId, f.residentId)).all()
    expect(told.filter((n) => n.actionUrl === `/account-statement?year=2026&companyId=${f.main}`)).toHaveLength(1)

    const sent = (await t.call('GET', path, { token: admin })).json
    expect(sent).toMatchObject([{ year: 2026, status: 'SENT', recipients: 2 }])
    expect(sent[0].sentAt).not.toBeNull()
    // The same year again, later: refused; nothing more is sent.
    const again = await t.call('POST', `${path}/2026`, { token: admin, headers: { 'Idempotency-Key': v7(), ...EN } })
    expect(again.status).toBe(409)
    expect(again.json.message).toBe('The account statements for 2026 have already been sent to the members.')
    expect(await t.services.statementSendouts.tick()).toBe(0)
    expect((await t.mails()).length).toBe(mailsBefore + 2)
  })

  it('is company admin staff’s, and refuses a year not begun in the caller’s language', async () => {
    const t = await testApp()
    const f = await statementFixture(t)
    const path = `/companies/${f.main}/account-statement-sendouts`
    const send = async (email: string | null, year: string, headers = EN) =>
      await t.call('POST', `${path}/${year}`, { token: email ? await t.login(email) : undefined, headers: { 'Idempotency-Key': v7(), ...headers } })
    expect((await send(demo.boardmember, '2025')).status).toBe(403)
    expect((await send(demo.resident, '2025')).status).toBe(404)
    expect((await send(demo.otherAdmin, '2025')).status).toBe(404)
    expect((await send(null, '2025')).status).toBe(401)
    const future = await send(demo.accountant, '2099', DA)
    expect(future.status).toBe(400)
    expect(issue(future, 'year')).toBe('Et år kan sendes, når det er begyndt; vælg i år eller et tidligere år.')
    const bad = await send(demo.chairman, '1999', EN)
    expect(bad.status).toBe(400)
    expect(issue(bad, 'year')).toBe('Please choose a year between 2000 and 2100')
    expect((await t.call('GET', path, { token: await t.login(demo.boardmember) })).status).toBe(403)
    expect((await t.call('GET', path, { token: await t.login(demo.otherAdmin) })).status).toBe(404)
    expect(await userIdOf(t, demo.resident)).toBe(f.residentId)
  })

  it('tells 2,000 members in batches, and after a crash half-way goes on with the rest: nobody twice, nobody left out', async () => {
    const t = await testApp()
    const f = await statementFixture(t)
    const template = (await t.db.select().from(users).where(eq(users.id, f.residentId)).get())!
    const agreement = (await t.db.select().from(agreements).where(eq(agreements.id, f.agreementId)).get())!
    const MANY = 2000
    const people = Array.from({ length: MANY }, (_, i) => ({
      ...template,
      id: newId(),
      emailAddress: `member${i}@example.dk`,
      fullName: `Member ${i}`,
      mobileKey: null,
    }))
    for (let i = 0; i < MANY; i += 200) {
      await t.db
        .insert(users)
        .values(people.slice(i, i + 200))
        .run()
      await t.db
        .insert(agreements)
        .values(
          people.slice(i, i + 200).map((p, k) => ({
            ...agreement,
            id: newId(),
            memberUserId: p.id,
            status: 'ACCEPTED' as const,
            externalSeq: 100_000 + i + k,
            vippsAgreementId: null,
            terminationDate: null,
            startPaymentDate: '2026-01-01',
          })),
        )
        .run()
    }
    const admin = await t.login(demo.admin)
    expect((await t.call('POST', `/companies/${f.main}/account-statement-sendouts/2026`, { token: admin, headers: { 'Idempotency-Key': v7() } })).status).toBe(
      202,
    )
    const sendout = (await t.db.select().from(statementSendouts).get())!
    const listed = await t.db.select().from(statementSendoutRecipients).where(eq(statementSendoutRecipients.sendoutId, sendout.id)).all()
    expect(listed.length).toBe(MANY + 1)

    // The process dies while telling the third batch: that batch's transaction is rolled back, the first two stay told.
    let calls = 0
    const crashing = createStatementSendoutsService({
      db: t.database.db,
      clock: t.clock,
      notices: {
        tellMany: async (...args) => {
          calls += 1
          if (calls === 3) throw new Error('killed')
          return await t.services.notices.tellMany(...args)
        },
      },
      batch: { recipients: 300 },
    })
    const mailsBefore = (await t.mails()).length
    await expect(crashing.tick()).rejects.toThrow('killed')
    expect((await t.mails()).length - mailsBefore).toBe(600)
    expect((await t.db.select().from(statementSendouts).get())!.sentAt).toBeNull()

    // The next runs (200 a transaction, 20 transactions a run at most) tell the rest, once. How
    // long that takes for 2,000 is a figure of `npm run bench` (bench/sizes.ts), not a bound here.
    let runs = 0
    while ((await t.services.statementSendouts.tick()) === 0) runs += 1
    expect(runs).toBeLessThan(3)
    const mails = (await t.mails()).slice(mailsBefore)
    expect(mails.length).toBe(MANY + 1)
    expect(new Set(mails.map((m) => m.to)).size).toBe(MANY + 1)
    const done = (await t.db.select().from(statementSendouts).get())!
    expect(done.sentAt).not.toBeNull()
    expect(done.recipients).toBe(MANY + 1)
    expect(await t.services.statementSendouts.tick()).toBe(0)
    expect((await t.mails()).length - mailsBefore).toBe(MANY + 1)
    // Told in the app once each, too.
    const told = await t.db
      .select({ userId: notifications.userId })
      .from(notifications)
      .where(eq(notifications.actionUrl, `/account-statement?year=2026&companyId=${f.main}`))
      .all()
    expect(told.length).toBe(MANY + 1)
  })

  it('lists as members those with a document of the year or an agreement running in it; not a member only of a later year', async () => {
    const t = await testApp()
    const f = await statementFixture(t)
    // Emma's agreement starts in 2027: she is no member of 2026.
    const emma = await createAgreement(t, { emailAddress: 'beboer03@solgaarden.dk', memberName: 'Emma Hansen', linkedAddress: [f.addressIds[1]] })
    await t.db.update(agreements).set({ status: 'ACCEPTED', startPaymentDate: '2027-01-01' }).where(eq(agreements.id, emma.id)).run()
    // The resident moved out: the agreement ended, but they had invoices in 2026 and get that year.
    await t.db.update(agreements).set({ status: 'CLOSED', terminationDate: '2026-06-30' }).where(eq(agreements.id, f.agreementId)).run()
    const admin = await t.login(demo.admin)
    expect((await t.call('POST', `/companies/${f.main}/account-statement-sendouts/2026`, { token: admin, headers: { 'Idempotency-Key': v7() } })).status).toBe(
      202,
    )
    const before = (await t.mails()).length
    await t.services.statementSendouts.tick()
    expect((await t.mails()).slice(before).map((m) => m.to)).toEqual([demo.resident])
  })
})
