/**
 * Webhooks end to end with the built-in emulator: registered through our API, signed and
 * delivered by the emulator (twice and out of order too), verified, stored once, and processed by
 * re-reading the object from Vipps.
 */
import { describe, expect, it, vi } from 'vitest'
import { paymentProviders, webhookEvents } from '../../db/schema/payments'
import { demo, testAppWithVipps } from '../../test/harness'
import type { VippsObservation } from './webhooks.service'

describe('webhooks from the emulator', () => {
  it('arrive signed, are stored once, and are processed with the state re-read from Vipps', async () => {
    const t = await testAppWithVipps()
    const provider = (await t.db.select().from(paymentProviders).get())!
    const sa = await t.login(demo.superadmin)
    const hook = await t.call('POST', `/webhook/register/${provider.id}`, {
      token: sa,
      body: {
        webhookUrl: `http://localhost:3000/api/webhooks/vipps/${provider.id}`,
        events: ['recurring.agreement-activated.v1', 'recurring.charge-captured.v1'],
      },
    })
    expect(hook.status).toBe(201)
    const seen: VippsObservation[] = []
    // What the webhook hands to the domain (the observer given to the webhooks service in app.ts), passed on unchanged.
    const observe = t.services.vippsObserver.observe
    vi.spyOn(t.services.vippsObserver, 'observe').mockImplementation(async (o) => {
      seen.push(o)
      await observe(o)
    })

    const control = (path: string, body: unknown = {}) =>
      t.app.request(`/vipps-emulator/_control/${path}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) })
    await control('webhooks', { mode: 'duplicate' })
    const client = t.services.providers.vippsClient(provider)
    const draft = await client.createAgreement(
      {
        pricing: { type: 'LEGACY', currency: 'DKK', amount: 450000 },
        interval: { unit: 'MONTH', count: 1 },
        productName: 'Boligafgift',
        merchantRedirectUrl: 'http://localhost:3000/agreements/x',
      },
      'agreement-x',
    )
    await control(`approve/${draft.agreementId}`)
    await t.emulator.deliverWebhooksNow({ all: true })

    const stored = await t.db.select().from(webhookEvents).all()
    expect(stored.map((e) => e.eventType)).toEqual(['recurring.agreement-activated.v1'])
    expect(await t.services.webhooks.processDue()).toBe(1)
    expect(seen).toHaveLength(1)
    expect(seen[0]).toMatchObject({ kind: 'agreement', agreement: { id: draft.agreementId, status: 'ACTIVE' } })
  })

  it('are registered, listed and removed through the API, at Vipps too (a key Vipps accepts)', async () => {
    const t = await testAppWithVipps()
    const provider = (await t.db.select().from(paymentProviders).get())!
    const sa = await t.login(demo.superadmin)
    const url = `http://localhost:3000/api/webhooks/vipps/${provider.id}`
    const registered = await t.call('POST', `/webhook/register/${provider.id}`, {
      token: sa,
      body: { webhookUrl: url, events: ['recurring.charge-failed.v1'] },
    })
    expect(registered.status, JSON.stringify(registered.json)).toBe(201)
    const listed = await t.call('GET', `/webhook/${provider.id}`, { token: sa })
    expect(listed.json).toEqual([{ id: registered.json.id, url, events: ['recurring.charge-failed.v1'] }])
    const atVipps = () => Object.values(t.emulator.state.data.hooks).filter((h) => h.url === url)
    expect(atVipps()).toHaveLength(1)

    const removed = await t.call('DELETE', `/webhook/${provider.id}?hookId=${registered.json.id}`, { token: sa })
    expect(removed.status, JSON.stringify(removed.json)).toBe(204)
    expect((await t.call('GET', `/webhook/${provider.id}`, { token: sa })).json).toEqual([])
    expect(atVipps()).toEqual([])
    expect(Object.keys(t.emulator.state.data.idempotency).every((k) => k.split(':').slice(1).join(':').length <= 40)).toBe(true)
  })
})
