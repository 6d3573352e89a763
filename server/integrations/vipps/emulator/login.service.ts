import { createHash } from 'node:crypto'
import type { Clock } from '../../../lib/clock'
import { randomToken } from '../../../lib/ids'
import { normalizePhone, subjectForPhone } from './emulator.ids'
import { createSigningKey, signJwt, type SigningKey } from './oidc.keys'

/**
 * Vipps Login (OpenID Connect, https://developer.vippsmobilepay.com/docs/APIs/login-api/): the
 * authorization code flow with PKCE S256, state and nonce. A sign-in page stands in for the app:
 * the person picks a demo user or types a phone number. Codes are single-use and short-lived,
 * the id_token is an RS256 JWT whose key is published as JWKS, and userinfo answers the claims
 * of the scopes asked for. All of it lives in memory only (see EmulatorState).
 */
export interface LoginUser {
  phoneNumber: string
  name?: string
  email?: string
  sub: string
}

interface AuthRequest {
  id: string
  clientId: string
  redirectUri: string
  scope: string[]
  state: string | undefined
  nonce: string | undefined
  codeChallenge: string | undefined
  expiresAt: number
}

interface Grant {
  clientId: string
  redirectUri: string
  scope: string[]
  nonce: string | undefined
  codeChallenge: string | undefined
  user: LoginUser
  expiresAt: number
  used: boolean
  /** Access tokens issued from this code; revoked if the code is presented again (RFC 6749 §4.1.2). */
  accessTokens: string[]
}

interface AccessGrant {
  user: LoginUser
  scope: string[]
  expiresAt: number
}

export type OAuthError = { status: 400 | 401; body: { error: string; error_description: string } }

const REQUEST_TTL_MS = 10 * 60 * 1000
const CODE_TTL_MS = 2 * 60 * 1000
const TOKEN_TTL_S = 3600
const PKCE_VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/
const PKCE_CHALLENGE = /^[A-Za-z0-9_-]{43}$/

export interface LoginServiceDeps {
  clock: Clock
  baseUrl: string
  users: () => LoginUser[]
}

export class LoginService {
  readonly issuer: string
  /** The demo users offered on the sign-in page. */
  readonly users: () => LoginUser[]
  private readonly requests = new Map<string, AuthRequest>()
  private readonly codes = new Map<string, Grant>()
  private readonly tokens = new Map<string, AccessGrant>()
  private key: SigningKey | undefined

  constructor(private readonly deps: LoginServiceDeps) {
    this.issuer = `${deps.baseUrl}/access-management-1.0/access/`
    this.users = deps.users
  }

  private get baseUrl(): string {
    return this.deps.baseUrl
  }

  private signingKey(): SigningKey {
    return (this.key ??= createSigningKey())
  }

  private now(): number {
    return this.deps.clock.now().getTime()
  }

  discovery() {
    return {
      issuer: this.issuer,
      authorization_endpoint: `${this.issuer}oauth2/auth`,
      token_endpoint: `${this.issuer}oauth2/token`,
      userinfo_endpoint: `${this.baseUrl}/vipps-userinfo-api/userinfo`,
      jwks_uri: `${this.issuer}.well-known/jwks.json`,
      response_types_supported: ['code'],
      response_modes_supported: ['query'],
      grant_types_supported: ['authorization_code'],
      subject_types_supported: ['public'],
      id_token_signing_alg_values_supported: ['RS256'],
      scopes_supported: ['openid', 'name', 'phoneNumber', 'email'],
      claims_supported: ['sub', 'name', 'given_name', 'family_name', 'phone_number', 'email', 'email_verified'],
      token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
      code_challenge_methods_supported: ['S256'],
    }
  }

  jwks() {
    return { keys: [this.signingKey().publicJwk] }
  }

  /** The demo user with this number, or a stable made-up identity for any other valid number. */
  private userFor(phoneNumber: string): LoginUser {
    const phone = normalizePhone(phoneNumber) ?? phoneNumber
    return this.deps.users().find((u) => normalizePhone(u.phoneNumber) === phone) ?? { phoneNumber: phone, sub: subjectForPhone(phone) }
  }

  /**
   * Checks an authorization request. Errors about the client or redirect_uri are shown on the
   * page (never redirect to an unchecked address, RFC 6749 §4.1.2.1); other errors go back to
   * the client as `error=…&state=…`.
   */
  begin(query: Record<string, string>): Begin {
    const { client_id: clientId, redirect_uri: redirectUri, state } = query
    if (!clientId) return { kind: 'error', message: 'client_id is required' }
    if (!redirectUri || !URL.canParse(redirectUri) || !/^https?:$/.test(new URL(redirectUri).protocol))
      return { kind: 'error', message: 'redirect_uri must be an absolute http(s) URL' }
    const fail = (error: string, description: string): Begin => ({
      kind: 'redirect',
      location: redirectWith(redirectUri, { error, error_description: description, state }),
    })
    if (query.response_type !== 'code') return fail('unsupported_response_type', 'response_type must be code')
    const scope = (query.scope ?? '').split(/\s+/).filter(Boolean)
    if (!scope.includes('openid')) return fail('invalid_scope', 'scope must include openid')
    const challenge = query.code_challenge
    const method = query.code_challenge_method
    if (challenge !== undefined || method !== undefined) {
      if (method !== 'S256') return fail('invalid_request', 'code_challenge_method must be S256')
      if (!challenge || !PKCE_CHALLENGE.test(challenge)) return fail('invalid_request', 'code_challenge must be BASE64URL(SHA256(code_verifier))')
    }
    const request: AuthRequest = {
      id: randomToken(16),
      clientId,
      redirectUri,
      scope,
      state,
      nonce: query.nonce,
      codeChallenge: challenge,
      expiresAt: this.now() + REQUEST_TTL_MS,
    }
    this.requests.set(request.id, request)
    return { kind: 'page', requestId: request.id }
  }

  /** The person chose a user (or cancelled): back to the client with a code, or with access_denied. */
  choose(requestId: string, phoneNumber: string | null): Choose {
    const request = this.requests.get(requestId)
    if (!request || request.expiresAt <= this.now()) return { kind: 'expired' }
    if (phoneNumber === null) {
      this.requests.delete(requestId)
      return {
        kind: 'redirect',
        location: redirectWith(request.redirectUri, { error: 'access_denied', error_description: 'The user cancelled the login', state: request.state }),
      }
    }
    const phone = normalizePhone(phoneNumber)
    if (!phone) return { kind: 'invalid-phone' }
    this.requests.delete(requestId)
    const code = randomToken()
    this.codes.set(code, {
      clientId: request.clientId,
      redirectUri: request.redirectUri,
      scope: request.scope,
      nonce: request.nonce,
      codeChallenge: request.codeChallenge,
      user: this.userFor(phone),
      expiresAt: this.now() + CODE_TTL_MS,
      used: false,
      accessTokens: [],
    })
    return { kind: 'redirect', location: redirectWith(request.redirectUri, { code, state: request.state }) }
  }

  /** POST oauth2/token: client authentication (Basic or form), then the code, redirect_uri and PKCE checks. */
  token(form: Record<string, string>, authorization: string | undefined): { status: 200; body: Record<string, unknown> } | OAuthError {
    const client = this.clientCredentials(form, authorization)
    if (!client) return oauthError(401, 'invalid_client', 'Client authentication failed (HTTP Basic client_id:client_secret)')
    if (form.grant_type !== 'authorization_code') return oauthError(400, 'unsupported_grant_type', 'grant_type must be authorization_code')
    const grant = form.code ? this.codes.get(form.code) : undefined
    if (!grant || grant.expiresAt <= this.now()) return oauthError(400, 'invalid_grant', 'The code is unknown or expired')
    if (grant.used) {
      for (const t of grant.accessTokens) this.tokens.delete(t)
      return oauthError(400, 'invalid_grant', 'The code was already used')
    }
    if (grant.clientId !== client.id) return oauthError(400, 'invalid_grant', 'The code was issued to another client')
    if (form.redirect_uri !== grant.redirectUri) return oauthError(400, 'invalid_grant', 'redirect_uri does not match the authorization request')
    if (grant.codeChallenge !== undefined) {
      const verifier = form.code_verifier ?? ''
      if (!PKCE_VERIFIER.test(verifier)) return oauthError(400, 'invalid_grant', 'code_verifier is missing or malformed')
      if (createHash('sha256').update(verifier).digest('base64url') !== grant.codeChallenge)
        return oauthError(400, 'invalid_grant', 'code_verifier does not match code_challenge')
    }
    // A code is spent by its first exchange attempt that gets this far.
    grant.used = true
    const issuedAt = Math.floor(this.now() / 1000)
    const accessToken = randomToken()
    this.tokens.set(accessToken, { user: grant.user, scope: grant.scope, expiresAt: this.now() + TOKEN_TTL_S * 1000 })
    grant.accessTokens.push(accessToken)
    const idToken = signJwt(this.signingKey(), {
      iss: this.issuer,
      aud: grant.clientId,
      sub: grant.user.sub,
      iat: issuedAt,
      exp: issuedAt + TOKEN_TTL_S,
      auth_time: issuedAt,
      ...(grant.nonce !== undefined ? { nonce: grant.nonce } : {}),
    })
    return { status: 200, body: { access_token: accessToken, id_token: idToken, token_type: 'Bearer', expires_in: TOKEN_TTL_S, scope: grant.scope.join(' ') } }
  }

  /** GET userinfo with the access token: the claims of the scopes that were granted. */
  userinfo(
    authorization: string | undefined,
  ): { status: 200; body: Record<string, unknown> } | { status: 401; body: { error: string; error_description: string } } {
    const bearer = /^Bearer\s+(.+)$/i.exec(authorization ?? '')?.[1]
    const access = bearer ? this.tokens.get(bearer) : undefined
    if (!access || access.expiresAt <= this.now())
      return { status: 401, body: { error: 'invalid_token', error_description: 'The access token is missing, unknown or expired' } }
    const { user, scope } = access
    const body: Record<string, unknown> = { sub: user.sub }
    if (scope.includes('phoneNumber')) body.phone_number = user.phoneNumber
    if (scope.includes('name') && user.name) {
      const [given, ...family] = user.name.split(' ')
      Object.assign(body, { name: user.name, given_name: given, family_name: family.join(' ') || undefined })
    }
    if (scope.includes('email') && user.email) Object.assign(body, { email: user.email, email_verified: true })
    return { status: 200, body }
  }

  private clientCredentials(form: Record<string, string>, authorization: string | undefined): { id: string } | null {
    const basic = /^Basic\s+(.+)$/i.exec(authorization ?? '')?.[1]
    if (basic) {
      const decoded = Buffer.from(basic, 'base64').toString('utf8')
      const colon = decoded.indexOf(':')
      if (colon < 1) return null
      // RFC 6749 §2.3.1: both parts are form-urlencoded before being joined.
      const id = safeDecode(decoded.slice(0, colon))
      const secret = safeDecode(decoded.slice(colon + 1))
      return id && secret ? { id } : null
    }
    return form.client_id && form.client_secret ? { id: form.client_id } : null
  }

  reset() {
    this.requests.clear()
    this.codes.clear()
    this.tokens.clear()
  }

  /** The `sub` a phone number signs in as (also used for agreements that asked for profile data); an arrow, as it is handed on detached. */
  readonly subjectFor = (phoneNumber: string): string => this.userFor(phoneNumber).sub
}

export const createLoginService = (deps: LoginServiceDeps) => new LoginService(deps)

type Begin = { kind: 'page'; requestId: string } | { kind: 'redirect'; location: string } | { kind: 'error'; message: string }

type Choose = { kind: 'redirect'; location: string } | { kind: 'expired' } | { kind: 'invalid-phone' }

function oauthError(status: 400 | 401, error: string, description: string): OAuthError {
  return { status, body: { error, error_description: description } }
}

function redirectWith(redirectUri: string, params: Record<string, string | undefined>): string {
  const url = new URL(redirectUri)
  for (const [k, v] of Object.entries(params)) if (v !== undefined) url.searchParams.set(k, v)
  return url.toString()
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value.replace(/\+/g, ' '))
  } catch {
    return value
  }
}
