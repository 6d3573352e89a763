import { Hono } from 'hono'
import { describe, expect, it } from 'vitest'
import { RecurringWebhookPayload, RegisterWebhookResponse, WebhookList } from '../vipps.schemas'
import { verifyWebhook } from '../webhook-signature'
import type { TestClock } from '../../../lib/clock'
import { MSN, setup } from './emulator.test-support'

const HOOK_URL = 'http://localhost:3000/api/webhooks/vipps/provider-1?tenant=a'

/** A receiver like the product's: verifies each delivery and answers with the next scripted status. */
function receiver(clock: TestClock, secret: () => string, statuses: number[] = []) {
  const received: { payload: RecurringWebhookPayload; verified: boolean }[] = []
  const app = new Hono().post('*', async (c) => {
    const url = new URL(c.req.url)
    const body = await c.req.text()
    const check = verifyWebhook(
      secret(),
      {
        pathAndQuery: url.pathname + url.search,
        host: url.host,
        body,
        headers: { date: c.req.header('x-ms-date'), contentSha: c.req.header('x-ms-content-sha256'), authorization: c.req.header('Authorization') },
      },
      clock.now(),
    )
    received.push({ payload: RecurringWebhookPayload.parse(JSON.parse(body)), verified: check.ok })
    return c.body(null, (statuses.shift() ?? 200) as 200)
  })
  const fetch = ((input: string | URL | Request, init?: RequestInit) => app.request(new Request(input, init))) as typeof globalThis.fetch
  return { received, fetch }
}

async function withHook(
  statuses: number[] = [],
  events: string[] = ['recurring.agreement-activated.v1', 'recurring.charge-captured.v1', 'recurring.charge-failed.v1'],
) {
  let secret = ''
  let fetchImpl: typeof globalThis.fetch = globalThis.fetch
  const t = setup({ fetch: ((input: string | URL | Request, init?: RequestInit) => fetchImpl(input, init)) as typeof globalThis.fetch })
  const r = receiver(t.clock, () => secret, statuses)
  fetchImpl = r.fetch
  const res = await t.call('POST', '/webhooks/v1/webhooks', { body: { url: HOOK_URL, events } })
  expect(res.status).toBe(201)
  const registered = RegisterWebhookResponse.parse(await res.json())
  secret = registered.secret
  return { ...t, ...r, hookId: registered.id }
}

describe('Vipps emulator: Webhooks API', () => {
  it('registers, lists and deletes webhooks per merchant', async () => {
    const t = setup()
    const res = await t.call('POST', '/webhooks/v1/webhooks', { body: { url: HOOK_URL, events: ['recurring.charge-captured.v1'] }, key: null })
    expect(res.status).toBe(201)
    const { id, secret } = RegisterWebhookResponse.parse(await res.json())
    expect(secret.length).toBeGreaterThanOrEqual(32)
    expect(WebhookList.parse(await t.getJson('/webhooks/v1/webhooks'))).toEqual({ webhooks: [{ id, url: HOOK_URL, events: ['recurring.charge-captured.v1'] }] })
    expect(await (await t.call('GET', '/webhooks/v1/webhooks', { msn: '654321' })).json()).toEqual({ webhooks: [] })
    expect((await t.call('DELETE', `/webhooks/v1/webhooks/${id}`, { msn: '654321' })).status).toBe(404)
    expect((await t.call('DELETE', `/webhooks/v1/webhooks/${id}`)).status).toBe(204)
    expect(await t.getJson('/webhooks/v1/webhooks')).toEqual({ webhooks: [] })
  })

  it('refuses a registration without events, with an unknown event or a bad URL', async () => {
    const t = setup()
    for (const body of [
      { url: HOOK_URL, events: [] },
      { url: HOOK_URL, events: ['epayments.payment.captured.v1'] },
      { url: 'not a url', events: ['recurring.charge-captured.v1'] },
    ])
      expect((await t.call('POST', '/webhooks/v1/webhooks', { body })).status, JSON.stringify(body)).toBe(400)
  })
})

describe('Vipps emulator: webhook delivery', () => {
  it('delivers subscribed events, signed with the hook secret, with the recurring payload', async () => {
    const t = await withHook()
    const id = await t.activeAgreement({ externalId: 'agreement-row-1' })
    const chargeId = await t.createCharge(id, { due: '2026-11-24', externalId: 'payment-row-1' })
    await t.advanceDays(1)
    await t.emulator.processDue()
    expect(t.received).toEqual([]) // nothing is sent until the queue is flushed
    await t.emulator.deliverWebhooksNow()
    expect(t.received.every((r) => r.verified)).toBe(true)
    expect(t.received.map((r) => r.payload)).toEqual([
      {
        eventType: 'recurring.agreement-activated.v1',
        agreementId: id,
        agreementExternalId: 'agreement-row-1',
        occurred: '2026-11-23T09:00:00.000Z',
        msn: MSN,
      },
      {
        eventType: 'recurring.charge-captured.v1',
        agreementId: id,
        agreementExternalId: 'agreement-row-1',
        chargeId,
        chargeExternalId: 'payment-row-1',
        amount: 45000,
        currency: 'DKK',
        occurred: '2026-11-24T09:00:00.000Z',
        msn: MSN,
        failureReason: null,
      },
    ])
  })

  it('sends only the events a hook subscribed to, and only to hooks of the same merchant', async () => {
    const t = await withHook([], ['recurring.charge-failed.v1'])
    await t.activeAgreement()
    await t.activeAgreement({}, '654321')
    await t.emulator.deliverWebhooksNow()
    expect(t.received).toEqual([])
  })

  it('retries after a 500 from the receiver with backoff, until it is accepted', async () => {
    const t = await withHook([500, 503])
    await t.activeAgreement()
    await t.emulator.deliverWebhooksNow()
    expect(t.received).toHaveLength(1)
    await t.emulator.deliverWebhooksNow()
    expect(t.received).toHaveLength(1) // the retry waits 1 s
    t.clock.advance(1000)
    await t.emulator.deliverWebhooksNow()
    expect(t.received).toHaveLength(2)
    t.clock.advance(1999)
    await t.emulator.deliverWebhooksNow()
    expect(t.received).toHaveLength(2) // then 2 s
    t.clock.advance(1)
    await t.emulator.deliverWebhooksNow()
    expect(t.received).toHaveLength(3)
    expect(t.received.every((r) => r.verified && r.payload.eventType === 'recurring.agreement-activated.v1')).toBe(true)
    expect(t.emulator.state.data.deliveries).toEqual([])
  })

  it('retries after a network error, and gives up after 10 attempts', async () => {
    let calls = 0
    const t = setup({
      fetch: (async () => {
        calls++
        throw new TypeError('fetch failed')
      }) as typeof globalThis.fetch,
    })
    await t.call('POST', '/webhooks/v1/webhooks', { body: { url: HOOK_URL, events: ['recurring.agreement-activated.v1'] } })
    await t.activeAgreement()
    for (let i = 0; i < 12; i++) {
      await t.emulator.deliverWebhooksNow()
      t.clock.advance(10 * 60 * 1000)
    }
    expect(calls).toBe(10)
    expect(t.emulator.state.data.deliveries).toEqual([])
    expect(t.emulator.state.data.deadDeliveries).toEqual([expect.objectContaining({ attempts: 10, lastError: 'TypeError: fetch failed' })])
  })

  it('delivers every event twice in duplicate mode', async () => {
    const t = await withHook()
    expect((await t.control('webhooks', { mode: 'duplicate' })).status).toBe(200)
    const id = await t.activeAgreement()
    await t.emulator.deliverWebhooksNow()
    expect(t.received.map((r) => [r.payload.eventType, r.payload.agreementId, r.verified])).toEqual([
      ['recurring.agreement-activated.v1', id, true],
      ['recurring.agreement-activated.v1', id, true],
    ])
  })

  it('delivers queued events newest first in reverse mode', async () => {
    const t = await withHook()
    await t.control('webhooks', { mode: 'reverse' })
    const id = await t.activeAgreement()
    await t.createCharge(id, { due: '2026-11-24' })
    await t.advanceDays(1)
    await t.emulator.processDue()
    await t.control('deliver-webhooks')
    expect(t.received.map((r) => r.payload.eventType)).toEqual(['recurring.charge-captured.v1', 'recurring.agreement-activated.v1'])
  })

  it('drops the queue of a deleted hook', async () => {
    const t = await withHook([500])
    await t.activeAgreement()
    await t.emulator.deliverWebhooksNow()
    await t.call('DELETE', `/webhooks/v1/webhooks/${t.hookId}`)
    t.clock.advance(60_000)
    await t.emulator.deliverWebhooksNow()
    expect(t.received).toHaveLength(1)
    expect(t.emulator.state.data.deliveries).toEqual([])
  })
})
