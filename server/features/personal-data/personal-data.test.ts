import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { v7 } from 'uuid'
import { agreements } from '../../db/schema/agreements'
import { invoices } from '../../db/schema/invoices'
import { companyMembers } from '../../db/schema/companies'
import { personalDataErasureRequests, personalDataErasures } from '../../db/schema/erasures'
import { users } from '../../db/schema/users'
import { demo, testApp, type TestApp } from '../../test/harness'
import { companyIds } from '../companies/test-helpers'
import { acceptedWithCollectedCharge } from '../agreements/test-helpers'
import { ERASED_NAME } from '../../../shared/contract/personal-data'
import { approveRequest, memberWithDataEverywhere, newMember, recordRequest, zq } from './test-helpers'

const EN = { 'Accept-Language': 'en' }
const DA = { 'Accept-Language': 'da' }
const userIdOf = async (t: TestApp, email: string) => (await t.db.select().from(users).where(eq(users.emailAddress, email)).get())!.id
const file = async (t: TestApp, token: string, companyId: string, headers = EN) =>
  t.call('POST', '/account/erasure-requests', { token, body: { companyId }, headers: { 'Idempotency-Key': v7(), ...headers } })
const reject = async (t: TestApp, who: string, companyId: string, requestId: string, body: unknown = { note: 'Wrong member' }, headers = EN) =>
  t.call('POST', `/companies/${companyId}/erasure-requests/${requestId}/reject`, {
    token: await t.login(who),
    body,
    headers: { 'Idempotency-Key': v7(), ...headers },
  })

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

describe('erasure only on request: approving (decision 0080)', () => {
  it('refuses while an agreement is active or an invoice unpaid, saying what to do first (EN and DA); then erases once', async () => {
    const t = await testApp()
    const m = await newMember(t, zq)
    const recorded = await recordRequest(t, demo.admin, m.main, m.userId)
    expect(recorded.status).toBe(201)
    const id = recorded.json.id as string
    const active = await approveRequest(t, demo.chairman, m.main, id)
    expect(active).toMatchObject({
      status: 409,
      json: { code: 'CONFLICT', message: 'This member still has an active agreement. Terminate it first; personal data can be erased once nothing is open.' },
    })
    const da = await approveRequest(t, demo.chairman, m.main, id, DA)
    expect(da.json.message).toBe('Medlemmet har stadig en aktiv aftale. Opsig den først; personoplysningerne kan slettes, når intet er åbent.')

    const chargeId = await acceptedWithCollectedCharge(t, m.agreementId)
    await t.db.update(agreements).set({ status: 'CLOSED' }).where(eq(agreements.id, m.agreementId)).run()
    await t.db.update(invoices).set({ status: 'FAILED' }).where(eq(invoices.chargeId, chargeId)).run()
    const unpaid = await approveRequest(t, demo.chairman, m.main, id, DA)
    expect(unpaid).toMatchObject({ status: 409, json: { code: 'CONFLICT' } })
    expect(unpaid.json.message).toBe(
      'Medlemmet har stadig ubetalte fakturaer. Afregn eller afskriv dem først; personoplysningerne kan slettes, når intet er åbent.',
    )
    expect((await t.db.select().from(personalDataErasures).all()).length).toBe(0)
    expect((await t.db.select().from(users).where(eq(users.id, m.userId)).get())!.fullName).toBe(zq.name)

    await t.db.update(invoices).set({ status: 'EXECUTED' }).where(eq(invoices.chargeId, chargeId)).run()
    const approved = await approveRequest(t, demo.chairman, m.main, id)
    expect(approved.status, JSON.stringify(approved.json)).toBe(200)
    const chairmanId = await userIdOf(t, demo.chairman)
    expect(approved.json).toMatchObject({ status: 'APPROVED', decidedByUserId: chairmanId, personName: ERASED_NAME, erasureId: expect.any(String) })
    const [log] = await t.db.select().from(personalDataErasures).all()
    expect(log).toMatchObject({
      id: approved.json.erasureId,
      userId: m.userId,
      reason: 'MEMBER_REQUEST',
      requestedOn: '2026-11-20',
      erasedByUserId: chairmanId,
    })
    const again = await approveRequest(t, demo.superadmin, m.main, id)
    expect(again).toMatchObject({ status: 409, json: { code: 'INVALID_STATE', message: 'This request has already been decided.' } })
    const anew = await recordRequest(t, demo.admin, m.main, m.userId)
    expect(anew).toMatchObject({ status: 409, json: { message: 'This member’s personal data has already been erased.' } })
  })

  it('leaves an account shared with another association to the super admin', async () => {
    const t = await testApp()
    const m = await newMember(t, zq)
    await t.db.update(agreements).set({ status: 'CLOSED' }).where(eq(agreements.id, m.agreementId)).run()
    // A former resident of the other association too.
    const row = (await t.db.select().from(agreements).where(eq(agreements.id, m.agreementId)).get())!
    await t.db
      .insert(agreements)
      .values({ ...row, id: v7(), companyId: m.second, externalSeq: row.externalSeq + 100_000 })
      .run()
    const recorded = await recordRequest(t, demo.admin, m.main, m.userId)
    const shared = await approveRequest(t, demo.chairman, m.main, recorded.json.id, DA)
    expect(shared.status).toBe(409)
    expect(shared.json.message).toBe(
      'Medlemmet hører også til en anden forening. Kun platformens superadministrator kan slette en konto, som flere foreninger deler.',
    )
    expect((await approveRequest(t, demo.superadmin, m.main, recorded.json.id)).status).toBe(200)
    expect((await t.db.select().from(users).where(eq(users.id, m.userId)).get())!.fullName).toBe(ERASED_NAME)
  })

  it('the same person cannot approve what they recorded, nor their own data: a second pair of eyes approves', async () => {
    const t = await testApp()
    const m = await newMember(t, zq)
    await t.db.update(agreements).set({ status: 'CLOSED' }).where(eq(agreements.id, m.agreementId)).run()
    const recorded = await recordRequest(t, demo.admin, m.main, m.userId)
    const own = await approveRequest(t, demo.admin, m.main, recorded.json.id)
    expect(own).toMatchObject({
      status: 422,
      json: { code: 'BUSINESS_RULE', message: 'You recorded this request yourself. Another staff member must approve it.' },
    })
    const ownDa = await approveRequest(t, demo.admin, m.main, recorded.json.id, DA)
    expect(ownDa.json.message).toBe('Du har selv registreret anmodningen. En anden fra bestyrelsen eller administrationen skal godkende den.')
    // A board member and the accountant see and record requests, but do not approve them.
    expect((await approveRequest(t, demo.boardmember, m.main, recorded.json.id)).status).toBe(403)
    expect((await approveRequest(t, demo.accountant, m.main, recorded.json.id)).status).toBe(403)
    expect((await t.db.select().from(personalDataErasures).all()).length).toBe(0)
    const approved = await approveRequest(t, demo.chairman, m.main, recorded.json.id)
    expect(approved.status).toBe(200)
    // The audit: who recorded it, by which channel and for which day, who approved it and when.
    const list = await t.call('GET', `/companies/${m.main}/erasure-requests`, { token: await t.login(demo.boardmember) })
    expect(list.status).toBe(200)
    expect(list.json[0]).toMatchObject({
      id: recorded.json.id,
      channel: 'LETTER',
      requestedOn: '2026-11-20',
      recordedByUserId: await userIdOf(t, demo.admin),
      recordedByName: expect.any(String),
      status: 'APPROVED',
      decidedByUserId: await userIdOf(t, demo.chairman),
      decidedAt: t.clock.now().toISOString(),
      personName: ERASED_NAME,
    })
  })
})

describe('erasure only on request: who can never be erased (decision 0080)', () => {
  it('refuses staff while they hold the role, and tells the last chairman or administrator to hand it on (EN and DA)', async () => {
    const t = await testApp()
    const { main } = await companyIds(t)
    const board = await userIdOf(t, demo.boardmember)
    const staff = await recordRequest(t, demo.admin, main, board)
    expect(staff).toMatchObject({
      status: 422,
      json: {
        code: 'BUSINESS_RULE',
        message: 'A member of an association’s staff cannot be erased while they hold the role. The role must be taken away first.',
      },
    })
    const staffDa = await recordRequest(t, demo.admin, main, board, DA)
    expect(staffDa.json.message).toBe(
      'Et medlem af en forenings bestyrelse eller administration kan ikke slettes, så længe rollen består. Rollen skal fjernes først.',
    )
    // Their own request from the profile is refused the same way.
    expect((await file(t, await t.login(demo.boardmember), main)).json.message).toBe(staff.json.message)

    // The chairman, once the administrator is no longer one: the last who manages the association.
    const chairman = await userIdOf(t, demo.chairman)
    await t.db
      .update(companyMembers)
      .set({ role: 'ACCOUNTANT' })
      .where(eq(companyMembers.userId, await userIdOf(t, demo.admin)))
      .run()
    const last = await recordRequest(t, demo.superadmin, main, chairman)
    expect(last).toMatchObject({
      status: 422,
      json: { message: 'The association’s last chairman or administrator cannot be erased. The role must be handed to someone else first.' },
    })
    const lastDa = await recordRequest(t, demo.superadmin, main, chairman, DA)
    expect(lastDa.json.message).toBe('Foreningens sidste formand eller administrator kan ikke slettes. Rollen skal først gives videre til en anden.')
    expect(await t.db.select().from(personalDataErasureRequests).all()).toEqual([])
    expect((await t.db.select().from(users).where(eq(users.id, chairman)).get())!.fullName).not.toBe(ERASED_NAME)
  })

  it('refuses at approval a member who became staff after asking', async () => {
    const t = await testApp()
    const m = await newMember(t, zq)
    await t.db.update(agreements).set({ status: 'CLOSED' }).where(eq(agreements.id, m.agreementId)).run()
    const recorded = await recordRequest(t, demo.admin, m.main, m.userId)
    await t.db
      .insert(companyMembers)
      .values({ id: v7(), companyId: m.main, userId: m.userId, role: 'BOARDMEMBER', createdAt: t.clock.now().toISOString() })
      .run()
    const refused = await approveRequest(t, demo.chairman, m.main, recorded.json.id)
    expect(refused).toMatchObject({ status: 422, json: { code: 'BUSINESS_RULE' } })
    expect((await t.db.select().from(personalDataErasureRequests).get())!.status).toBe('PENDING')
    expect(await t.db.select().from(personalDataErasures).all()).toEqual([])
  })

  it('refuses a super admin; someone who is not a member is 404', async () => {
    const t = await testApp()
    const m = await newMember(t, zq)
    const superadmin = await userIdOf(t, demo.superadmin)
    // The super admin is no member of the association: 404 like anyone else who is not.
    expect((await recordRequest(t, demo.chairman, m.main, superadmin)).status).toBe(404)
    const outsider = await userIdOf(t, 'beboer15@solgaarden.dk')
    expect(await recordRequest(t, demo.chairman, m.main, outsider)).toMatchObject({ status: 404, json: { message: 'Member not found.' } })
    expect(await recordRequest(t, demo.chairman, m.main, outsider, DA)).toMatchObject({ status: 404, json: { message: 'Medlemmet blev ikke fundet.' } })
    expect((await recordRequest(t, demo.chairman, m.main, v7())).status).toBe(404)
  })
})

describe('erasure only on request: the member asks (decision 0080)', () => {
  it('files from the profile, sees it waiting, cannot file twice, and withdraws it; staff see who asked', async () => {
    const t = await testApp()
    const m = await newMember(t, zq)
    const member = await t.login(zq.email)
    const filed = await file(t, member, m.main)
    expect(filed.status, JSON.stringify(filed.json)).toBe(201)
    expect(filed.json).toMatchObject({
      companyId: m.main,
      userId: m.userId,
      channel: 'APP',
      recordedByUserId: m.userId,
      status: 'PENDING',
      personName: zq.name,
    })
    expect(filed.json.requestedOn).toBe(t.clock.now().toISOString().slice(0, 10))
    expect(await file(t, member, m.main, DA)).toMatchObject({
      status: 409,
      json: { message: 'Der venter allerede en anmodning om at slette medlemmets personoplysninger på godkendelse.' },
    })
    expect((await t.call('GET', '/account/erasure-requests', { token: member })).json).toMatchObject({
      companies: [{ id: m.main }],
      requests: [{ id: filed.json.id, status: 'PENDING' }],
    })
    const staffList = await t.call('GET', `/companies/${m.main}/erasure-requests`, { token: await t.login(demo.accountant) })
    expect(staffList.json).toMatchObject([{ id: filed.json.id, channel: 'APP', personName: zq.name, recordedByName: zq.name }])
    // Nobody else withdraws it: another member's request is not found.
    const notTheirs = await t.call('POST', `/account/erasure-requests/${filed.json.id}/withdraw`, { token: await t.login(demo.chairman), headers: EN })
    expect(notTheirs).toMatchObject({ status: 404, json: { message: 'Erasure request not found.' } })
    const withdrawn = await t.call('POST', `/account/erasure-requests/${filed.json.id}/withdraw`, { token: member })
    expect(withdrawn.json).toMatchObject({ status: 'WITHDRAWN', decidedByUserId: m.userId })
    const twice = await t.call('POST', `/account/erasure-requests/${filed.json.id}/withdraw`, { token: member, headers: DA })
    expect(twice).toMatchObject({ status: 409, json: { code: 'INVALID_STATE', message: 'Anmodningen er allerede afgjort.' } })
    expect((await approveRequest(t, demo.chairman, m.main, filed.json.id)).status).toBe(409)
    // A new one may be filed once the first is decided; a company the member does not belong to is 404.
    expect((await file(t, member, m.main)).status).toBe(201)
    expect((await file(t, member, m.second)).status).toBe(404)
  })

  it('staff reject with a reason; who recorded a request may cancel it; the accountant and board members decide no other', async () => {
    const t = await testApp()
    const m = await newMember(t, zq)
    const filed = await file(t, await t.login(zq.email), m.main)
    expect((await reject(t, demo.boardmember, m.main, filed.json.id)).status).toBe(403)
    expect((await reject(t, demo.accountant, m.main, filed.json.id)).status).toBe(403)
    // Someone who is no member of the association finds nothing.
    expect((await reject(t, demo.resident, m.main, filed.json.id)).status).toBe(404)
    const rejected = await reject(t, demo.chairman, m.main, filed.json.id, { note: '  Asked by someone else  ' })
    expect(rejected.json).toMatchObject({ status: 'REJECTED', decisionNote: 'Asked by someone else', decidedByUserId: await userIdOf(t, demo.chairman) })
    // A board member recorded one by mistake, and cancels it.
    const recorded = await recordRequest(t, demo.boardmember, m.main, m.userId, {}, { channel: 'PHONE', requestedOn: '2026-11-19' })
    expect(recorded.status).toBe(201)
    expect((await reject(t, demo.boardmember, m.main, recorded.json.id, { note: 'Wrong member' })).json).toMatchObject({ status: 'REJECTED' })
    expect(await t.db.select().from(personalDataErasures).all()).toEqual([])
  })
})

describe('erasure only on request: input and reach', () => {
  it('checks its input and answers in the caller’s language (EN and DA)', async () => {
    const t = await testApp()
    const m = await newMember(t, zq)
    const dateEn = 'Please enter the date the member asked, today or earlier'
    const dateDa = 'Skriv datoen, hvor medlemmet bad om det, i dag eller tidligere'
    const cases: [Record<string, unknown>, string, string, string][] = [
      [{ channel: 'APP', requestedOn: '2026-11-20' }, 'channel', 'Please choose one of the options', 'Vælg en af mulighederne'],
      [{ channel: 'PIGEON', requestedOn: '2026-11-20' }, 'channel', 'Please choose one of the options', 'Vælg en af mulighederne'],
      [{ channel: 'LETTER', requestedOn: '20-11-2026' }, 'requestedOn', dateEn, dateDa],
      [{ channel: 'LETTER', requestedOn: '2026-02-30' }, 'requestedOn', dateEn, dateDa],
      [{ channel: 'LETTER', requestedOn: '2099-01-01' }, 'requestedOn', dateEn, dateDa],
      [{ channel: 'LETTER' }, 'requestedOn', dateEn, dateDa],
    ]
    for (const [body, path, en, da] of cases) {
      const r1 = await recordRequest(t, demo.chairman, m.main, m.userId, EN, body)
      expect(r1.status, JSON.stringify(body)).toBe(400)
      expect(r1.json.issues.find((i: { path: string }) => i.path === path)?.message, JSON.stringify(r1.json)).toBe(en)
      const r2 = await recordRequest(t, demo.chairman, m.main, m.userId, DA, body)
      expect(r2.json.issues.find((i: { path: string }) => i.path === path)?.message).toBe(da)
    }
    const recorded = await recordRequest(t, demo.chairman, m.main, m.userId)
    for (const body of [{}, { note: '   ' }, { note: 'x'.repeat(501) }]) {
      const r = await reject(t, demo.admin, m.main, recorded.json.id, body, DA)
      expect(r.status, JSON.stringify(body)).toBe(400)
      expect(r.json.issues[0].message).toBe('Skriv, hvorfor anmodningen afvises (højst 500 tegn)')
    }
    expect((await approveRequest(t, demo.admin, m.main, 'not-a-uuid')).status).toBe(400)
  })

  it('answers 404 for another association’s company or request whatever the body, before checking it (EN and DA)', async () => {
    const t = await testApp()
    const m = await newMember(t, zq)
    const recorded = await recordRequest(t, demo.chairman, m.main, m.userId)
    const id = recorded.json.id as string
    for (const body of [{ note: '' }, {}, 'not json', { note: 'ok' }]) {
      const what = JSON.stringify(body)
      // The other association's admin reaching into ours, and our admin reaching into theirs with our request.
      expect((await reject(t, demo.otherAdmin, m.main, id, body)).status, what).toBe(404)
      expect(await reject(t, demo.admin, m.second, id, body), what).toMatchObject({ status: 404 })
      expect(await reject(t, demo.superadmin, m.second, id, body, DA), what).toMatchObject({
        status: 404,
        json: { message: 'Anmodningen om sletning blev ikke fundet.' },
      })
      expect((await reject(t, demo.admin, m.main, v7(), body)).status, what).toBe(404)
    }
    expect((await approveRequest(t, demo.otherAdmin, m.main, id)).status).toBe(404)
    expect((await approveRequest(t, demo.superadmin, m.second, id)).status).toBe(404)
    for (const body of [{ channel: 'PIGEON' }, {}, 'not json']) {
      expect((await t.call('POST', `/companies/${m.main}/erasure-requests`, { token: await t.login(demo.otherAdmin), body, headers: EN })).status).toBe(404)
    }
    // Another association's requests are never listed.
    expect((await t.call('GET', `/companies/${m.main}/erasure-requests`, { token: await t.login(demo.otherAdmin) })).status).toBe(404)
    const theirs = await t.call('GET', `/companies/${m.second}/erasure-requests`, { token: await t.login(demo.otherAdmin) })
    expect(theirs).toMatchObject({ status: 200, json: [] })
    // Nothing was decided or erased on the way.
    expect((await t.db.select().from(personalDataErasureRequests).get())!.status).toBe('PENDING')
    expect(await t.db.select().from(personalDataErasures).all()).toEqual([])
  })
})
