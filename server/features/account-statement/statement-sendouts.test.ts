/**
 * The account statements to all members (decisions 0068 and 0081): the yearly statement queued
 * once per company and year, and only once the year has ended (the test clock moved to January),
 * whatever the clicks and retries, sent by the job once (a second run, or a run after the claim,
 * sends nothing), each member told in the app and by e-mail in their language with a link to the
 * printable statement of that year; interim statements during the year, which leave the year's
 * send unused; and resends to one member or to those not reached, never twice.
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
import { mailOutbox } from '../../db/schema/platform'
import { demo, testApp } from '../../test/harness'
import { DA, EN, issue } from '../../test/requests'
import { createAgreement } from '../agreements/test-helpers'
import { statementFixture, userIdOf } from './test-helpers'
import type { NoticesService } from '../notifications'

/** 4 January 2027 in Copenhagen: 2026 has ended. */
const AFTER_2026 = '2027-01-04T09:00:00.000Z'

describe('yearly account statements to all members', () => {
  it('queues a year once, sends it once to every member in their own language, and refuses the year again', async () => {
    const t = await testApp()
    const f = await statementFixture(t)
    // Emma (English) has a running agreement but no invoice this year: she is a member and gets it too.
    const emma = await createAgreement(t, { emailAddress: 'beboer03@solgaarden.dk', memberName: 'Emma Hansen', linkedAddress: [f.addressIds[1]] })
    await t.db.update(agreements).set({ status: 'ACCEPTED' }).where(eq(agreements.id, emma.id)).run()
    t.clock.set(AFTER_2026)
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
    expect(listed.json).toMatchObject([
      { year: 2026, kind: 'YEARLY', through: null, status: 'QUEUED', requestedBy: 'Anders Nielsen', sentAt: null, recipients: null, notReached: null },
    ])

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
    expect(sent).toMatchObject([{ year: 2026, status: 'SENT', recipients: 2, notReached: 0, resending: false }])
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
    // The running year (the test clock is in November 2026): not as the yearly statement; it says from when, and offers the interim.
    const running = await send(demo.accountant, '2026', DA)
    expect(running.status).toBe(422)
    expect(running.json.message).toBe(
      'Kontokortet for hele 2026 kan sendes fra 1. januar 2027, når året er slut. Indtil da kan du sende et foreløbigt kontokort for 1. januar til i dag.',
    )
    expect((await send(demo.accountant, '2026', EN)).json.message).toBe(
      'The yearly statement for 2026 can be sent from 1 January 2027, once the year has ended. Until then you can send an interim statement for 1 January to today.',
    )
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
    t.clock.set(AFTER_2026)
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
        tellManyMails: async (...args: Parameters<NoticesService['tellManyMails']>) => {
          calls += 1
          if (calls === 3) throw new Error('killed')
          return await t.services.notices.tellManyMails(...args)
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
    t.clock.set(AFTER_2026)
    const admin = await t.login(demo.admin)
    expect((await t.call('POST', `/companies/${f.main}/account-statement-sendouts/2026`, { token: admin, headers: { 'Idempotency-Key': v7() } })).status).toBe(
      202,
    )
    const before = (await t.mails()).length
    await t.services.statementSendouts.tick()
    expect((await t.mails()).slice(before).map((m) => m.to)).toEqual([demo.resident])
  })
  it('sends an interim statement on 2 December, marked as such, and the yearly statement still goes out in January', async () => {
    const t = await testApp()
    const f = await statementFixture(t)
    const emma = await createAgreement(t, { emailAddress: 'beboer03@solgaarden.dk', memberName: 'Emma Hansen', linkedAddress: [f.addressIds[1]] })
    await t.db.update(agreements).set({ status: 'ACCEPTED' }).where(eq(agreements.id, emma.id)).run()
    t.clock.set('2026-12-02T10:00:00.000Z')
    let admin = await t.login(demo.admin)
    const path = `/companies/${f.main}/account-statement-sendouts`
    const post = async (to: string, headers: Record<string, string> = EN) =>
      await t.call('POST', to, { token: admin, headers: { 'Idempotency-Key': v7(), ...headers } })

    const interim = await post(`${path}/2026/interim`)
    expect(interim.status, JSON.stringify(interim.json)).toBe(202)
    expect(interim.json).toMatchObject({ year: 2026, kind: 'INTERIM', through: '2026-12-02', status: 'QUEUED' })
    // Once a day; and the yearly statement is refused while the year runs.
    const again = await post(`${path}/2026/interim`, DA)
    expect(again.status).toBe(409)
    expect(again.json.message).toBe(
      'Et foreløbigt kontokort for 2026 til i dag er allerede sendt. Vil du nå de medlemmer, det ikke nåede, så send det igen til dem.',
    )
    expect((await post(`${path}/2026`)).status).toBe(422)

    const before = (await t.mails()).length
    expect(await t.services.statementSendouts.tick()).toBe(1)
    const mails = (await t.mails()).slice(before)
    const en = mails.find((m) => m.to === 'beboer03@solgaarden.dk')!
    const da = mails.find((m) => m.to === demo.resident)!
    expect(en.subject).toBe('Interim statement — 1 January to 2 December 2026')
    expect(en.text).toContain('It is not the yearly statement, which follows when 2026 has ended.')
    expect(en.text).toContain(`/account-statement?year=2026&companyId=${f.main}&through=2026-12-02`)
    expect(da.subject).toBe('Foreløbigt kontokort — 1. januar til 2. december 2026')
    // The statement it links to says so: interim, 1 January to 2 December.
    const resident = await t.login(demo.resident)
    const s = await t.call('GET', `/account-statement?companyId=${f.main}&year=2026&through=2026-12-02`, { token: resident })
    expect(s.json).toMatchObject({ interim: true, from: '2026-01-01', to: '2026-12-02', closingBalance: 50_000 })

    // The next day another interim may go; after New Year an interim of 2026 is refused, and the yearly statement goes out once.
    t.clock.set('2026-12-03T10:00:00.000Z')
    expect((await post(`${path}/2026/interim`)).status).toBe(202)
    t.clock.set(AFTER_2026)
    admin = await t.login(demo.admin)
    const late = await post(`${path}/2026/interim`)
    expect(late.status).toBe(422)
    expect(late.json.message).toBe('2026 has ended: send the yearly statement for 2026 instead of an interim statement.')
    expect((await post(`${path}/2026`)).status).toBe(202)
    expect((await post(`${path}/2026`)).status).toBe(409)
    while ((await t.services.statementSendouts.tick()) > 0);
    const yearly = (await t.mails()).filter((m) => m.subject === 'Your account statement for 2026')
    expect(yearly.map((m) => m.to)).toEqual(['beboer03@solgaarden.dk'])
    const full = await t.call('GET', `/account-statement?companyId=${f.main}&year=2026`, { token: await t.login(demo.resident) })
    expect(full.json).toMatchObject({ interim: false, to: '2026-12-31' })
    const listed = (await t.call('GET', path, { token: admin })).json as { kind: string; through: string | null; status: string }[]
    expect(listed.map((l) => `${l.kind} ${l.through} ${l.status}`)).toEqual(['YEARLY null SENT', 'INTERIM 2026-12-03 SENT', 'INTERIM 2026-12-02 SENT'])
  })

  it('resends to those not reached (a failed mail, no address) and to one member, never twice by a double click or a retry', async () => {
    const t = await testApp()
    const f = await statementFixture(t)
    const emma = await createAgreement(t, { emailAddress: 'beboer03@solgaarden.dk', memberName: 'Emma Hansen', linkedAddress: [f.addressIds[1]] })
    await t.db.update(agreements).set({ status: 'ACCEPTED' }).where(eq(agreements.id, emma.id)).run()
    const emmaId = await userIdOf(t, 'beboer03@solgaarden.dk')
    // Emma has no address when the statement goes out.
    await t.db.update(users).set({ emailAddress: '' }).where(eq(users.id, emmaId)).run()
    t.clock.set(AFTER_2026)
    const admin = await t.login(demo.admin)
    const path = `/companies/${f.main}/account-statement-sendouts`
    const post = async (to: string, body?: object, key = v7()) => await t.call('POST', to, { token: admin, body, headers: { 'Idempotency-Key': key, ...EN } })
    const sendout = (await post(`${path}/2026`)).json as { id: string }
    // Not reached yet while it goes out: a resend is refused.
    expect((await post(`${path}/${sendout.id}/resend`)).status).toBe(409)
    await t.services.statementSendouts.tick()
    // The resident's mail bounces: the worker gives up on it.
    const residentMail = (await t.mails()).find((m) => m.to === demo.resident && m.subject === 'Dit kontokort for 2026')!
    await t.db.update(mailOutbox).set({ status: 'failed' }).where(eq(mailOutbox.id, residentMail.id)).run()
    const list = async () => ((await t.call('GET', path, { token: admin })).json as { recipients: number; notReached: number; resending: boolean }[])[0]!
    expect(await list()).toMatchObject({ recipients: 2, notReached: 2, resending: false })

    // A double click: one resend queued, the other refused; only the member with an address now is listed.
    const [a, b] = await Promise.all([post(`${path}/${sendout.id}/resend`), post(`${path}/${sendout.id}/resend`)])
    expect([a.status, b.status].sort()).toEqual([202, 409])
    expect(await list()).toMatchObject({ notReached: 1, resending: true })
    let before = (await t.mails()).length
    await t.services.statementSendouts.tick()
    expect((await t.mails()).slice(before).map((m) => m.to)).toEqual([demo.resident])
    expect(await list()).toMatchObject({ notReached: 1, resending: false })

    // Emma gets an address: the next resend reaches her; then nobody is left.
    await t.db.update(users).set({ emailAddress: 'emma@example.dk' }).where(eq(users.id, emmaId)).run()
    expect((await post(`${path}/${sendout.id}/resend`)).status).toBe(202)
    before = (await t.mails()).length
    await t.services.statementSendouts.tick()
    expect((await t.mails()).slice(before).map((m) => m.to)).toEqual(['emma@example.dk'])
    expect(await list()).toMatchObject({ notReached: 0 })
    const none = await post(`${path}/${sendout.id}/resend`)
    expect(none.status).toBe(409)
    expect(none.json.message).toBe('Every member with an e-mail address was reached, or a resend to them is already on its way.')

    // To one member who lost it: a retry with the same key answers the same and sends once; a second click is refused until it went.
    const key = v7()
    const one = await post(`${path}/${sendout.id}/resend`, { userId: f.residentId }, key)
    expect(one.status).toBe(202)
    expect((await post(`${path}/${sendout.id}/resend`, { userId: f.residentId }, key)).json).toEqual(one.json)
    expect((await post(`${path}/${sendout.id}/resend`, { userId: f.residentId })).status).toBe(409)
    before = (await t.mails()).length
    await t.services.statementSendouts.tick()
    expect((await t.mails()).slice(before).map((m) => m.to)).toEqual([demo.resident])
    expect((await post(`${path}/${sendout.id}/resend`, { userId: f.residentId })).status).toBe(202)

    // Someone not among its members, or another association's sendout: 404.
    const stranger = await post(`${path}/${sendout.id}/resend`, { userId: await userIdOf(t, demo.otherAdmin) })
    expect(stranger.status).toBe(404)
    expect((await post(`/companies/${f.second}/account-statement-sendouts/${sendout.id}/resend`)).status).toBe(404)
    expect((await t.call('POST', `${path}/${sendout.id}/resend`, { token: await t.login(demo.otherAdmin), headers: { 'Idempotency-Key': v7() } })).status).toBe(
      404,
    )
  })
})
