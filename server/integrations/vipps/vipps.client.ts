/**
 * The Vipps MobilePay API client: access token, Recurring v3 and Webhooks v1.
 * https://developer.vippsmobilepay.com/docs/APIs/recurring-api/ · .../webhooks-api/ · .../access-token-api/
 *
 * - Every write carries the caller's Idempotency-Key (our record id, at most 40 characters: built
 *   with `vippsKeys`), so a retry — ours here, or a later one by the outbox worker — is the same
 *   request to Vipps and is applied once.
 * - Network errors, timeouts, 429 and 5xx are retried with full-jitter backoff, honouring
 *   Retry-After; a 401 refreshes the access token once. What still fails is VippsUnavailable.
 * - 4xx problems (RFC 7807) become VippsRejected; every answer is parsed with zod.
 */
import type { z } from 'zod'
import { backoffMs } from '../../../shared/domain/backoff'
import type { Clock } from '../../lib/clock'
import { VIPPS_IDEMPOTENCY_KEY_MAX } from './idempotency-key'
import { VippsBadResponse, VippsRejected, VippsUnavailable } from './vipps.errors'
import {
  AccessTokenResponse,
  AgreementResponseV3,
  ChargeResponseV3,
  CreateChargeResponse,
  DraftAgreementResponseV3,
  Problem,
  RegisterWebhookResponse,
  WebhookList,
  type CreateChargeV3,
  type DraftAgreementV3,
  type PatchAgreementV3,
  type VippsChargeStatus,
} from './vipps.schemas'

export interface VippsCredentials {
  clientId: string
  clientSecret: string
  subscriptionKey: string
  merchantSerialNumber: string
  isTest: boolean
}

export interface VippsClientOptions {
  /** Overrides the environment's URL (VIPPS_BASE_URL, or the built-in emulator). */
  baseUrl?: string
  clock: Clock
  fetch?: typeof fetch
  timeoutMs?: number
  maxAttempts?: number
  systemVersion?: string
  random?: () => number
  sleep?: (ms: number) => Promise<void>
}

export const VIPPS_TEST_URL = 'https://apitest.vipps.no'
export const VIPPS_PRODUCTION_URL = 'https://api.vipps.no'
/** Refresh the access token this long before it expires. */
const TOKEN_MARGIN_MS = 5 * 60 * 1000

/** A Vipps MobilePay client for one merchant's credentials. */
export class VippsClient {
  readonly baseUrl: string
  private readonly doFetch: typeof fetch
  private readonly timeoutMs: number
  private readonly maxAttempts: number
  private readonly random: () => number
  private readonly sleep: (ms: number) => Promise<void>
  private readonly common: Record<string, string>
  private token: { value: string; expiresAt: number } | undefined
  private tokenRequest: Promise<string> | undefined

  constructor(
    private readonly credentials: VippsCredentials,
    private readonly options: VippsClientOptions,
  ) {
    this.baseUrl = (options.baseUrl ?? (credentials.isTest ? VIPPS_TEST_URL : VIPPS_PRODUCTION_URL)).replace(/\/$/, '')
    this.doFetch = options.fetch ?? fetch
    this.timeoutMs = options.timeoutMs ?? 10_000
    this.maxAttempts = options.maxAttempts ?? 4
    this.random = options.random ?? Math.random
    this.sleep = options.sleep ?? ((ms: number) => new Promise((r) => setTimeout(r, ms)))
    this.common = {
      'Ocp-Apim-Subscription-Key': credentials.subscriptionKey,
      'Merchant-Serial-Number': credentials.merchantSerialNumber,
      'Vipps-System-Name': 'boligkasse',
      'Vipps-System-Version': options.systemVersion ?? '0.1.0',
      'Vipps-System-Plugin-Name': 'boligkasse-server',
      'Vipps-System-Plugin-Version': options.systemVersion ?? '0.1.0',
    }
  }

  /** A valid access token, fetched once for concurrent callers and refreshed before expiry. */
  accessToken(): Promise<string> {
    return this.validToken()
  }

  createAgreement(draft: DraftAgreementV3, idempotencyKey: string) {
    return this.call('POST', '/recurring/v3/agreements', { body: draft, idempotencyKey, schema: DraftAgreementResponseV3 })
  }

  getAgreement(id: string) {
    return this.call('GET', agreementPath(id), { schema: AgreementResponseV3 })
  }

  updateAgreement(id: string, patch: PatchAgreementV3, idempotencyKey: string) {
    return this.call('PATCH', agreementPath(id), { body: patch, idempotencyKey })
  }

  /** Stopping is a PATCH with status STOPPED (Recurring v3). */
  stopAgreement(id: string, idempotencyKey: string) {
    return this.call('PATCH', agreementPath(id), { body: { status: 'STOPPED' }, idempotencyKey })
  }

  createCharge(agreementId: string, charge: CreateChargeV3, idempotencyKey: string) {
    return this.call('POST', `${agreementPath(agreementId)}/charges`, { body: charge, idempotencyKey, schema: CreateChargeResponse })
  }

  getCharge(agreementId: string, chargeId: string) {
    return this.call('GET', chargePath(agreementId, chargeId), { schema: ChargeResponseV3 })
  }

  listCharges(agreementId: string, status?: VippsChargeStatus) {
    return this.call('GET', `${agreementPath(agreementId)}/charges${status ? `?status=${status}` : ''}`, { schema: ChargeResponseV3.array() })
  }

  cancelCharge(agreementId: string, chargeId: string, idempotencyKey: string) {
    return this.call('DELETE', chargePath(agreementId, chargeId), { idempotencyKey })
  }

  captureCharge(agreementId: string, chargeId: string, amount: number, idempotencyKey: string) {
    return this.call('POST', `${chargePath(agreementId, chargeId)}/capture`, { body: { amount }, idempotencyKey })
  }

  refundCharge(agreementId: string, chargeId: string, refund: { amount: number; description: string }, idempotencyKey: string) {
    return this.call('POST', `${chargePath(agreementId, chargeId)}/refund`, { body: refund, idempotencyKey })
  }

  registerWebhook(hook: { url: string; events: string[] }, idempotencyKey: string) {
    return this.call('POST', '/webhooks/v1/webhooks', { body: hook, idempotencyKey, schema: RegisterWebhookResponse })
  }

  listWebhooks() {
    return this.call('GET', '/webhooks/v1/webhooks', { schema: WebhookList })
  }

  deleteWebhook(id: string, idempotencyKey: string) {
    return this.call('DELETE', `/webhooks/v1/webhooks/${encodeURIComponent(id)}`, { idempotencyKey })
  }

  /** One HTTP exchange with a timeout; network failures and timeouts come back as status 0. */
  private async exchange(method: string, path: string, headers: Record<string, string>, body?: string) {
    const controller = new AbortController()
    const timer = setTimeout(() => controller.abort(), this.timeoutMs)
    try {
      const res = await this.doFetch(`${this.baseUrl}${path}`, { method, headers, body, signal: controller.signal })
      const text = await res.text()
      return { status: res.status, text, retryAfter: res.headers.get('Retry-After') }
    } catch (err) {
      return { status: 0, text: '', retryAfter: null, error: err }
    } finally {
      clearTimeout(timer)
    }
  }

  private backoff(attempt: number, retryAfter: string | null): number {
    const seconds = Number(retryAfter)
    if (Number.isFinite(seconds) && seconds > 0) return Math.min(seconds * 1000, 30_000)
    return backoffMs(attempt, { baseMs: 250, maxMs: 8000, jitter: 'full', random: this.random })
  }

  private async fetchToken(): Promise<string> {
    const { credentials } = this
    for (let attempt = 0; ; attempt++) {
      const res = await this.exchange('POST', '/accesstoken/get', { ...this.common, client_id: credentials.clientId, client_secret: credentials.clientSecret })
      if (res.status === 200) {
        const parsed = AccessTokenResponse.safeParse(safeJson(res.text))
        if (!parsed.success) throw new VippsBadResponse('access token answer does not match the documented shape')
        this.token = { value: parsed.data.access_token, expiresAt: this.options.clock.now().getTime() + parsed.data.expires_in * 1000 }
        return this.token.value
      }
      if (!isTransient(res.status)) throw new VippsRejected(res.status, parseProblem(res.text))
      if (attempt + 1 >= this.maxAttempts) throw new VippsUnavailable('Vipps access token could not be fetched', res.status)
      await this.sleep(this.backoff(attempt, res.retryAfter))
    }
  }

  /** A valid access token, fetched once for concurrent callers and refreshed before expiry. */
  private validToken(forceRefresh = false): Promise<string> {
    const { token } = this
    if (!forceRefresh && token && token.expiresAt - TOKEN_MARGIN_MS > this.options.clock.now().getTime()) return Promise.resolve(token.value)
    this.tokenRequest ??= this.fetchToken().finally(() => (this.tokenRequest = undefined))
    return this.tokenRequest
  }

  private async call<S extends z.ZodType | undefined>(
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    path: string,
    opts: { body?: unknown; idempotencyKey?: string; schema?: S },
  ): Promise<S extends z.ZodType ? z.infer<S> : undefined> {
    if (method !== 'GET' && !opts.idempotencyKey) throw new Error(`Idempotency-Key required for ${method} ${path}`)
    // Vipps refuses a longer key (400 "Missing or invalid Idempotency-Key header"): build keys with vippsKeys.
    if (opts.idempotencyKey && opts.idempotencyKey.length > VIPPS_IDEMPOTENCY_KEY_MAX)
      throw new Error(`Idempotency-Key longer than ${VIPPS_IDEMPOTENCY_KEY_MAX} characters for ${method} ${path}`)
    const body = opts.body === undefined ? undefined : JSON.stringify(opts.body)
    let refreshed = false
    for (let attempt = 0; ; attempt++) {
      const headers: Record<string, string> = { ...this.common, Authorization: `Bearer ${await this.validToken()}`, Accept: 'application/json' }
      if (body !== undefined) headers['Content-Type'] = 'application/json'
      if (opts.idempotencyKey) headers['Idempotency-Key'] = opts.idempotencyKey
      const res = await this.exchange(method, path, headers, body)
      if (res.status >= 200 && res.status < 300) {
        if (!opts.schema) return undefined as never
        const parsed = opts.schema.safeParse(safeJson(res.text))
        if (!parsed.success) throw new VippsBadResponse(`${method} ${path}: answer does not match the documented shape`)
        return parsed.data as never
      }
      if (res.status === 401 && !refreshed) {
        refreshed = true
        await this.validToken(true)
        continue
      }
      if (!isTransient(res.status)) throw new VippsRejected(res.status, parseProblem(res.text))
      if (attempt + 1 >= this.maxAttempts) throw new VippsUnavailable(`${method} ${path} failed after ${this.maxAttempts} attempts`, res.status)
      await this.sleep(this.backoff(attempt, res.retryAfter))
    }
  }
}

export const createVippsClient = (credentials: VippsCredentials, options: VippsClientOptions) => new VippsClient(credentials, options)

const isTransient = (status: number) => status === 0 || status === 408 || status === 429 || status >= 500

const agreementPath = (id: string) => `/recurring/v3/agreements/${encodeURIComponent(id)}`
const chargePath = (agreementId: string, chargeId: string) => `${agreementPath(agreementId)}/charges/${encodeURIComponent(chargeId)}`

function safeJson(text: string): unknown {
  try {
    return text ? JSON.parse(text) : undefined
  } catch {
    return undefined
  }
}

function parseProblem(text: string): Problem | undefined {
  const parsed = Problem.safeParse(safeJson(text))
  return parsed.success ? parsed.data : undefined
}
