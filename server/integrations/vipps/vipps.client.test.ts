import { describe, expect, it } from 'vitest'
import { TestClock } from '../../lib/clock'
import { createVippsClient } from './vipps.client'
import { VippsBadResponse, VippsRejected, VippsUnavailable } from './vipps.errors'

const credentials = { clientId: 'cid', clientSecret: 'csecret', subscriptionKey: 'sub', merchantSerialNumber: '123456', isTest: true }
type Seen = { method: string; url: string; headers: Record<string, string>; body?: string }

function fakeVipps(answers: Array<(req: Seen) => Response | Promise<Response> | 'hang'>) {
  const seen: Seen[] = []
  const fetch: typeof globalThis.fetch = (async (url: string, init: RequestInit): Promise<Response> => {
    const req = { method: init.method!, url, headers: init.headers as Record<string, string>, body: init.body as string | undefined }
    seen.push(req)
    if (req.url.endsWith('/accesstoken/get'))
      return Response.json({ token_type: 'Bearer', expires_in: 3600, access_token: `tok-${seen.filter((s) => s.url.endsWith('/accesstoken/get')).length}` })
    const next = answers.shift()
    if (!next) throw new Error(`unexpected call ${req.method} ${url}`)
    const answer = next(req)
    if (answer === 'hang')
      return new Promise<Response>((_, reject) => init.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))))
    return answer
  }) as typeof fetch
  return { fetch, seen, apiCalls: () => seen.filter((s) => !s.url.endsWith('/accesstoken/get')) }
}

const problem = (status: number, detail: string, name?: string) =>
  new Response(JSON.stringify({ type: 'about:blank', title: 'Bad Request', status, detail, extraDetails: name ? [{ name, reason: detail }] : [] }), {
    status,
    headers: { 'Content-Type': 'application/problem+json' },
  })
const noSleep = async () => {}

describe('Vipps client', () => {
  it('sends the common headers, the bearer token and the Idempotency-Key on writes', async () => {
    const vipps = fakeVipps([() => Response.json({ chargeId: 'chr-1' })])
    const client = createVippsClient(credentials, { clock: new TestClock(), fetch: vipps.fetch, baseUrl: 'http://emu' })
    const res = await client.createCharge(
      'agr_1',
      { amount: 45000, transactionType: 'DIRECT_CAPTURE', description: 'Boligafgift', due: '2026-12-01', retryDays: 5 },
      'charge-row-1',
    )
    expect(res).toEqual({ chargeId: 'chr-1' })
    const [call] = vipps.apiCalls()
    expect(call!.url).toBe('http://emu/recurring/v3/agreements/agr_1/charges')
    expect(call!.headers).toMatchObject({
      Authorization: 'Bearer tok-1',
      'Idempotency-Key': 'charge-row-1',
      'Ocp-Apim-Subscription-Key': 'sub',
      'Merchant-Serial-Number': '123456',
      'Vipps-System-Name': 'boligkasse',
    })
    const token = vipps.seen.find((s) => s.url.endsWith('/accesstoken/get'))!
    expect(token.headers).toMatchObject({ client_id: 'cid', client_secret: 'csecret' })
  })

  it('uses the test or production environment unless a base URL is given', () => {
    expect(createVippsClient(credentials, { clock: new TestClock() }).baseUrl).toBe('https://apitest.vipps.no')
    expect(createVippsClient({ ...credentials, isTest: false }, { clock: new TestClock() }).baseUrl).toBe('https://api.vipps.no')
  })

  it('caches the access token and refreshes it before it expires', async () => {
    const clock = new TestClock()
    const ok = () =>
      Response.json({
        id: 'agr_1',
        status: 'ACTIVE',
        pricing: { type: 'LEGACY', currency: 'DKK', amount: 100 },
        interval: {},
        productName: 'x',
        created: '2026-01-01',
      })
    const vipps = fakeVipps([ok, ok, ok])
    const client = createVippsClient(credentials, { clock, fetch: vipps.fetch })
    await Promise.all([client.getAgreement('agr_1'), client.getAgreement('agr_1')])
    expect(vipps.seen.filter((s) => s.url.endsWith('/accesstoken/get'))).toHaveLength(1)
    clock.advance(56 * 60 * 1000)
    await client.getAgreement('agr_1')
    expect(vipps.seen.filter((s) => s.url.endsWith('/accesstoken/get'))).toHaveLength(2)
  })

  it('retries 5xx, 429 (honouring Retry-After) and timeouts with the same Idempotency-Key', async () => {
    const waits: number[] = []
    const vipps = fakeVipps([
      () => problem(500, 'boom'),
      () => new Response('', { status: 429, headers: { 'Retry-After': '2' } }),
      () => 'hang',
      () => new Response(null, { status: 204 }),
    ])
    const client = createVippsClient(credentials, { clock: new TestClock(), fetch: vipps.fetch, timeoutMs: 20, sleep: async (ms) => void waits.push(ms) })
    await client.refundCharge('agr_1', 'chr-1', { amount: 100, description: 'Refund' }, 'refund-7')
    const calls = vipps.apiCalls()
    expect(calls).toHaveLength(4)
    expect(new Set(calls.map((c) => c.headers['Idempotency-Key']))).toEqual(new Set(['refund-7']))
    expect(waits[1]).toBe(2000)
  })

  it('gives up with VippsUnavailable after the last attempt', async () => {
    const vipps = fakeVipps([() => problem(503, 'down'), () => problem(503, 'down')])
    const client = createVippsClient(credentials, { clock: new TestClock(), fetch: vipps.fetch, maxAttempts: 2, sleep: noSleep })
    await expect(client.cancelCharge('agr_1', 'chr-1', 'cancel-1')).rejects.toBeInstanceOf(VippsUnavailable)
  })

  it('maps a 4xx problem to VippsRejected without retrying', async () => {
    const vipps = fakeVipps([() => problem(400, 'Refund amount too high', 'amount')])
    const client = createVippsClient(credentials, { clock: new TestClock(), fetch: vipps.fetch, sleep: noSleep })
    const err = (await client.refundCharge('agr_1', 'chr-1', { amount: 9999999, description: 'x' }, 'r').catch((e: unknown) => e)) as VippsRejected
    expect(err).toBeInstanceOf(VippsRejected)
    expect(err.message).toBe('Refund amount too high')
    expect(err.fields).toEqual(['amount'])
    expect(vipps.apiCalls()).toHaveLength(1)
  })

  it('refreshes the token once on 401', async () => {
    const vipps = fakeVipps([() => new Response('', { status: 401 }), () => Response.json({ webhooks: [] })])
    const client = createVippsClient(credentials, { clock: new TestClock(), fetch: vipps.fetch })
    expect(await client.listWebhooks()).toEqual({ webhooks: [] })
    expect(vipps.apiCalls().map((c) => c.headers.Authorization)).toEqual(['Bearer tok-1', 'Bearer tok-2'])
  })

  it('refuses an answer that does not match the documented shape', async () => {
    const vipps = fakeVipps([() => Response.json({ nope: true })])
    const client = createVippsClient(credentials, { clock: new TestClock(), fetch: vipps.fetch })
    await expect(client.getCharge('agr_1', 'chr-1')).rejects.toBeInstanceOf(VippsBadResponse)
  })

  it('never sends a write without an Idempotency-Key', async () => {
    const client = createVippsClient(credentials, { clock: new TestClock(), fetch: fakeVipps([]).fetch })
    await expect(client.stopAgreement('agr_1', '')).rejects.toThrow(/Idempotency-Key required/)
  })

  it('never sends an Idempotency-Key longer than the 40 characters Vipps accepts', async () => {
    const vipps = fakeVipps([])
    const client = createVippsClient(credentials, { clock: new TestClock(), fetch: vipps.fetch })
    await expect(client.deleteWebhook('hook-1', `delete-${'0'.repeat(36)}`)).rejects.toThrow(/longer than 40/)
    expect(vipps.apiCalls()).toEqual([])
  })
})
