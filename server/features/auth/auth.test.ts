import { describe, expect, it } from 'vitest'
import { demo, DEMO_PASSWORD, testApp } from '../../test/harness'
import { DEMO_LOGIN_TOKEN } from '../../db/seed'

const resetTokenFrom = (text: string) => decodeURIComponent(/token=([^&\s]+)/.exec(text)![1]!)

describe('POST /api/auth/login', () => {
  it('signs in with e-mail and password and returns an opaque token with a 30-day expiry', async () => {
    const t = await testApp()
    const res = await t.call('POST', '/auth/login', { body: { type: 'email', email: 'ADMIN@solgaarden.dk ', password: DEMO_PASSWORD } })
    expect(res.status).toBe(200)
    expect(res.json.accessToken).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(res.json.expiresAt).toBe('2026-12-23T09:00:00.000Z')
    const info = await t.call('GET', '/account/info', { token: res.json.accessToken })
    expect(info.json.emailAddress).toBe(demo.admin)
  })

  it('answers the same 401 "Login failed." for an unknown e-mail and a wrong password', async () => {
    const t = await testApp()
    const unknown = await t.call('POST', '/auth/login', { body: { type: 'email', email: 'nobody@example.dk', password: 'whatever1' } })
    const wrong = await t.call('POST', '/auth/login', { body: { type: 'email', email: demo.admin, password: 'wrong-password' } })
    expect(unknown.status).toBe(401)
    expect(wrong.status).toBe(401)
    expect(unknown.json).toEqual({ message: 'Login failed.', code: 'INVALID_CREDENTIALS' })
    expect(wrong.json).toEqual(unknown.json)
  })

  it('answers in Danish when the client asks for Danish', async () => {
    const t = await testApp()
    const res = await t.call('POST', '/auth/login', { body: { type: 'email', email: 'x@y.dk', password: 'nope123' }, headers: { 'Accept-Language': 'da' } })
    expect(res.json.message).toBe('Login mislykkedes.')
  })

  it('signs in with a login token outside production only', async () => {
    const dev = await testApp()
    const ok = await dev.call('POST', '/auth/login', { body: { type: 'token', token: DEMO_LOGIN_TOKEN } })
    expect(ok.status).toBe(200)
    const prod = await testApp({ APP_ENV: 'production' })
    const refused = await prod.call('POST', '/auth/login', { body: { type: 'token', token: DEMO_LOGIN_TOKEN } })
    expect(refused.status).toBe(401)
  })

  it('validates the body with the field messages', async () => {
    const t = await testApp()
    const res = await t.call('POST', '/auth/login', { body: { type: 'email', email: 'not-an-email', password: '' } })
    expect(res.status).toBe(400)
    expect(res.json.code).toBe('VALIDATION_FAILED')
    expect(res.json.issues).toEqual(
      expect.arrayContaining([
        { path: 'email', message: 'Please enter a valid email address' },
        { path: 'password', message: 'Password is required' },
      ]),
    )
  })

  it('rate limits per account and per IP with Retry-After', async () => {
    const t = await testApp()
    for (let i = 0; i < 10; i++) {
      const r = await t.call('POST', '/auth/login', { body: { type: 'email', email: demo.chairman, password: 'wrong-pass' } })
      expect(r.status).toBe(401)
    }
    const limited = await t.call('POST', '/auth/login', { body: { type: 'email', email: demo.chairman, password: DEMO_PASSWORD } })
    expect(limited.status).toBe(429)
    expect(limited.json.code).toBe('RATE_LIMITED')
    expect(Number(limited.headers.get('Retry-After'))).toBeGreaterThan(0)
    t.clock.advance(15 * 60 * 1000)
    const later = await t.call('POST', '/auth/login', { body: { type: 'email', email: demo.chairman, password: DEMO_PASSWORD } })
    expect(later.status).toBe(200)
  })
})

describe('sessions', () => {
  it('refuses a missing, unknown or revoked token with 401', async () => {
    const t = await testApp()
    expect((await t.call('GET', '/account/info')).status).toBe(401)
    expect((await t.call('GET', '/account/info', { token: 'x'.repeat(43) })).json.code).toBe('UNAUTHENTICATED')
    const token = await t.login(demo.admin)
    expect((await t.call('POST', '/auth/logout', { token })).status).toBe(204)
    expect((await t.call('GET', '/account/info', { token })).status).toBe(401)
  })

  it('expires after 30 days without use and slides forward while used', async () => {
    const t = await testApp()
    const token = await t.login(demo.admin)
    t.clock.advance(20 * 24 * 3600 * 1000)
    expect((await t.call('GET', '/account/info', { token })).status).toBe(200)
    t.clock.advance(20 * 24 * 3600 * 1000)
    expect((await t.call('GET', '/account/info', { token })).status).toBe(200)
    t.clock.advance(31 * 24 * 3600 * 1000)
    expect((await t.call('GET', '/account/info', { token })).status).toBe(401)
  })
})

describe('password reset', () => {
  it('gives the same answer for unknown e-mails and mails a one-hour link for known ones', async () => {
    const t = await testApp()
    const unknown = await t.call('POST', '/auth/forgot-password', { body: { email: 'nobody@example.dk' } })
    const known = await t.call('POST', '/auth/forgot-password', { body: { email: demo.admin } })
    expect(unknown.status).toBe(200)
    expect(known.json).toEqual(unknown.json)
    const mails = await t.mails()
    expect(mails).toHaveLength(1)
    expect(mails[0]!.to).toBe(demo.admin)
    expect(mails[0]!.subject).toBe('Reset your Boligkasse password')
    expect(mails[0]!.text).toContain('http://localhost:3000/reset-password?token=')
  })

  it("writes the e-mail in the user's language", async () => {
    const t = await testApp()
    await t.call('POST', '/auth/forgot-password', { body: { email: demo.chairman } })
    expect((await t.mails())[0]!.subject).toBe('Nulstil din adgangskode til Boligkasse')
  })

  it('sets the new password once, signs out everywhere and refuses the used link', async () => {
    const t = await testApp()
    const oldSession = await t.login(demo.admin)
    await t.call('POST', '/auth/forgot-password', { body: { email: demo.admin } })
    const token = resetTokenFrom((await t.mails())[0]!.text)
    const done = await t.call('POST', '/auth/reset-password', { body: { token, email: demo.admin, newPassword: 'a-new-Passw0rd' } })
    expect(done.status).toBe(200)
    expect(done.json.message).toBe('Your password has been changed. You can now sign in.')
    expect((await t.call('GET', '/account/info', { token: oldSession })).status).toBe(401)
    await t.login(demo.admin, 'a-new-Passw0rd')
    const again = await t.call('POST', '/auth/reset-password', { body: { token, newPassword: 'another-Passw0rd' } })
    expect(again.status).toBe(400)
    expect(again.json.message).toMatch(/expired or was already used/)
  })

  it('refuses an expired link, a short or common password, and a missing token', async () => {
    const t = await testApp()
    await t.call('POST', '/auth/forgot-password', { body: { email: demo.admin } })
    const token = resetTokenFrom((await t.mails())[0]!.text)
    const short = await t.call('POST', '/auth/reset-password', { body: { token, newPassword: 'abc' } })
    expect(short.json.issues).toContainEqual({ path: 'newPassword', message: 'Password must be at least 6 characters long.' })
    const common = await t.call('POST', '/auth/reset-password', { body: { token, newPassword: 'password123' } })
    expect(common.status).toBe(400)
    expect(common.json.issues[0].message).toMatch(/too common/)
    const missing = await t.call('POST', '/auth/reset-password', { body: { token: '', newPassword: 'a-new-Passw0rd' } })
    expect(missing.json.issues).toContainEqual({ path: 'token', message: 'Invalid reset link. Please request a new password reset.' })
    t.clock.advance(61 * 60 * 1000)
    const expired = await t.call('POST', '/auth/reset-password', { body: { token, newPassword: 'a-new-Passw0rd' } })
    expect(expired.status).toBe(400)
  })
})
