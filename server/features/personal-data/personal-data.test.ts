import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { v7 } from 'uuid'
import { agreements } from '../../db/schema/agreements'
import { invoices } from '../../db/schema/invoices'
import { companyMembers } from '../../db/schema/companies'
import { personalDataErasures } from '../../db/schema/erasures'
import { users } from '../../db/schema/users'
import { DEMO_PASSWORD, demo, testApp, type TestApp } from '../../test/harness'
import { companyIds } from '../companies/test-helpers'
import { acceptedWithCollectedCharge } from '../agreements/test-helpers'
import { ERASED_NAME } from '../../../shared/contract/personal-data'
import { memberWithDataEverywhere, newMember, zq } from './test-helpers'

const EN = { 'Accept-Language': 'en' }
const DA = { 'Accept-Language': 'da' }
const erase = (
  t: TestApp,
  token: string,
  companyId: string,
  userId: string,
  body: unknown = { reason: 'MEMBER_REQUEST', requestedOn: '2026-11-20' },
  headers = EN,
) => t.call('POST', `/companies/${companyId}/members/${userId}/erase`, { token, body, headers: { 'Idempotency-Key': v7(), ...headers } })

describe('GET /account/personal-data', () => {
  it('downloads everything held about the member as a JSON file, without any secret', async () => {
    const t = await testApp()
    const m = await memberWithDataEverywhere(t)
    const res = await t.app.request('/api/account/personal-data', { headers: { Authorization: `Bearer ${m.member}` } })
    expect(res.status).toBe(200)
    expect(res.headers.get('Content-Disposition')).toMatch(/^attachment; filename="boligkasse-personal-data-\d{4}-\d{2}-\d{2}\.json"$/)
    expect(res.headers.get('Cache-Control')).toBe('no-store')
    const text = await res.text()
    const data = JSON.parse(text)
    expect(data.user).toMatchObject({ id: m.userId, fullName: zq.name, emailAddress: zq.email, mobileNumber: zq.mobile })
    expect(data.signInMethods.map((s: { type: string; identifier: string }) => `${s.type} ${s.identifier}`).sort()).toEqual([
      `EMAIL_PASSWORD ${zq.email}`,
      `MOBILEPAY ${zq.vippsSubject}`,
    ])
    expect(data.invoices.map((i: { kind: string }) => i.kind).sort()).toEqual(['CREDIT_NOTE', 'INVOICE'])
    expect(data.invoiceLines.length).toBeGreaterThanOrEqual(2)
    expect(data.agreements).toHaveLength(1)
    expect(data.charges).toHaveLength(1)
    expect(data.messagesSent.map((x: { subject: string }) => x.subject)).toEqual(['Vandskade'])
    expect(data.messagesReceived.map((x: { subject: string }) => x.subject)).toContain('Svar')
    expect(data.forumThreads).toHaveLength(1)
    expect(data.forumPosts.length).toBeGreaterThanOrEqual(1)
    expect(data.marketListings).toHaveLength(1)
    expect(data.lendingItems).toHaveLength(1)
    expect(data.loans).toHaveLength(2)
    expect(data.assemblyProposals).toHaveLength(1)
    expect(data.notifications.length).toBeGreaterThan(0)
    expect(data.sessions.length).toBeGreaterThan(0)
    expect(data.sessions[0]).toEqual({
      id: expect.any(String),
      via: 'password',
      createdAt: expect.any(String),
      lastUsedAt: expect.any(String),
      expiresAt: expect.any(String),
      revokedAt: null,
    })
    // No hash, token or sealed secret in any shape.
    expect(text).not.toMatch(/secret|hash|token|sealed|password_/i)
    expect(text).not.toContain('scrypt')
  })

  it('works for every role, the super admin included, and only ever shows the caller’s own data', async () => {
    const t = await testApp()
    for (const email of [demo.superadmin, demo.chairman, demo.accountant, demo.resident]) {
      const res = await t.call('GET', '/account/personal-data', { token: await t.login(email) })
      expect(res.status, email).toBe(200)
      expect(res.json.user.emailAddress).toBe(email)
    }
  })

  it('renders the same as a printable page in the member’s language, every value escaped', async () => {
    const t = await testApp()
    const m = await newMember(t, { name: '<script>alert(1)</script> Bo', email: 'bo.html@example.dk' })
    await t.db.update(users).set({ language: 'DA' }).where(eq(users.id, m.userId)).run()
    const res = await t.app.request('/api/account/personal-data.html', { headers: { Authorization: `Bearer ${await t.login('bo.html@example.dk')}` } })
    expect(res.status).toBe(200)
    expect(res.headers.get('Content-Type')).toMatch(/^text\/html/)
    expect(res.headers.get('Content-Disposition')).toMatch(/^attachment; filename="boligkasse-personal-data-.*\.html"$/)
    expect(res.headers.get('Content-Security-Policy')).toContain("default-src 'none'")
    const page = await res.text()
    expect(page).toContain('<html lang="da">')
    expect(page).toContain('Dine personoplysninger i Boligkasse')
    expect(page).toContain('Fakturaer og kreditnotaer')
    expect(page).not.toContain('<script>')
    expect(page).toContain('&lt;script&gt;alert(1)&lt;/script&gt; Bo')
  })

  it('is limited to 10 downloads an hour (JSON and page together)', async () => {
    const t = await testApp()
    const token = await t.login(demo.resident)
    for (let i = 0; i < 5; i++) {
      expect((await t.call('GET', '/account/personal-data', { token })).status).toBe(200)
      expect((await t.call('GET', '/account/personal-data.html', { token })).status).toBe(200)
    }
    const over = await t.call('GET', '/account/personal-data', { token, headers: DA })
    expect(over.status).toBe(429)
    expect(over.headers.get('Retry-After')).toBeTruthy()
    t.clock.advance(3_600_000)
    expect((await t.call('GET', '/account/personal-data', { token: await t.login(demo.resident) })).status).toBe(200)
  })
})

describe('POST /companies/{companyId}/members/{userId}/erase', () => {
  it('refuses while an agreement is active or an invoice unpaid, saying what to do first (EN and DA)', async () => {
    const t = await testApp()
    const m = await newMember(t, zq)
    const chairman = await t.login(demo.chairman)
    const active = await erase(t, chairman, m.main, m.userId)
    expect(active).toMatchObject({
      status: 409,
      json: { code: 'CONFLICT', message: 'This member still has an active agreement. Terminate it first; personal data can be erased once nothing is open.' },
    })
    const da = await erase(t, chairman, m.main, m.userId, undefined, DA)
    expect(da.status).toBe(409)
    expect(da.json.message).toBe('Medlemmet har stadig en aktiv aftale. Opsig den først; personoplysningerne kan slettes, når intet er åbent.')

    const chargeId = await acceptedWithCollectedCharge(t, m.agreementId)
    await t.db.update(agreements).set({ status: 'CLOSED' }).where(eq(agreements.id, m.agreementId)).run()
    await t.db.update(invoices).set({ status: 'FAILED' }).where(eq(invoices.chargeId, chargeId)).run()
    const unpaid = await erase(t, chairman, m.main, m.userId, undefined, DA)
    expect(unpaid).toMatchObject({ status: 409, json: { code: 'CONFLICT' } })
    expect(unpaid.json.message).toBe(
      'Medlemmet har stadig ubetalte fakturaer. Afregn eller afskriv dem først; personoplysningerne kan slettes, når intet er åbent.',
    )
    expect((await t.db.select().from(personalDataErasures).all()).length).toBe(0)
    expect((await t.db.select().from(users).where(eq(users.id, m.userId)).get())!.fullName).toBe(zq.name)

    await t.db.update(invoices).set({ status: 'EXECUTED' }).where(eq(invoices.chargeId, chargeId)).run()
    expect((await erase(t, chairman, m.main, m.userId)).status).toBe(200)
    const again = await erase(t, chairman, m.main, m.userId)
    expect(again).toMatchObject({ status: 409, json: { message: 'This member’s personal data has already been erased.' } })
  })

  it('leaves an account shared with another association to the super admin', async () => {
    const t = await testApp()
    const m = await newMember(t, zq)
    await t.db.update(agreements).set({ status: 'CLOSED' }).where(eq(agreements.id, m.agreementId)).run()
    // On the other association's board too.
    const now = t.clock.now().toISOString()
    await t.db.insert(companyMembers).values({ id: v7(), companyId: m.second, userId: m.userId, role: 'BOARDMEMBER', createdAt: now }).run()
    const chairman = await t.login(demo.chairman)
    const shared = await erase(t, chairman, m.main, m.userId, undefined, DA)
    expect(shared.status).toBe(409)
    expect(shared.json.message).toBe(
      'Medlemmet hører også til en anden forening. Kun platformens superadministrator kan slette en konto, som flere foreninger deler.',
    )
    const superadmin = await t.login(demo.superadmin)
    expect((await erase(t, superadmin, m.main, m.userId)).status).toBe(200)
    expect((await t.db.select().from(users).where(eq(users.id, m.userId)).get())!.fullName).toBe(ERASED_NAME)
  })

  it('erases a board member: the role stays under the erased name, and they can no longer sign in', async () => {
    const t = await testApp()
    const { main } = await companyIds(t)
    const boardId = (await t.db.select().from(users).where(eq(users.emailAddress, demo.boardmember)).get())!.id
    const boardToken = await t.login(demo.boardmember)
    const admin = await t.login(demo.admin)
    const res = await erase(t, admin, main, boardId, { reason: 'NO_LONGER_NEEDED', requestedOn: '2026-11-01' })
    expect(res.status, JSON.stringify(res.json)).toBe(200)
    const members = await t.call('GET', `/company/${main}/members`, { token: admin })
    const row = members.json.find((x: { userId: string }) => x.userId === boardId)
    expect(row).toMatchObject({ name: ERASED_NAME, role: 'BOARDMEMBER', phone: null })
    expect(row.email).not.toContain('bestyrelse')
    expect((await t.call('GET', '/account/info', { token: boardToken })).status).toBe(401)
    expect((await t.call('POST', '/auth/login', { body: { type: 'email', email: demo.boardmember, password: DEMO_PASSWORD } })).status).toBe(401)
  })

  it('refuses the caller themselves and a super admin; someone who is not a member is 404', async () => {
    const t = await testApp()
    const m = await newMember(t, zq)
    const chairman = await t.login(demo.chairman)
    const chairmanId = (await t.db.select().from(users).where(eq(users.emailAddress, demo.chairman)).get())!.id
    expect((await erase(t, chairman, m.main, chairmanId)).json.message).toBe('You cannot erase your own account here.')
    const outsider = (await t.db.select().from(users).where(eq(users.emailAddress, 'beboer15@solgaarden.dk')).get())!.id
    expect(await erase(t, chairman, m.main, outsider)).toMatchObject({ status: 404, json: { message: 'Member not found.' } })
    expect((await erase(t, chairman, m.main, v7())).status).toBe(404)
  })

  it('checks its input and answers in the caller’s language (EN and DA)', async () => {
    const t = await testApp()
    const m = await newMember(t, zq)
    const chairman = await t.login(demo.chairman)
    const cases: [unknown, string, string, string][] = [
      [{ reason: 'BORED', requestedOn: '2026-11-20' }, 'reason', 'Please choose one of the options', 'Vælg en af mulighederne'],
      [
        { reason: 'MEMBER_REQUEST', requestedOn: '20-11-2026' },
        'requestedOn',
        'Please enter the date the member asked, today or earlier',
        'Skriv datoen, hvor medlemmet bad om det, i dag eller tidligere',
      ],
      [
        { reason: 'MEMBER_REQUEST', requestedOn: '2026-02-30' },
        'requestedOn',
        'Please enter the date the member asked, today or earlier',
        'Skriv datoen, hvor medlemmet bad om det, i dag eller tidligere',
      ],
      [
        { reason: 'MEMBER_REQUEST', requestedOn: '2099-01-01' },
        'requestedOn',
        'Please enter the date the member asked, today or earlier',
        'Skriv datoen, hvor medlemmet bad om det, i dag eller tidligere',
      ],
      [
        { reason: 'MEMBER_REQUEST' },
        'requestedOn',
        'Please enter the date the member asked, today or earlier',
        'Skriv datoen, hvor medlemmet bad om det, i dag eller tidligere',
      ],
    ]
    for (const [body, path, en, da] of cases) {
      const r1 = await erase(t, chairman, m.main, m.userId, body, EN)
      expect(r1.status, JSON.stringify(body)).toBe(400)
      expect(r1.json.issues.find((i: { path: string }) => i.path === path)?.message, JSON.stringify(r1.json)).toBe(en)
      const r2 = await erase(t, chairman, m.main, m.userId, body, DA)
      expect(r2.json.issues.find((i: { path: string }) => i.path === path)?.message).toBe(da)
    }
    expect((await erase(t, chairman, m.main, 'not-a-uuid')).status).toBe(400)
    expect((await erase(t, chairman, m.main, m.userId, 'not json')).status).toBe(400)
  })

  it('answers 404 for another association’s company or member whatever the body, before checking it (EN and DA)', async () => {
    const t = await testApp()
    const m = await newMember(t, zq)
    const chairman = await t.login(demo.chairman)
    const otherAdmin = await t.login(demo.otherAdmin)
    const outsider = (await t.db.select().from(users).where(eq(users.emailAddress, 'beboer15@solgaarden.dk')).get())!.id
    const bodies: unknown[] = [{ reason: 'BORED' }, {}, 'not json', { reason: 'MEMBER_REQUEST', requestedOn: '2099-01-01' }]
    for (const body of bodies) {
      const what = JSON.stringify(body)
      // The other association's admin reaching into ours, and our chairman reaching into theirs.
      expect((await erase(t, otherAdmin, m.main, m.userId, body)).status, what).toBe(404)
      expect((await erase(t, chairman, m.second, m.userId, body)).status, what).toBe(404)
      // Someone who is not a member of our association, and nobody at all.
      expect(await erase(t, chairman, m.main, outsider, body, EN), what).toMatchObject({ status: 404, json: { message: 'Member not found.' } })
      expect(await erase(t, chairman, m.main, outsider, body, DA), what).toMatchObject({ status: 404, json: { message: 'Medlemmet blev ikke fundet.' } })
      expect((await erase(t, chairman, m.main, v7(), body)).status, what).toBe(404)
      // Our own member still gets the body checked.
      expect((await erase(t, chairman, m.main, m.userId, body)).status, what).toBe(400)
    }
    // Nothing was erased on the way.
    expect(await t.db.select().from(personalDataErasures).all()).toEqual([])
  })
})
