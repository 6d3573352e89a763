import { describe, expect, it } from 'vitest'
import { authMethods } from '../../db/schema/users'
import { testAppWithVipps, type TestApp } from '../../test/harness'

/** Plays the browser: follows redirects inside the app (API and mounted emulator), posting the chosen phone number. */
async function vippsSignIn(t: TestApp, phoneNumber: string): Promise<string> {
  const start = await t.app.request('/api/auth/vipps')
  expect(start.status).toBe(302)
  const authorize = new URL(start.headers.get('Location')!)
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
  const landed = await t.app.request(callback.pathname + callback.search)
  expect(landed.status).toBe(302)
  return landed.headers.get('Location')!
}

describe('sign in with Vipps MobilePay', () => {
  it('signs in by the verified phone number and links the MOBILEPAY method', async () => {
    const t = await testAppWithVipps()
    const location = await vippsSignIn(t, '4531000001')
    const token = /authToken=([^&]+)/.exec(location)?.[1]
    expect(token, location).toBeTruthy()
    const info = await t.call('GET', '/account/info', { token: decodeURIComponent(token!) })
    expect(info.json.emailAddress).toBe('beboer01@solgaarden.dk')
    expect(t.db.select().from(authMethods).all().filter((m) => m.type === 'MOBILEPAY')).toHaveLength(1)
    // The second time the Vipps subject alone finds the user.
    expect(await vippsSignIn(t, '4531000001')).toMatch(/authToken=/)
    expect(t.db.select().from(authMethods).all().filter((m) => m.type === 'MOBILEPAY')).toHaveLength(1)
  })

  it('sends someone without an account back with a clear reason', async () => {
    const t = await testAppWithVipps()
    expect(await vippsSignIn(t, '4599999999')).toBe('/login?error=vipps_no_account')
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
