import { createHash, createPublicKey, randomBytes, verify, type JsonWebKey } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { OidcTokenResponse, OidcUserinfo } from '../vipps.schemas'
import { BASE_URL, setup } from './emulator.test-support'

const ISSUER = `${BASE_URL}/access-management-1.0/access/`
const CLIENT = { id: 'boligkasse', secret: 'login-secret' }
const REDIRECT = 'http://localhost:3000/api/auth/vipps/callback'
const users = [
  { phoneNumber: '4512345678', name: 'Mette Hansen', email: 'mette@example.dk', sub: 'a3f1c2d4-0000-4000-8000-000000000001' },
  { phoneNumber: '4587654321', name: 'Lars Nielsen', sub: 'a3f1c2d4-0000-4000-8000-000000000002' },
]

const basic = (id = CLIENT.id, secret = CLIENT.secret) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`
const pkce = () => {
  const verifier = randomBytes(32).toString('base64url')
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') }
}

/** Runs the browser part: authorize, pick a user on the page; returns the redirect back to the client. */
async function signIn(t: ReturnType<typeof setup>, opts: { phoneNumber?: string; challenge?: string; scope?: string; state?: string; nonce?: string } = {}) {
  const query = new URLSearchParams({
    client_id: CLIENT.id,
    response_type: 'code',
    redirect_uri: REDIRECT,
    scope: opts.scope ?? 'openid name phoneNumber email',
    state: opts.state ?? 'state-1234567',
    nonce: opts.nonce ?? 'nonce-abc',
    ...(opts.challenge ? { code_challenge: opts.challenge, code_challenge_method: 'S256' } : {}),
  })
  const page = await t.app.request(`/access-management-1.0/access/oauth2/auth?${query}`)
  expect(page.status).toBe(200)
  const html = await page.text()
  const requestId = /name="request" value="([^"]+)"/.exec(html)?.[1] ?? ''
  const res = await t.app.request('/access-management-1.0/access/oauth2/auth', {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ request: requestId, phoneNumber: opts.phoneNumber ?? users[0]!.phoneNumber }).toString(),
  })
  expect(res.status).toBe(302)
  return new URL(res.headers.get('Location') ?? '')
}

function exchange(t: ReturnType<typeof setup>, fields: Record<string, string>, authorization = basic()) {
  return t.app.request('/access-management-1.0/access/oauth2/token', {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Authorization: authorization },
    body: new URLSearchParams({ grant_type: 'authorization_code', redirect_uri: REDIRECT, ...fields }).toString(),
  })
}

describe('Vipps emulator: Vipps Login (OIDC)', () => {
  it('publishes discovery at the issuer and at the root, and a JWKS', async () => {
    const t = setup({ loginUsers: users })
    const root = await (await t.app.request('/.well-known/openid-configuration')).json()
    const atIssuer = await (await t.app.request('/access-management-1.0/access/.well-known/openid-configuration')).json()
    expect(root).toEqual(atIssuer)
    expect(root).toMatchObject({
      issuer: ISSUER,
      authorization_endpoint: `${ISSUER}oauth2/auth`,
      token_endpoint: `${ISSUER}oauth2/token`,
      userinfo_endpoint: `${BASE_URL}/vipps-userinfo-api/userinfo`,
      jwks_uri: `${ISSUER}.well-known/jwks.json`,
      code_challenge_methods_supported: ['S256'],
    })
    const jwks = (await (await t.app.request('/.well-known/jwks.json')).json()) as { keys: { kty: string; alg: string; kid: string }[] }
    expect(jwks.keys).toEqual([expect.objectContaining({ kty: 'RSA', alg: 'RS256', use: 'sig' })])
    expect(await (await t.app.request('/access-management-1.0/access/.well-known/jwks.json')).json()).toEqual(jwks)
  })

  it('offers the demo users and a free number on the sign-in page, in both languages', async () => {
    const t = setup({ loginUsers: users })
    const query = `client_id=c&response_type=code&redirect_uri=${encodeURIComponent(REDIRECT)}&scope=openid&state=s`
    const en = await (await t.app.request(`/access-management-1.0/access/oauth2/auth?${query}`)).text()
    expect(en).toContain('Log in with Vipps MobilePay')
    expect(en).toContain('Mette Hansen')
    expect(en).toContain('+45 12 34 56 78')
    expect(en).toContain('value="4587654321"')
    expect(en).toContain('name="phoneNumber" type="tel"')
    expect(en).not.toContain('<script')
    const da = await (await t.app.request(`/access-management-1.0/access/oauth2/auth?${query}&lang=da`)).text()
    expect(da).toContain('Log ind med Vipps MobilePay')
    expect(da).toContain('Annullér')
  })

  it('runs the code flow with PKCE: code and state back, id_token verifiable with the JWKS, userinfo', async () => {
    const t = setup({ loginUsers: users })
    const { verifier, challenge } = pkce()
    const back = await signIn(t, { challenge })
    expect(back.origin + back.pathname).toBe(REDIRECT)
    expect(back.searchParams.get('state')).toBe('state-1234567')
    const code = back.searchParams.get('code') ?? ''

    const res = await exchange(t, { code, code_verifier: verifier })
    expect(res.status).toBe(200)
    expect(res.headers.get('Cache-Control')).toBe('no-store')
    const tokens = OidcTokenResponse.parse(await res.json())
    expect(tokens).toMatchObject({ token_type: 'Bearer', expires_in: 3600 })

    const [header, payload, signature] = tokens.id_token.split('.') as [string, string, string]
    const { kid, alg } = JSON.parse(Buffer.from(header, 'base64url').toString()) as { kid: string; alg: string }
    expect(alg).toBe('RS256')
    const jwks = (await (await t.app.request('/.well-known/jwks.json')).json()) as { keys: (JsonWebKey & { kid: string })[] }
    const jwk = jwks.keys.find((k) => k.kid === kid)!
    const key = createPublicKey({ key: jwk, format: 'jwk' })
    expect(verify('sha256', Buffer.from(`${header}.${payload}`), key, Buffer.from(signature, 'base64url'))).toBe(true)
    expect(verify('sha256', Buffer.from(`${header}.${payload}x`), key, Buffer.from(signature, 'base64url'))).toBe(false)
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>
    const now = Math.floor(t.clock.now().getTime() / 1000)
    expect(claims).toMatchObject({ iss: ISSUER, aud: CLIENT.id, sub: users[0]!.sub, nonce: 'nonce-abc', iat: now, exp: now + 3600 })

    const info = await t.app.request('/vipps-userinfo-api/userinfo', { headers: { Authorization: `Bearer ${tokens.access_token}` } })
    expect(info.status).toBe(200)
    expect(OidcUserinfo.parse(await info.json())).toEqual({
      sub: users[0]!.sub,
      phone_number: '4512345678',
      name: 'Mette Hansen',
      email: 'mette@example.dk',
      email_verified: true,
    })
  })

  it('refuses a wrong code_verifier with invalid_grant', async () => {
    const t = setup({ loginUsers: users })
    const { challenge } = pkce()
    const code = (await signIn(t, { challenge })).searchParams.get('code') ?? ''
    const res = await exchange(t, { code, code_verifier: pkce().verifier })
    expect(res.status).toBe(400)
    expect(await res.json()).toMatchObject({ error: 'invalid_grant' })
    expect((await exchange(t, { code })).status).toBe(400) // and a missing verifier
  })

  it('refuses to use a code twice, and revokes what the first use got', async () => {
    const t = setup({ loginUsers: users })
    const { verifier, challenge } = pkce()
    const code = (await signIn(t, { challenge })).searchParams.get('code') ?? ''
    const first = OidcTokenResponse.parse(await (await exchange(t, { code, code_verifier: verifier })).json())
    const second = await exchange(t, { code, code_verifier: verifier })
    expect(second.status).toBe(400)
    expect(await second.json()).toMatchObject({ error: 'invalid_grant' })
    expect((await t.app.request('/vipps-userinfo-api/userinfo', { headers: { Authorization: `Bearer ${first.access_token}` } })).status).toBe(401)
  })

  it('checks the client, the redirect_uri and the code lifetime', async () => {
    const t = setup({ loginUsers: users })
    const { verifier, challenge } = pkce()
    const code = (await signIn(t, { challenge })).searchParams.get('code') ?? ''
    const noAuth = await exchange(t, { code, code_verifier: verifier }, '')
    expect(noAuth.status).toBe(401)
    expect(await noAuth.json()).toMatchObject({ error: 'invalid_client' })
    expect(await (await exchange(t, { code, code_verifier: verifier }, basic('someone-else'))).json()).toMatchObject({ error: 'invalid_grant' })
    expect(await (await exchange(t, { code, code_verifier: verifier, redirect_uri: 'http://evil.example/cb' })).json()).toMatchObject({
      error: 'invalid_grant',
    })
    t.clock.advance(2 * 60 * 1000)
    expect(await (await exchange(t, { code, code_verifier: verifier })).json()).toMatchObject({ error: 'invalid_grant' })
  })

  it('signs in any other valid number with a stable subject and only its phone number', async () => {
    const t = setup({ loginUsers: users })
    const { verifier, challenge } = pkce()
    const code = (await signIn(t, { challenge, phoneNumber: '+47 912 34 567' })).searchParams.get('code') ?? ''
    const tokens = OidcTokenResponse.parse(await (await exchange(t, { code, code_verifier: verifier })).json())
    const info = (await (
      await t.app.request('/vipps-userinfo-api/userinfo', { headers: { Authorization: `Bearer ${tokens.access_token}` } })
    ).json()) as Record<string, unknown>
    expect(info).toEqual({ sub: expect.stringMatching(/^[0-9a-f-]{36}$/), phone_number: '4791234567' })
  })

  it('answers only the claims of the granted scopes', async () => {
    const t = setup({ loginUsers: users })
    const code = (await signIn(t, { scope: 'openid phoneNumber' })).searchParams.get('code') ?? ''
    const tokens = OidcTokenResponse.parse(await (await exchange(t, { code })).json())
    const info = await (await t.app.request('/vipps-userinfo-api/userinfo', { headers: { Authorization: `Bearer ${tokens.access_token}` } })).json()
    expect(info).toEqual({ sub: users[0]!.sub, phone_number: '4512345678' })
  })

  it('sends cancel and bad requests back to the client as errors, and never redirects to a bad redirect_uri', async () => {
    const t = setup({ loginUsers: users })
    const noOpenid = await t.app.request(
      `/access-management-1.0/access/oauth2/auth?client_id=c&response_type=code&redirect_uri=${encodeURIComponent(REDIRECT)}&scope=name&state=s1`,
    )
    expect(noOpenid.status).toBe(302)
    expect(new URL(noOpenid.headers.get('Location') ?? '').searchParams.get('error')).toBe('invalid_scope')
    const plain = await t.app.request(
      `/access-management-1.0/access/oauth2/auth?client_id=c&response_type=code&redirect_uri=${encodeURIComponent(REDIRECT)}&scope=openid&code_challenge=abc&code_challenge_method=plain`,
    )
    expect(new URL(plain.headers.get('Location') ?? '').searchParams.get('error')).toBe('invalid_request')
    const badRedirect = await t.app.request(
      '/access-management-1.0/access/oauth2/auth?client_id=c&response_type=code&redirect_uri=javascript:alert(1)&scope=openid',
    )
    expect(badRedirect.status).toBe(400)

    const page = await (
      await t.app.request(
        `/access-management-1.0/access/oauth2/auth?client_id=c&response_type=code&redirect_uri=${encodeURIComponent(REDIRECT)}&scope=openid&state=s2`,
      )
    ).text()
    const requestId = /name="request" value="([^"]+)"/.exec(page)?.[1] ?? ''
    const cancel = await t.app.request('/access-management-1.0/access/oauth2/auth', {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: `request=${requestId}&cancel=1`,
    })
    const back = new URL(cancel.headers.get('Location') ?? '')
    expect([back.searchParams.get('error'), back.searchParams.get('state')]).toEqual(['access_denied', 's2'])
  })

  it('refuses userinfo without a valid access token', async () => {
    const t = setup()
    const res = await t.app.request('/vipps-userinfo-api/userinfo', { headers: { Authorization: 'Bearer nope' } })
    expect(res.status).toBe(401)
    expect(res.headers.get('WWW-Authenticate')).toContain('invalid_token')
  })
})
