import { describe, expect, it, vi } from 'vitest'
import { eq } from 'drizzle-orm'
import { demo, testApp } from '../../test/harness'
import { TestClock } from '../../lib/clock'
import { createVippsClient } from '../../integrations/vipps/vipps.client'
import type { VippsEnvironment } from '../../integrations/vipps/vipps-environment'
import { signWebhook } from '../../integrations/vipps/webhook-signature'
import { paymentProviders, providerWebhooks, webhookEvents } from '../../db/schema/payments'
import type { VippsObservation } from './webhooks.service'

/** A stand-in for Vipps that answers the few calls these tests make. */
function fakeVipps() {
  const calls: string[] = []
  const fetch = (async (url: string, init: RequestInit) => {
    const path = new URL(url).pathname
    calls.push(`${init.method} ${path}`)
    if (path === '/accesstoken/get') return Response.json({ token_type: 'Bearer', expires_in: 3600, access_token: 't' })
    if (path === '/webhooks/v1/webhooks' && init.method === 'POST') return Response.json({ id: 'vipps-hook-1', secret: 'hook-secret-abcd' })
    if (path.startsWith('/webhooks/v1/webhooks/') && init.method === 'DELETE') return new Response(null, { status: 204 })
    if (path.includes('/charges/'))
      return Response.json({
        id: 'chr-1',
        agreementId: 'agr_1',
        amount: 45000,
        currency: 'DKK',
        description: 'Boligafgift',
        due: '2026-12-01',
        status: 'CHARGED',
        type: 'RECURRING',
        transactionType: 'DIRECT_CAPTURE',
        retryDays: 5,
        summary: { captured: 45000, refunded: 0, cancelled: 0 },
        history: [],
      })
    if (path.startsWith('/recurring/v3/agreements/'))
      return Response.json({
        id: 'agr_1',
        status: 'ACTIVE',
        pricing: { type: 'LEGACY', currency: 'DKK', amount: 45000 },
        interval: { unit: 'MONTH', count: 1 },
        productName: 'Boligafgift',
        created: '2026-11-01',
      })
    return new Response('not found', { status: 404 })
  }) as typeof globalThis.fetch
  const env: VippsEnvironment = {
    clientFor: (credentials) => createVippsClient(credentials, { clock: new TestClock(), baseUrl: 'http://fake-vipps', fetch, sleep: async () => {} }),
    publicBaseUrl: () => 'http://fake-vipps',
  }
  return { env, calls }
}

async function setup() {
  const vipps = fakeVipps()
  const t = await testApp({}, { vipps: vipps.env })
  const provider = (await t.db.select().from(paymentProviders).get())!
  const sa = await t.login(demo.superadmin)
  return { t, vipps, provider, sa }
}

const url = (providerId: string) => `http://localhost:3000/api/webhooks/vipps/${providerId}`
const payload = JSON.stringify({
  eventType: 'recurring.charge-captured.v1',
  agreementId: 'agr_1',
  chargeId: 'chr-1',
  amount: 45000,
  currency: 'DKK',
  occurred: '2026-11-23T09:00:00Z',
  msn: '212121',
})

describe('webhook management', () => {
  it('registers a webhook at Vipps, keeps the secret sealed and lists it', async () => {
    const { t, vipps, provider, sa } = await setup()
    const body = { webhookUrl: url(provider.id), events: ['recurring.charge-captured.v1', 'recurring.agreement-activated.v1'] }
    const res = await t.call('POST', `/webhook/register/${provider.id}`, { token: sa, body })
    expect(res.status).toBe(201)
    expect(res.json).toMatchObject({ url: body.webhookUrl, events: body.events })
    expect(vipps.calls).toContain('POST /webhooks/v1/webhooks')
    const row = (await t.db.select().from(providerWebhooks).get())!
    expect(row.secretSealed).not.toContain('hook-secret')
    expect(t.services.secrets.open(row.secretSealed!)).toBe('hook-secret-abcd')
    expect((await t.call('GET', `/webhook/${provider.id}`, { token: sa })).json).toEqual([res.json])
    expect((await t.call('GET', '/webhook/providers', { token: sa })).json[0]).toMatchObject({ id: provider.id, webhookCount: 1, isActive: true })
    const again = await t.call('POST', `/webhook/register/${provider.id}`, { token: sa, body })
    expect(again.status).toBe(409)
  })

  it('sends the provider again through sync when its webhooks change (hooks and count of the synced copy)', async () => {
    const { t, provider, sa } = await setup()
    // Pull everything first; afterwards each pull brings only what changed since.
    let cursor = ''
    const pull = async () => {
      const changes: { entity: string; id: string; data?: Record<string, unknown> }[] = []
      for (;;) {
        const page = (await t.call('GET', `/sync?limit=500${cursor ? `&cursor=${cursor}` : ''}`, { token: sa })).json
        changes.push(...page.changes)
        cursor = page.cursor
        if (!page.hasMore) return changes
      }
    }
    await pull()
    const providerChange = async () => (await pull()).find((c) => c.entity === 'paymentProvider' && c.id === provider.id)
    const added = await t.call('POST', `/webhook/register/${provider.id}`, {
      token: sa,
      body: { webhookUrl: url(provider.id), events: ['recurring.charge-captured.v1'] },
    })
    expect((await providerChange())?.data).toMatchObject({ webhookCount: 1, hooks: [{ id: added.json.id, url: url(provider.id) }] })
    expect((await t.call('DELETE', `/webhook/${provider.id}?hookId=${added.json.id}`, { token: sa })).status).toBe(204)
    expect((await providerChange())?.data).toMatchObject({ webhookCount: 0, hooks: [] })
  })

  it('validates the URL and events with the messages of docs/PRODUCT.md §5', async () => {
    const { t, provider, sa } = await setup()
    const noUrl = await t.call('POST', `/webhook/register/${provider.id}`, { token: sa, body: { webhookUrl: '', events: ['recurring.charge-captured.v1'] } })
    expect(noUrl.json.issues).toContainEqual({ path: 'webhookUrl', message: 'Please provide a webhook URL.' })
    const noEvents = await t.call('POST', `/webhook/register/${provider.id}`, { token: sa, body: { webhookUrl: url(provider.id), events: [] } })
    expect(noEvents.json.issues).toContainEqual({ path: 'events', message: 'Please provide both a webhook URL and select at least one event' })
  })

  it('is refused while the provider is inactive, and for anyone but the super admin', async () => {
    const { t, provider, sa } = await setup()
    const admin = await t.login(demo.admin)
    expect((await t.call('GET', `/webhook/${provider.id}`, { token: admin })).status).toBe(403)
    expect((await t.call('GET', '/webhook/providers', { token: admin })).status).toBe(403)
    await t.db.update(paymentProviders).set({ isActive: false }).where(eq(paymentProviders.id, provider.id)).run()
    const res = await t.call('POST', `/webhook/register/${provider.id}`, {
      token: sa,
      body: { webhookUrl: url(provider.id), events: ['recurring.charge-captured.v1'] },
    })
    expect(res.status).toBe(409)
    expect(res.json.message).toBe('The payment provider is inactive.')
  })

  it('deletes a webhook at Vipps and here', async () => {
    const { t, vipps, provider, sa } = await setup()
    const hook = (
      await t.call('POST', `/webhook/register/${provider.id}`, { token: sa, body: { webhookUrl: url(provider.id), events: ['recurring.charge-captured.v1'] } })
    ).json
    expect((await t.call('DELETE', `/webhook/${provider.id}?hookId=${hook.id}`, { token: sa })).status).toBe(204)
    expect(vipps.calls).toContain('DELETE /webhooks/v1/webhooks/vipps-hook-1')
    expect((await t.call('GET', `/webhook/${provider.id}`, { token: sa })).json).toEqual([])
  })
})

describe('receiving Vipps webhooks', () => {
  async function withHook() {
    const s = await setup()
    await s.t.call('POST', `/webhook/register/${s.provider.id}`, {
      token: s.sa,
      body: { webhookUrl: url(s.provider.id), events: ['recurring.charge-captured.v1'] },
    })
    const deliver = (body: string, opts: { secret?: string; date?: Date; tamper?: boolean } = {}) => {
      const headers = signWebhook(opts.secret ?? 'hook-secret-abcd', url(s.provider.id), body, opts.date ?? s.t.clock.now())
      return s.t.app.request(url(s.provider.id), {
        method: 'POST',
        headers: { ...headers, 'Content-Type': 'application/json' },
        body: opts.tamper ? body.replace('45000', '1') : body,
      })
    }
    return { ...s, deliver }
  }

  it('accepts a signed delivery once, even when Vipps sends it twice', async () => {
    const { t, provider, deliver } = await withHook()
    expect((await deliver(payload)).status).toBe(202)
    expect((await deliver(payload)).status).toBe(202)
    const events = await t.db.select().from(webhookEvents).where(eq(webhookEvents.providerId, provider.id)).all()
    expect(events).toHaveLength(1)
    expect(events[0]).toMatchObject({ eventType: 'recurring.charge-captured.v1', agreementId: 'agr_1', chargeId: 'chr-1', status: 'received' })
  })

  it('refuses a wrong secret, an altered body or a stale date with 401 and stores nothing', async () => {
    const { t, deliver } = await withHook()
    expect((await deliver(payload, { secret: 'wrong' })).status).toBe(401)
    expect((await deliver(payload, { tamper: true })).status).toBe(401)
    expect((await deliver(payload, { date: new Date(t.clock.now().getTime() - 10 * 60 * 1000) })).status).toBe(401)
    expect(await t.db.select().from(webhookEvents).all()).toHaveLength(0)
  })

  it('processes a delivery by re-reading the charge from Vipps and handing it to the domain', async () => {
    const { t, vipps, deliver } = await withHook()
    const seen: VippsObservation[] = []
    // What the webhook hands to the domain (the observer given to the webhooks service in app.ts), passed on unchanged.
    const observe = t.services.vippsObserver.observe
    vi.spyOn(t.services.vippsObserver, 'observe').mockImplementation(async (o) => {
      seen.push(o)
      await observe(o)
    })
    await deliver(payload)
    expect(await t.services.webhooks.processDue()).toBe(1)
    expect(vipps.calls).toContain('GET /recurring/v3/agreements/agr_1/charges/chr-1')
    expect(seen).toHaveLength(1)
    expect(seen[0]).toMatchObject({ kind: 'charge', eventType: 'recurring.charge-captured.v1', charge: { status: 'CHARGED', summary: { captured: 45000 } } })
    expect(await t.db.select().from(webhookEvents).get()).toMatchObject({ status: 'processed', observedStatus: 'CHARGED' })
    expect(await t.services.webhooks.processDue()).toBe(0)
  })

  it('answers an unknown provider exactly like a known one with a bad signature', async () => {
    const { t, provider, sa } = await withHook()
    const unknown = '0190d5e6-0000-7000-8000-000000000000'
    const config = { providerName: 'Uden webhooks', merchantSerialNumber: '2', subscriptionKey: 'abcdef', clientId: 'c', clientSecret: 'secret' }
    const noHooks = (await t.call('POST', `/company/${provider.companyId}/payment-providers`, { token: sa, body: { config } })).json.id as string
    const send = async (providerId: string, secret: string) => {
      const headers = signWebhook(secret, url(providerId), payload, t.clock.now())
      const res = await t.app.request(url(providerId), { method: 'POST', headers: { ...headers, 'Content-Type': 'application/json' }, body: payload })
      return { status: res.status, contentType: res.headers.get('Content-Type'), body: await res.text() }
    }
    const badSignature = await send(provider.id, 'wrong')
    expect(badSignature.status).toBe(401)
    expect(JSON.parse(badSignature.body)).toEqual({ message: 'Invalid webhook signature.', code: 'UNAUTHENTICATED' })
    // Signed with the real hook's secret, even: the id is what is unknown.
    expect(await send(unknown, 'hook-secret-abcd')).toEqual(badSignature)
    expect(await send(unknown, 'wrong')).toEqual(badSignature)
    expect(await send(noHooks, 'wrong')).toEqual(badSignature)
    const unsigned = await t.app.request(url(unknown), { method: 'POST', body: payload })
    expect({ status: unsigned.status, body: await unsigned.text() }).toEqual({ status: 401, body: badSignature.body })
    expect(await t.db.select().from(webhookEvents).all()).toHaveLength(0)
  })
})
