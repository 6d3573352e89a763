import { TestClock } from '../../../lib/clock'
import { createVippsEmulator, type VippsEmulatorOptions } from './emulator.app'

/** Shared set-up for the emulator's tests: a fixed clock, a token, and a tiny API caller. */
export const BASE_URL = 'http://localhost:3900/vipps'
export const MSN = '123456'

let keys = 0
export const newKey = () => `key-${++keys}`

export function setup(options: Partial<VippsEmulatorOptions> = {}) {
  // 10:00 in Copenhagen on Monday 23 November 2026.
  const clock = new TestClock('2026-11-23T09:00:00.000Z')
  const emulator = createVippsEmulator({ clock, baseUrl: BASE_URL, hangMs: 200, ...options })
  const tokens = new Map<string, string>()

  async function token(msn = MSN): Promise<string> {
    const cached = tokens.get(msn)
    if (cached) return cached
    const res = await emulator.app.request('/accesstoken/get', {
      method: 'POST',
      headers: { client_id: 'client', client_secret: 'secret', 'Ocp-Apim-Subscription-Key': 'sub-key', 'Merchant-Serial-Number': msn },
    })
    const body = (await res.json()) as { access_token: string }
    tokens.set(msn, body.access_token)
    return body.access_token
  }

  interface CallOptions {
    body?: unknown
    /** Idempotency-Key; a fresh one by default on writes, `null` to leave it out. */
    key?: string | null
    msn?: string
    headers?: Record<string, string>
    signal?: AbortSignal
  }

  async function call(method: string, path: string, opts: CallOptions = {}): Promise<Response> {
    const msn = opts.msn ?? MSN
    const headers: Record<string, string> = {
      Authorization: `Bearer ${await token(msn)}`,
      'Ocp-Apim-Subscription-Key': 'sub-key',
      'Merchant-Serial-Number': msn,
      ...opts.headers,
    }
    if (opts.body !== undefined) headers['Content-Type'] = 'application/json'
    const write = method !== 'GET'
    const key =
      opts.key === undefined ?
        write ? newKey()
        : null
      : opts.key
    if (key !== null) headers['Idempotency-Key'] = key
    return emulator.app.request(path, { method, headers, body: opts.body === undefined ? undefined : JSON.stringify(opts.body), signal: opts.signal })
  }

  const draft = (over: Record<string, unknown> = {}) => ({
    pricing: { type: 'LEGACY', currency: 'DKK', amount: 45000 },
    interval: { unit: 'MONTH', count: 1 },
    productName: 'Boligafgift, Lejlighed 2 th.',
    merchantRedirectUrl: 'http://localhost:3000/agreements/return',
    merchantAgreementUrl: 'http://localhost:3000/agreements',
    phoneNumber: '4512345678',
    ...over,
  })

  async function createAgreement(over: Record<string, unknown> = {}, msn = MSN): Promise<string> {
    const res = await call('POST', '/recurring/v3/agreements', { body: draft(over), msn })
    if (res.status !== 201) throw new Error(`create agreement: ${res.status} ${await res.text()}`)
    return ((await res.json()) as { agreementId: string }).agreementId
  }

  async function activeAgreement(over: Record<string, unknown> = {}, msn = MSN): Promise<string> {
    const id = await createAgreement(over, msn)
    const res = await emulator.app.request(`/_control/approve/${id}`, { method: 'POST' })
    if (res.status !== 200) throw new Error(`approve: ${res.status} ${await res.text()}`)
    return id
  }

  const charge = (over: Record<string, unknown> = {}) => ({
    amount: 45000,
    description: 'Boligafgift december',
    due: '2026-12-01',
    retryDays: 2,
    transactionType: 'DIRECT_CAPTURE',
    type: 'RECURRING',
    ...over,
  })

  async function createCharge(agreementId: string, over: Record<string, unknown> = {}): Promise<string> {
    const res = await call('POST', `/recurring/v3/agreements/${agreementId}/charges`, { body: charge(over) })
    if (res.status !== 201) throw new Error(`create charge: ${res.status} ${await res.text()}`)
    return ((await res.json()) as { chargeId: string }).chargeId
  }

  async function getJson<T = Record<string, unknown>>(path: string): Promise<T> {
    const res = await call('GET', path)
    if (res.status !== 200) throw new Error(`GET ${path}: ${res.status} ${await res.text()}`)
    return (await res.json()) as T
  }

  async function control(path: string, body?: unknown): Promise<Response> {
    return emulator.app.request(`/_control/${path}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
  }

  /** Lets business days pass on the emulator's own clock (tokens and transport keep the injected clock). */
  async function advanceDays(days: number): Promise<void> {
    const res = await control('clock', { advanceMs: days * 24 * 60 * 60 * 1000 })
    if (res.status !== 200) throw new Error(`clock: ${res.status}`)
  }

  return { clock, emulator, app: emulator.app, token, call, draft, createAgreement, activeAgreement, charge, createCharge, getJson, control, advanceDays }
}

/** A problem+json answer, parsed. */
export async function problemOf(res: Response) {
  return (await res.json()) as {
    type: string
    title: string
    status: number
    detail: string
    instance: string
    contextId: string
    extraDetails: { name: string; reason: string }[]
  }
}
