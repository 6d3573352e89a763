import { describe, expect, it } from 'vitest'
import { eq } from 'drizzle-orm'
import { authMethods, users } from '../../db/schema/users'
import { DEMO_PASSWORD, demo, testAppWithVipps, type TestApp } from '../../test/harness'

/**
 * Plays the browser: follows redirects inside the app (API and mounted emulator), posting the
 * chosen phone number. With `linkAs` it links Vipps to that signed-in user instead of signing in.
 */
async function vippsSignIn(t: TestApp, phoneNumber: string, linkAs?: string, options: { withoutCookie?: boolean } = {}): Promise<string> {
  let url: string
  let cookie: string
  if (linkAs) {
    const link = await t.call('POST', '/auth/vipps/link', { token: linkAs, body: { currentPassword: DEMO_PASSWORD } })
    expect(link.status, JSON.stringify(link.json)).toBe(200)
    url = link.json.url
    cookie = link.headers.get('Set-Cookie')!
  } else {
    const start = await t.app.request('/api/auth/vipps')
    expect(start.status).toBe(302)
    url = start.headers.get('Location')!
    cookie = start.headers.get('Set-Cookie')!
  }
  // The browser that started the flow brings its state cookie back to the callback.
  expect(cookie).toMatch(/^bk_vipps_state=[^;]+; Max-Age=600; Path=\/api\/auth\/vipps; HttpOnly; SameSite=Lax/)
  const authorize = new URL(url)
  expect(authorize.pathname).toBe('/vipps-emulator/access-management-1.0/access/oauth2/auth')
  expect(authorize.searchParams.get('code_challenge_method')).toBe('S256')
  const page = await t.app.request(authorize.pathname + authorize.search)
  const html = await page.text()
  const request = /name="request" value="([^"]+)"/.exec(html)?.[1]
  expect(request, html.slice(0, 500)).toBeTruthy()
  const chosen = await t.app.request(authorize.pathname, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ request: request!, phoneNumber }).toString(),
  })
  expect(chosen.status).toBe(302)
  const callback = new URL(chosen.headers.get('Location')!)
  const landed = await t.app.request(callback.pathname + callback.search, { headers: options.withoutCookie ? {} : { Cookie: cookie.split(';')[0]! } })
  expect(landed.status).toBe(302)
  return landed.headers.get('Location')!
}

/** The Vipps (MOBILEPAY) sign-in methods stored, of every user. */
const vippsSignIns = async (t: TestApp) => (await t.db.select().from(authMethods).all()).filter((m) => m.type === 'MOBILEPAY')

describe('sign in with Vipps MobilePay', () => {
  it('signs in by the verified phone number and links the MOBILEPAY method', async () => {
    const t = await testAppWithVipps()
    const location = await vippsSignIn(t, '4531000001')
    const token = /authToken=([^&]+)/.exec(location)?.[1]
    expect(token, location).toBeTruthy()
    const info = await t.call('GET', '/account/info', { token: decodeURIComponent(token!) })
    expect(info.json.emailAddress).toBe('beboer01@solgaarden.dk')
    expect(await vippsSignIns(t)).toHaveLength(1)
    // The second time the Vipps subject alone finds the user.
    expect(await vippsSignIn(t, '4531000001')).toMatch(/authToken=/)
    expect(await vippsSignIns(t)).toHaveLength(1)
  })

  it('sends someone without an account back with a clear reason', async () => {
    const t = await testAppWithVipps()
    expect(await vippsSignIn(t, '4599999999')).toBe('/login?error=vipps_no_account')
  })

  it('does not guess from a number typed into a profile: it explains, and the person links Vipps from the profile', async () => {
    const t = await testAppWithVipps()
    const token = await t.login(demo.resident)
    // A number nobody verified (typed in the profile) does not open the account...
    expect((await t.call('PATCH', '/account/profile/mobileNumber', { token, body: { value: '+45 40 40 40 40' } })).status).toBe(200)
    expect(await vippsSignIn(t, '4540404040')).toBe('/login?error=vipps_not_linked')
    expect(await vippsSignIns(t)).toHaveLength(0)
    // ...until the signed-in owner links Vipps, which proves the number.
    expect(await vippsSignIn(t, '4540404040', token)).toBe('/user?vipps=linked')
    expect((await t.db.select().from(users).where(eq(users.emailAddress, demo.resident)).get())!.mobileVerifiedAt).not.toBeNull()
    const location = await vippsSignIn(t, '4540404040')
    const info = await t.call('GET', '/account/info', { token: decodeURIComponent(/authToken=([^&]+)/.exec(location)![1]!) })
    expect(info.json.emailAddress).toBe(demo.resident)
    expect((await t.call('GET', '/account/profile', { token })).json.mobileVerified).toBe(true)
  })

  it("proves the profile's number again when the linked Vipps account returns it", async () => {
    const t = await testAppWithVipps()
    expect(await vippsSignIn(t, '4531000001')).toMatch(/authToken=/)
    const token = await t.login(demo.resident)
    // As after typing the number in again: the same number, no longer verified.
    await t.db.update(users).set({ mobileVerifiedAt: null }).where(eq(users.emailAddress, demo.resident)).run()
    expect((await t.call('GET', '/account/profile', { token })).json.mobileVerified).toBe(false)
    expect(await vippsSignIn(t, '4531000001')).toMatch(/authToken=/)
    expect((await t.call('GET', '/account/profile', { token })).json.mobileVerified).toBe(true)
  })

  it('never opens either account when two users hold one number from before numbers were unique', async () => {
    const t = await testAppWithVipps()
    // As drizzle/0009 leaves such rows: the number stays, without a key, on both accounts.
    await t.db
      .update(users)
      .set({ mobileNumber: '+45 31 00 00 01', mobileKey: null, mobileVerifiedAt: null })
      .where(eq(users.emailAddress, demo.residentDa))
      .run()
    await t.db.update(users).set({ mobileKey: null, mobileVerifiedAt: null }).where(eq(users.emailAddress, demo.resident)).run()
    expect(await vippsSignIn(t, '4531000001')).toBe('/login?error=vipps_no_account')
    expect(await vippsSignIns(t)).toHaveLength(0)
  })

  it('refuses to link a Vipps identity that already signs in to another account', async () => {
    const t = await testAppWithVipps()
    expect(await vippsSignIn(t, '4531000001')).toMatch(/authToken=/)
    const other = await t.login(demo.residentDa)
    expect(await vippsSignIn(t, '4531000001', other)).toBe('/user?vipps=vipps_linked_elsewhere')
  })

  it('refuses a callback opened in another browser than the one that started the sign-in', async () => {
    const t = await testAppWithVipps()
    // Someone completes Vipps and sends the callback link to a victim: without the state cookie nobody is signed in.
    expect(await vippsSignIn(t, '4531000001', undefined, { withoutCookie: true })).toBe('/login?error=vipps_failed')
    const victim = await t.login(demo.residentDa)
    expect(await vippsSignIn(t, '4531000001', victim, { withoutCookie: true })).toBe('/user?vipps=vipps_failed')
    expect(await vippsSignIns(t)).toHaveLength(0)
  })

  it('links Vipps only after the owner confirms with the password, and tells the account', async () => {
    const t = await testAppWithVipps()
    const token = await t.login(demo.resident)
    const stolen = await t.call('POST', '/auth/vipps/link', { token })
    expect(stolen.status).toBe(400)
    expect(stolen.json.issues[0].path).toBe('currentPassword')
    expect(await vippsSignIn(t, '4531000001', token)).toBe('/user?vipps=linked')
    expect((await t.mails()).filter((m) => m.to === demo.resident).at(-1)!.text).toContain('Vipps MobilePay')
  })

  it('a password reset unlinks Vipps, so a link made with a stolen session does not outlive it', async () => {
    const t = await testAppWithVipps()
    expect(await vippsSignIn(t, '4531000001')).toMatch(/authToken=/)
    await t.call('POST', '/auth/forgot-password', { body: { email: demo.resident } })
    const link = decodeURIComponent(/reset-password\?token=([\w%-]+)/.exec((await t.mails()).filter((m) => m.to === demo.resident).at(-1)!.text)![1]!)
    expect((await t.call('POST', '/auth/reset-password', { body: { token: link, newPassword: 'Helt-ny-kode-42' } })).status).toBe(200)
    expect(await vippsSignIns(t)).toHaveLength(0)
    expect((await t.mails()).filter((m) => m.to === demo.resident).at(-1)!.text).toContain('Vipps MobilePay')
  })

  it('refuses a callback with an unknown or reused state', async () => {
    const t = await testAppWithVipps()
    const res = await t.app.request('/api/auth/vipps/callback?code=abc&state=forged')
    expect(res.headers.get('Location')).toBe('/login?error=vipps_failed')
  })

  it('explains when Vipps Login is not configured', async () => {
    const { testApp } = await import('../../test/harness')
    const t = await testApp()
    const res = await t.app.request('/api/auth/vipps')
    expect(res.headers.get('Location')).toBe('/login?error=vipps_unavailable')
  })
})
