import { describe, expect, it } from 'vitest'
import { eq } from 'drizzle-orm'
import { DEMO_PASSWORD, demo, testApp } from '../../test/harness'
import { authMethods, users } from '../../db/schema/users'
import { newId } from '../../lib/ids'

describe('GET /api/account/info and /profile', () => {
  it('returns the user with companies, the current company and an ETag', async () => {
    const t = await testApp()
    const token = await t.login(demo.admin)
    const res = await t.call('GET', '/account/info', { token })
    expect(res.status).toBe(200)
    expect(res.headers.get('ETag')).toBe('"1"')
    expect(res.json).toMatchObject({
      fullName: 'Anders Nielsen',
      emailAddress: demo.admin,
      userRole: 'MEMBER',
      language: 'EN',
      companies: [{ name: 'Andelsboligforeningen Solgården', role: 'ADMINISTRATOR' }],
      currentCompany: { name: 'Andelsboligforeningen Solgården' },
      version: 1,
    })
  })

  it('lists sign-in methods without any secret', async () => {
    const t = await testApp()
    const token = await t.login(demo.admin)
    const res = await t.call('GET', '/account/profile', { token })
    expect(res.json.authMethods.map((m: { type: string }) => m.type).sort()).toEqual(['EMAIL_PASSWORD', 'LOGIN_TOKEN'])
    const raw = JSON.stringify(res.json)
    expect(raw).not.toMatch(/scrypt|secret|lookup/i)
  })

  it('needs a signed-in user for every account route', async () => {
    const t = await testApp()
    for (const [m, p] of [
      ['GET', '/account/info'],
      ['PUT', '/account/info'],
      ['GET', '/account/profile'],
      ['PATCH', '/account/profile/fullName'],
      ['POST', '/account/current-company'],
      ['POST', '/account/auth-methods'],
      ['DELETE', `/account/auth-methods/${newId()}`],
      ['GET', '/account/users?email=abc'],
    ] as const) {
      const res = await t.call(m, p, { body: m === 'GET' || m === 'DELETE' ? undefined : {} })
      expect(res.status, `${m} ${p}`).toBe(401)
    }
  })
})

describe('PATCH /api/account/profile/{field}', () => {
  it('changes each field and bumps the version', async () => {
    const t = await testApp()
    const token = await t.login(demo.admin)
    await t.call('PATCH', '/account/profile/fullName', { token, body: { value: '  Anders B. Nielsen ' } })
    await t.call('PATCH', '/account/profile/mobileNumber', { token, body: { value: '+45 12 34 56 78' } })
    const res = await t.call('PATCH', '/account/profile/language', { token, body: { value: 'DA' } })
    expect(res.status).toBe(200)
    expect(res.json).toMatchObject({ fullName: 'Anders B. Nielsen', mobileNumber: '+45 12 34 56 78', language: 'DA', version: 4 })
  })

  it('moves the e-mail sign-in to a new address once the link sent there is clicked, and refuses one in use', async () => {
    const t = await testApp()
    const token = await t.login(demo.admin)
    const taken = await t.call('PATCH', '/account/profile/emailAddress', { token, body: { value: demo.chairman, currentPassword: DEMO_PASSWORD } })
    expect(taken.status).toBe(409)
    expect(taken.json.message).toBe('This e-mail address is already in use.')
    const ok = await t.call('PATCH', '/account/profile/emailAddress', { token, body: { value: 'Anders@Solgaarden.dk', currentPassword: DEMO_PASSWORD } })
    expect(ok.json).toMatchObject({ emailAddress: demo.admin, pendingEmailAddress: 'anders@solgaarden.dk' })
    const link = (await t.mails()).find((m) => m.to === 'anders@solgaarden.dk')!.text.match(/confirm-email\?token=([\w%-]+)/)![1]!
    expect((await t.call('POST', '/auth/confirm-email', { body: { token: decodeURIComponent(link) } })).status).toBe(200)
    expect((await t.call('GET', '/account/profile', { token })).json).toMatchObject({ emailAddress: 'anders@solgaarden.dk', pendingEmailAddress: null })
    await t.login('anders@solgaarden.dk')
  })

  it("refuses invalid values with the field message, in the user's language", async () => {
    const t = await testApp()
    const token = await t.login(demo.chairman)
    const res = await t.call('PATCH', '/account/profile/emailAddress', { token, body: { value: 'nope' } })
    expect(res.status).toBe(400)
    expect(res.json.issues).toEqual([{ path: 'emailAddress', message: 'Indtast en gyldig e-mailadresse' }])
    const lang = await t.call('PATCH', '/account/profile/language', { token, body: { value: 'FR' } })
    expect(lang.status).toBe(400)
    const unknownField = await t.call('PATCH', '/account/profile/userRole', { token, body: { value: 'SUPERADMIN' } })
    expect(unknownField.status).toBe(400)
  })

  it('answers 412 with the current profile when If-Match is stale', async () => {
    const t = await testApp()
    const token = await t.login(demo.admin)
    await t.call('PATCH', '/account/profile/fullName', { token, body: { value: 'First' }, headers: { 'If-Match': '"1"' } })
    const stale = await t.call('PATCH', '/account/profile/fullName', { token, body: { value: 'Second' }, headers: { 'If-Match': '"1"' } })
    expect(stale.status).toBe(412)
    expect(stale.json.code).toBe('VERSION_CONFLICT')
    expect(stale.json.current).toMatchObject({ fullName: 'First', version: 2 })
  })

  it('PUT /account/info updates several fields at once', async () => {
    const t = await testApp()
    const token = await t.login(demo.resident)
    const res = await t.call('PUT', '/account/info', { token, body: { fullName: 'Sofie J.', language: 'EN' } })
    expect(res.status).toBe(200)
    expect(res.json).toMatchObject({ fullName: 'Sofie J.', language: 'EN', userRole: 'USER', companies: [], currentCompany: null })
  })
})

describe('POST /api/account/current-company', () => {
  it('switches to a company the user belongs to, and 404s for any other', async () => {
    const t = await testApp()
    const admin = await t.login(demo.admin)
    const other = await t.login(demo.otherAdmin)
    const otherCompany = (await t.call('GET', '/account/info', { token: other })).json.currentCompany.id
    const own = (await t.call('GET', '/account/info', { token: admin })).json.currentCompany.id
    expect((await t.call('POST', '/account/current-company', { token: admin, body: { companyId: otherCompany } })).status).toBe(404)
    const ok = await t.call('POST', '/account/current-company', { token: admin, body: { companyId: own } })
    expect(ok.status).toBe(200)
    expect(ok.json.currentCompany.id).toBe(own)
  })
})

describe('authentication methods', () => {
  it('validates a new password method with the messages of docs/PRODUCT.md §5', async () => {
    const t = await testApp()
    const token = await t.login(demo.admin)
    const res = await t.call('POST', '/account/auth-methods', { token, body: { type: 'EMAIL_PASSWORD', identifier: '', secret: 'abc', confirmSecret: 'abd' } })
    expect(res.status).toBe(400)
    expect(res.json.issues).toEqual([
      { path: 'identifier', message: 'This field is required' },
      { path: 'secret', message: 'Password must be at least 6 characters' },
      { path: 'confirmSecret', message: 'Passwords do not match' },
    ])
    const missing = await t.call('POST', '/account/auth-methods', { token, body: { type: 'PHONE_PASSWORD', identifier: '+4512345678' } })
    expect(missing.json.issues).toEqual([
      { path: 'secret', message: 'Password is required' },
      { path: 'confirmSecret', message: 'Please confirm your password' },
    ])
    const common = await t.call('POST', '/account/auth-methods', {
      token,
      body: { type: 'PHONE_PASSWORD', identifier: '+4512345678', secret: 'qwerty123', confirmSecret: 'qwerty123' },
    })
    expect(common.status).toBe(400)
  })

  it('generates a login token that is shown once and signs in', async () => {
    const t = await testApp()
    const token = await t.login(demo.resident)
    const res = await t.call('POST', '/account/auth-methods', { token, body: { type: 'LOGIN_TOKEN', identifier: 'Tablet', currentPassword: DEMO_PASSWORD } })
    expect(res.status).toBe(201)
    expect(res.json.data).toMatchObject({ type: 'LOGIN_TOKEN', identifier: 'Tablet' })
    expect(res.json.data.token).toMatch(/^[A-Za-z0-9_-]{43}$/)
    const profile = await t.call('GET', '/account/profile', { token })
    expect(JSON.stringify(profile.json)).not.toContain(res.json.data.token)
    const login = await t.call('POST', '/auth/login', { body: { type: 'token', token: res.json.data.token } })
    expect(login.status).toBe(200)
  })

  it('adds a second e-mail sign-in that works once confirmed, and refuses one already taken', async () => {
    const t = await testApp()
    const token = await t.login(demo.resident)
    const body = {
      type: 'EMAIL_PASSWORD',
      identifier: 'sofie@example.dk',
      secret: 'Sofies-kode-9',
      confirmSecret: 'Sofies-kode-9',
      currentPassword: DEMO_PASSWORD,
    }
    expect((await t.call('POST', '/account/auth-methods', { token, body })).status).toBe(201)
    const link = (await t.mails()).find((m) => m.to === 'sofie@example.dk')!.text.match(/confirm-email\?token=([\w%-]+)/)![1]!
    expect((await t.call('POST', '/auth/confirm-email', { body: { token: decodeURIComponent(link) } })).status).toBe(200)
    await t.login('sofie@example.dk', 'Sofies-kode-9')
    const dup = await t.call('POST', '/account/auth-methods', { token, body: { ...body, identifier: demo.admin } })
    expect(dup.status).toBe(409)
  })

  it("never removes a MOBILEPAY method, the last method, or another user's method", async () => {
    const t = await testApp()
    const token = await t.login(demo.resident)
    const me = (await t.call('GET', '/account/info', { token })).json.id
    const mobilepay = newId()
    await t.db
      .insert(authMethods)
      .values({ id: mobilepay, userId: me, type: 'MOBILEPAY', identifier: 'vipps-sub-1', createdAt: '2026-11-23T09:00:00.000Z' })
      .run()
    expect((await t.call('DELETE', `/account/auth-methods/${mobilepay}`, { token })).status).toBe(422)
    await t.db.delete(authMethods).where(eq(authMethods.id, mobilepay)).run()
    const own = (await t.call('GET', '/account/profile', { token })).json.authMethods[0].id
    const last = await t.call('DELETE', `/account/auth-methods/${own}`, { token })
    expect(last.status).toBe(422)
    expect(last.json.message).toBe('Du kan ikke fjerne din sidste loginmetode.')
    const admin = await t.login(demo.admin)
    expect((await t.call('DELETE', `/account/auth-methods/${own}`, { token: admin })).status).toBe(404)
  })

  it('removes a method the user has more of', async () => {
    const t = await testApp()
    const token = await t.login(demo.admin)
    const tokenMethod = (await t.call('GET', '/account/profile', { token })).json.authMethods.find((m: { type: string }) => m.type === 'LOGIN_TOKEN')
    expect((await t.call('DELETE', `/account/auth-methods/${tokenMethod.id}`, { token, body: { currentPassword: DEMO_PASSWORD } })).status).toBe(204)
    expect((await t.call('GET', '/account/profile', { token })).json.authMethods).toHaveLength(1)
  })
})

describe('user rows', () => {
  it('keep e-mails unique and lower-cased', async () => {
    const t = await testApp()
    const all = await t.db.select().from(users).all()
    expect(all.every((u) => u.emailAddress === u.emailAddress.toLowerCase())).toBe(true)
  })
})

describe('names are plain text', () => {
  it('refuses control characters and bidi overrides in the full name, and names the limit', async () => {
    const t = await testApp()
    const token = await t.login(demo.admin)
    for (const value of ['Bo\u0000', 'Bo\r\nSet-Cookie: x', 'Bo \u202Egnip']) {
      const res = await t.call('PATCH', '/account/profile/fullName', { token, body: { value } })
      expect(res.status, JSON.stringify(value)).toBe(400)
    }
    const long = await t.call('PATCH', '/account/profile/fullName', { token, body: { value: 'x'.repeat(201) } })
    expect(long.json.issues).toEqual([{ path: 'fullName', message: 'At most 200 characters' }])
  })
})
