/**
 * Vipps Login: OpenID Connect authorization code flow with PKCE (S256), state and nonce.
 * https://developer.vippsmobilepay.com/docs/APIs/login-api/
 * The id_token is verified (RS256 against the provider's JWKS, issuer, audience, nonce, expiry)
 * before the userinfo is trusted.
 */
import { createHash, createPublicKey, createVerify, type JsonWebKey } from 'node:crypto'
import { z } from 'zod'
import { randomToken } from '../../lib/ids'
import { OidcTokenResponse, OidcUserinfo } from './vipps.schemas'

const Discovery = z.object({
  issuer: z.string(),
  authorization_endpoint: z.string(),
  token_endpoint: z.string(),
  userinfo_endpoint: z.string(),
  jwks_uri: z.string(),
})
const Jwks = z.object({ keys: z.array(z.record(z.string(), z.unknown())) })

export interface VippsLoginConfig {
  /** Base of the Vipps API (or the emulator) that the server calls. */
  apiBaseUrl: string
  /** Base the browser is sent to for the sign-in page (same as apiBaseUrl except for an in-process emulator). */
  browserBaseUrl: string
  clientId: string
  clientSecret: string
  redirectUri: string
  fetch?: typeof fetch
  now: () => Date
}

export const pkceChallenge = (verifier: string) => createHash('sha256').update(verifier).digest('base64url')

export function createVippsLogin(config: VippsLoginConfig) {
  const doFetch = config.fetch ?? fetch
  let discovery: Promise<z.infer<typeof Discovery>> | undefined

  async function getJson<T extends z.ZodType>(url: string, schema: T, init?: RequestInit): Promise<z.infer<T>> {
    const res = await doFetch(url, init)
    if (!res.ok) throw new Error(`Vipps Login: ${url} answered ${res.status}`)
    return schema.parse(await res.json())
  }

  const discover = () =>
    (discovery ??= getJson(`${config.apiBaseUrl}/access-management-1.0/access/.well-known/openid-configuration`, Discovery).catch((err) => {
      discovery = undefined
      throw err
    }))

  /** The endpoints as the browser must see them (an in-process emulator lives at another base). */
  const forBrowser = (url: string) => url.replace(config.apiBaseUrl, config.browserBaseUrl)

  async function verifyIdToken(idToken: string, nonce: string): Promise<{ sub: string }> {
    const d = await discover()
    const [h, p, s] = idToken.split('.')
    if (!h || !p || !s) throw new Error('id_token is not a JWT')
    const header = JSON.parse(Buffer.from(h, 'base64url').toString()) as { alg?: string; kid?: string }
    if (header.alg !== 'RS256') throw new Error('id_token must be RS256')
    const { keys } = await getJson(d.jwks_uri, Jwks)
    const jwk = keys.find((k) => !header.kid || k.kid === header.kid)
    if (!jwk) throw new Error('no key for the id_token')
    const ok = createVerify('RSA-SHA256')
      .update(`${h}.${p}`)
      .verify(createPublicKey({ key: jwk as JsonWebKey, format: 'jwk' }), Buffer.from(s, 'base64url'))
    if (!ok) throw new Error('id_token signature does not verify')
    const claims = JSON.parse(Buffer.from(p, 'base64url').toString()) as { iss?: string; aud?: string | string[]; nonce?: string; exp?: number; sub?: string }
    const audiences = Array.isArray(claims.aud) ? claims.aud : [claims.aud]
    if (claims.iss !== d.issuer) throw new Error('id_token issuer mismatch')
    if (!audiences.includes(config.clientId)) throw new Error('id_token audience mismatch')
    if (claims.nonce !== nonce) throw new Error('id_token nonce mismatch')
    if (!claims.exp || claims.exp * 1000 < config.now().getTime()) throw new Error('id_token expired')
    if (!claims.sub) throw new Error('id_token has no subject')
    return { sub: claims.sub }
  }

  return {
    /** A new attempt: where to send the browser, and what to keep until the callback. */
    async start(): Promise<{ url: string; state: string; nonce: string; codeVerifier: string }> {
      const d = await discover()
      const state = randomToken(24)
      const nonce = randomToken(24)
      const codeVerifier = randomToken(48)
      const q = new URLSearchParams({
        client_id: config.clientId,
        response_type: 'code',
        scope: 'openid name phoneNumber email',
        state,
        nonce,
        code_challenge: pkceChallenge(codeVerifier),
        code_challenge_method: 'S256',
        redirect_uri: config.redirectUri,
      })
      return { url: `${forBrowser(d.authorization_endpoint)}?${q}`, state, nonce, codeVerifier }
    },

    /** Exchanges the code, verifies the id_token and returns the user's Vipps identity. */
    async finish(code: string, attempt: { nonce: string; codeVerifier: string }): Promise<z.infer<typeof OidcUserinfo>> {
      const d = await discover()
      const tokens = await getJson(d.token_endpoint, OidcTokenResponse, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/x-www-form-urlencoded',
          Authorization: `Basic ${Buffer.from(`${config.clientId}:${config.clientSecret}`).toString('base64')}`,
        },
        body: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: config.redirectUri, code_verifier: attempt.codeVerifier }).toString(),
      })
      const { sub } = await verifyIdToken(tokens.id_token, attempt.nonce)
      const info = await getJson(d.userinfo_endpoint, OidcUserinfo, { headers: { Authorization: `Bearer ${tokens.access_token}` } })
      if (info.sub !== sub) throw new Error('userinfo subject differs from the id_token')
      return info
    },
  }
}

export type VippsLogin = ReturnType<typeof createVippsLogin>
