import { describe, expect, it, vi } from 'vitest'
import { v7 } from 'uuid'
import { eq } from 'drizzle-orm'
import { demo, testApp, type TestApp } from '../../test/harness'
import { DA, issue } from '../../test/requests'
import { statementsRun } from '../../test/paging'
import { agreements } from '../../db/schema/agreements'
import { authMethods } from '../../db/schema/users'
import { invitationSends } from '../../db/schema/invitations'
import { newId } from '../../lib/ids'
import { copenhagenDateOf } from '../../../shared/domain/copenhagen'
import { bounceRequest, householdPeople, mailsTo, residents, sendAll, WEBHOOK_SECRET } from './test-helpers'
import { companyIds } from '../companies/test-helpers'
import { eraseOnRequest } from '../personal-data/test-helpers'
import { mailBounces } from '../../db/schema/invitations'
import { householdResidents } from '../../db/schema/households'

const DAY = 24 * 60 * 60 * 1000

async function setup(n = 5, env: Record<string, string> = {}) {
  const t = await testApp({ MAIL_WEBHOOK_SECRET: WEBHOOK_SECRET, ...env })
  const { main, second } = await companyIds(t)
  const people = await residents(t, n, { language: (i) => (i % 2 === 1 ? 'DA' : 'EN') })
  const admin = await t.login(demo.admin)
  const invite = async (body?: object, key = v7()) =>
    await t.call('POST', `/companies/${main}/invitations`, { token: admin, headers: { 'Idempotency-Key': key }, ...(body ? { body } : {}) })
  const progress = async (query = '') => await t.call('GET', `/companies/${main}/invitations${query}`, { token: admin })
  return { t, main, second, people, admin, invite, progress }
}

/** Signs a person in as setting a password from the link does: a proven e-mail sign-in. */
async function signIn(t: TestApp, userId: string, email: string) {
  await t.db
    .insert(authMethods)
    .values({
      id: newId(),
      userId,
      type: 'EMAIL_PASSWORD',
      identifier: email,
      secretHash: 'x',
      verifiedAt: t.clock.now().toISOString(),
      createdAt: t.clock.now().toISOString(),
    })
    .run()
}

const invitations = async (t: TestApp, email: string) =>
  (await mailsTo(t, email)).filter((m) => /invites you|inviterer dig|accept your|godkend din/i.test(m.subject))

describe('invitations at scale (decision 0091)', () => {
  it('invites everyone with an agreement who never signed in, once each, in their language, with the set-password link and the agreement', async () => {
    const { t, people, invite, progress } = await setup(5)
    const res = await invite()
    expect(res.status, JSON.stringify(res.json)).toBe(202)
    expect(res.json).toEqual({ queued: 5, alreadyInvited: 0 })
    // A second request (another click, another key) queues nobody twice.
    expect((await invite()).json).toEqual({ queued: 0, alreadyInvited: 5 })
    await sendAll(t)
    for (const [i, p] of people.entries()) {
      const mails = await invitations(t, p.email)
      expect(mails, p.email).toHaveLength(1)
      const mail = mails[0]!
      expect(mail.subject).toBe(
        i % 2 === 1 ? 'Andelsboligforeningen Solgården inviterer dig til Boligkasse' : 'Andelsboligforeningen Solgården invites you to Boligkasse',
      )
      expect(mail.text).toContain('http://localhost:3000/reset-password?token=')
      expect(mail.text).toContain(`http://localhost:3000/agreements/${p.agreementId}`)
    }
    const p = (await progress()).json
    expect(p).toMatchObject({ total: 5, signedIn: 0, accepted: 0, bounced: 0, notInvited: 0, queued: 0 })
    expect(p.people).toHaveLength(5)
    expect(p.people[0]).toMatchObject({ signedIn: false, toAccept: 1, reminders: 0, queued: false })
    expect(p.people[0].lastSentAt).toBe(t.clock.now().toISOString())
  })

  it('sends each once after a crash half-way and when two runs race; a retry of the request is answered from its record', async () => {
    const { t, people, invite } = await setup(6, {})
    const key = v7()
    const first = await invite(undefined, key)
    expect((await invite(undefined, key)).json).toEqual(first.json)
    // The job dies while it writes the mails of its batch: the claims roll back with them.
    const spy = vi.spyOn(t.services.auth, 'invitationLinks').mockRejectedValueOnce(new Error('crash'))
    try {
      await expect(t.services.invitations.deliverBatch()).rejects.toThrow('crash')
    } finally {
      spy.mockRestore()
    }
    expect((await t.db.select().from(invitationSends).all()).every((s) => s.sentAt === null)).toBe(true)
    for (const p of people) expect(await invitations(t, p.email)).toHaveLength(0)
    // Two runs at once (each under the write lock, as the job runner runs them; on PostgreSQL two instances): the claim lets one send each.
    const run = () => t.lock.run(() => t.services.invitations.deliverBatch())
    await Promise.all([run(), run(), run()])
    await sendAll(t)
    for (const p of people) expect(await invitations(t, p.email), p.email).toHaveLength(1)
  })

  it('leaves out who signed in, and invites a selection only', async () => {
    const { t, people, invite, progress } = await setup(4)
    await signIn(t, people[0]!.id, people[0]!.email)
    expect((await invite({ userIds: [people[0]!.id, people[1]!.id, newId()] })).json).toEqual({ queued: 1, alreadyInvited: 0 })
    await sendAll(t)
    expect(await invitations(t, people[0]!.email)).toHaveLength(0)
    expect(await invitations(t, people[1]!.email)).toHaveLength(1)
    expect(await invitations(t, people[2]!.email)).toHaveLength(0)
    expect((await progress()).json).toMatchObject({ total: 4, signedIn: 1, notInvited: 2 })
    expect((await invite()).json).toEqual({ queued: 2, alreadyInvited: 1 })
  })

  it('invites the households’ current residents without an agreement too: the sign-in link alone, counted as signed in but not as to accept', async () => {
    const { t, main, people, invite, progress } = await setup(2)
    // Two live in the association's households today, as the import leaves them; one moved out, one moves in in 8 days.
    const living = await householdPeople(t, main, 2, { language: (i) => (i === 1 ? 'DA' : 'EN') })
    const [gone] = await householdPeople(t, main, 1, { prefix: 'fraflyttet', moveInDate: '2010-01-01', moveOutDate: '2020-01-01' })
    const inEightDays = copenhagenDateOf(new Date(t.clock.now().getTime() + 8 * DAY))
    const [coming] = await householdPeople(t, main, 1, { prefix: 'tilflytter', moveInDate: inEightDays })
    // Someone with an agreement who also lives in a household is one person.
    await t.db
      .insert(householdResidents)
      .values({
        ...(await t.db.select().from(householdResidents).where(eq(householdResidents.userId, living[0]!.id)).get())!,
        id: newId(),
        userId: people[0]!.id,
      })
      .run()
    expect((await progress()).json).toMatchObject({ total: 4, signedIn: 0, withAgreement: 2, accepted: 0, notInvited: 4 })
    expect((await invite()).json).toEqual({ queued: 4, alreadyInvited: 0 })
    await sendAll(t)
    for (const [i, p] of living.entries()) {
      const mails = await invitations(t, p.email)
      expect(mails, p.email).toHaveLength(1)
      expect(mails[0]!.subject).toBe(
        i === 1 ? 'Andelsboligforeningen Solgården inviterer dig til Boligkasse' : 'Andelsboligforeningen Solgården invites you to Boligkasse',
      )
      expect(mails[0]!.text).toContain('http://localhost:3000/reset-password?token=')
      expect(mails[0]!.text).not.toContain('/agreements/')
      expect(mails[0]!.text).not.toMatch(/Vipps MobilePay/)
    }
    expect(await invitations(t, people[0]!.email)).toHaveLength(1)
    expect(await invitations(t, gone!.email)).toHaveLength(0)
    expect(await invitations(t, coming!.email)).toHaveLength(0)
    // A resident who signed in is done: nothing to accept. The other is reminded with a fresh link, once a round.
    await signIn(t, living[0]!.id, living[0]!.email)
    const after = (await progress()).json
    expect(after).toMatchObject({ total: 4, signedIn: 1, withAgreement: 2, accepted: 0 })
    expect(after.people.map((x: { userId: string }) => x.userId)).not.toContain(living[0]!.id)
    expect(after.people.find((x: { userId: string }) => x.userId === living[1]!.id)).toMatchObject({ hasAgreement: false, toAccept: 0, accepted: false })
    expect(after.people.find((x: { userId: string }) => x.userId === people[0]!.id)).toMatchObject({ hasAgreement: true, toAccept: 1 })
    t.clock.advance(7 * DAY + 1000)
    await t.services.invitations.planReminders()
    await sendAll(t)
    expect(await invitations(t, living[0]!.email)).toHaveLength(1)
    const reminded = await invitations(t, living[1]!.email)
    expect(reminded.map((m) => m.subject)).toEqual([
      'Andelsboligforeningen Solgården inviterer dig til Boligkasse',
      'Påmindelse: Andelsboligforeningen Solgården inviterer dig til Boligkasse',
    ])
    expect(reminded[1]!.text).toContain('reset-password?token=')
    expect(reminded[1]!.text).not.toContain('/agreements/')
    // The one who moved in meanwhile is invited by the next "Invite all"; the one who moved out never.
    t.clock.advance(1 * DAY)
    // The other three not signed in were invited before.
    expect((await invite()).json).toEqual({ queued: 1, alreadyInvited: 3 })
    await sendAll(t)
    expect(await invitations(t, coming!.email)).toHaveLength(1)
    expect(await invitations(t, gone!.email)).toHaveLength(0)
  })

  it('queues 800 people, agreement members and households’ residents, in a constant number of statements', async () => {
    const { t, main, invite, progress } = await setup(600)
    await householdPeople(t, main, 200)
    const statements = await statementsRun(t, async () => expect((await invite()).json).toEqual({ queued: 800, alreadyInvited: 0 }))
    // The session, the Idempotency-Key record, the company, the count and the one INSERT … SELECT: not one a person.
    expect(statements).toBeLessThan(25)
    await sendAll(t)
    expect((await t.mails()).filter((m) => /invites you|inviterer dig/.test(m.subject))).toHaveLength(800)
    const page = (await progress('?limit=200')).json
    expect(page).toMatchObject({ total: 800, signedIn: 0, withAgreement: 600, queued: 0 })
    expect(page.people).toHaveLength(200)
    expect(page.nextCursor).toBeTruthy()
  }, 120_000)

  it('reminds those not done after the set days, once a round, at most the set number of times', async () => {
    const { t, main, people, admin, invite, progress } = await setup(3)
    const set = await t.call('PUT', `/companies/${main}/invitations/settings`, {
      token: admin,
      headers: { 'Idempotency-Key': v7() },
      body: { remindersOn: true, remindAfterDays: 3, maxReminders: 2 },
    })
    expect(set.status, JSON.stringify(set.json)).toBe(200)
    await invite()
    await sendAll(t)
    // Person 0 signs in and accepts; person 1 signs in but has not accepted; person 2 does nothing.
    await signIn(t, people[0]!.id, people[0]!.email)
    await t.db.update(agreements).set({ status: 'ACCEPTED' }).where(eq(agreements.id, people[0]!.agreementId)).run()
    await signIn(t, people[1]!.id, people[1]!.email)
    t.clock.advance(2 * DAY)
    await sendAll(t)
    expect(await invitations(t, people[2]!.email)).toHaveLength(1)
    t.clock.advance(1 * DAY + 1000)
    // Two runs planning the same round plan it once.
    const plan = () => t.lock.run(() => t.services.invitations.planReminders())
    await Promise.all([plan(), plan()])
    await sendAll(t)
    expect(await invitations(t, people[0]!.email)).toHaveLength(1)
    const toAccept = await invitations(t, people[1]!.email)
    expect(toAccept.map((m) => m.subject)).toEqual([
      'Andelsboligforeningen Solgården inviterer dig til Boligkasse',
      'Påmindelse: godkend din aftale med Andelsboligforeningen Solgården',
    ])
    expect(toAccept[1]!.text).not.toContain('reset-password')
    const reminded = await invitations(t, people[2]!.email)
    expect(reminded.map((m) => m.subject)).toEqual([
      'Andelsboligforeningen Solgården invites you to Boligkasse',
      'Reminder: Andelsboligforeningen Solgården invites you to Boligkasse',
    ])
    expect(reminded[1]!.text).toContain('reset-password?token=')
    for (let i = 0; i < 3; i++) {
      t.clock.advance(3 * DAY + 1000)
      await t.services.invitations.planReminders()
      await sendAll(t)
    }
    expect(await invitations(t, people[2]!.email)).toHaveLength(3)
    const p = (await progress()).json
    expect(p).toMatchObject({ total: 3, signedIn: 2, accepted: 1 })
    expect(p.people.find((x: { userId: string }) => x.userId === people[2]!.id)).toMatchObject({ reminders: 2 })
  })

  it('sends no reminders while they are off', async () => {
    const { t, main, people, admin, invite } = await setup(1)
    await t.call('PUT', `/companies/${main}/invitations/settings`, {
      token: admin,
      headers: { 'Idempotency-Key': v7() },
      body: { remindersOn: false, remindAfterDays: 1, maxReminders: 3 },
    })
    await invite()
    await sendAll(t)
    t.clock.advance(5 * DAY)
    await t.services.invitations.planReminders()
    await sendAll(t)
    expect(await invitations(t, people[0]!.email)).toHaveLength(1)
  })

  it('stops at a bounced address and shows it; refuses unsigned, stale or malformed notices', async () => {
    const { t, people, invite, progress } = await setup(3)
    await invite()
    await sendAll(t)
    const now = t.clock.now()
    const mailId = (await invitations(t, people[0]!.email))[0]!.id
    const hard = {
      type: 'bounce',
      bounceType: 'hard',
      email: people[0]!.email.toUpperCase(),
      messageId: `<${mailId}@boligkasse>`,
      reason: '550 5.1.1 user unknown',
    }
    const ok = bounceRequest(hard, now)
    const res = await t.call('POST', '/webhooks/mail-bounce', ok)
    expect(res.status, JSON.stringify(res.json)).toBe(202)
    expect(res.json).toEqual({ recorded: true })
    // A repeat of the same notice changes nothing.
    expect((await t.call('POST', '/webhooks/mail-bounce', ok)).status).toBe(202)
    expect((await t.call('POST', '/webhooks/mail-bounce', bounceRequest({ ...hard, bounceType: 'soft', email: people[1]!.email }, now))).json).toEqual({
      recorded: false,
    })
    expect((await t.call('POST', '/webhooks/mail-bounce', bounceRequest(hard, now, 'another-secret-of-enough-length'))).status).toBe(401)
    expect((await t.call('POST', '/webhooks/mail-bounce', bounceRequest(hard, new Date(now.getTime() - 10 * 60 * 1000)))).status).toBe(401)
    expect((await t.call('POST', '/webhooks/mail-bounce', { body: JSON.stringify(hard), headers: { 'Content-Type': 'application/json' } })).status).toBe(401)
    const bad = await t.call('POST', '/webhooks/mail-bounce', {
      ...bounceRequest({ type: 'bounce', email: 'not an address' }, now),
      headers: { ...bounceRequest({ type: 'bounce', email: 'not an address' }, now).headers, ...DA },
    })
    expect(bad.status).toBe(400)
    const p = (await progress()).json
    expect(p.bounced).toBe(1)
    expect(p.people.find((x: { userId: string }) => x.userId === people[0]!.id)).toMatchObject({ bounced: true })
    t.clock.advance(8 * DAY)
    await t.services.invitations.planReminders()
    await sendAll(t)
    expect(await invitations(t, people[0]!.email)).toHaveLength(1)
    expect(await invitations(t, people[1]!.email)).toHaveLength(2)
  })

  it('lets two bounced people be erased: their addresses leave the bounce list (decision 0069)', async () => {
    const { t, main, people } = await setup(2)
    for (const p of people) {
      expect((await t.call('POST', '/webhooks/mail-bounce', bounceRequest({ type: 'complaint', email: p.email }, t.clock.now()))).status).toBe(202)
      await t.db.update(agreements).set({ status: 'CLOSED' }).where(eq(agreements.id, p.agreementId)).run()
    }
    for (const p of people) {
      const erased = await eraseOnRequest(t, demo.superadmin, main, p.id)
      expect(erased.status, JSON.stringify(erased.json)).toBeLessThan(300)
    }
    const left = (await t.db.select().from(mailBounces).all()).map((b) => b.email)
    expect(left).toHaveLength(2)
    for (const p of people) expect(left).not.toContain(p.email)
  })

  it('takes no bounce notice without MAIL_WEBHOOK_SECRET (404)', async () => {
    const t = await testApp()
    const res = await t.call('POST', '/webhooks/mail-bounce', bounceRequest({ type: 'complaint', email: 'a@example.dk' }, t.clock.now()))
    expect(res.status).toBe(404)
  })

  it('refuses bad input with a clear 400 in the caller’s language', async () => {
    const { t, main, admin, progress } = await setup(1)
    const put = async (body: unknown) =>
      await t.call('PUT', `/companies/${main}/invitations/settings`, { token: admin, headers: { 'Idempotency-Key': v7(), ...DA }, body })
    const res = await put({ remindersOn: true, remindAfterDays: 0, maxReminders: 9 })
    expect(res.status).toBe(400)
    expect(issue(res, 'remindAfterDays')).toBe('Påmind efter 1 til 60 dage.')
    expect(issue(res, 'maxReminders')).toBe('Send 0 til 5 påmindelser.')
    const empty = await t.call('POST', `/companies/${main}/invitations`, { token: admin, headers: { 'Idempotency-Key': v7() }, body: { userIds: [] } })
    expect(empty.status).toBe(400)
    expect(issue(empty, 'userIds')).toBe('Choose at least one person, or invite everyone.')
    expect((await progress('?cursor=nonsense')).status).toBe(400)
    expect((await progress('?limit=0')).status).toBe(400)
  })
})
