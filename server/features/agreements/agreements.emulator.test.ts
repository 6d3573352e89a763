/**
 * Agreements against the built-in Vipps emulator: accept → approve → ACCEPTED, reject in Vipps,
 * expiry after 10 minutes on the emulator clock, webhooks twice and out of order, Vipps down
 * during accept, price updates, and termination with a final charge.
 */
import { describe, expect, it } from 'vitest'
import { eq } from 'drizzle-orm'
import { demo, testAppWithVipps } from '../../test/harness'
import { agreements, providerOutbox } from '../../db/schema/agreements'
import { webhookEvents } from '../../db/schema/payments'
import { vippsWebhookEvents } from '../../../shared/contract/webhooks'
import { agreementFixtures, createAgreement } from './test-helpers'

type EmulatorState = { agreements: Record<string, { status: string; pricing: { amount?: number } }>; charges?: unknown }

async function setup({ webhooks = true } = {}) {
  const t = await testAppWithVipps()
  const f = await agreementFixtures(t)
  if (webhooks) {
    const hook = await t.call('POST', `/webhook/register/${f.provider}`, {
      token: await t.login(demo.superadmin),
      body: { webhookUrl: `http://localhost:3000/api/webhooks/vipps/${f.provider}`, events: [...vippsWebhookEvents] },
    })
    expect(hook.status, JSON.stringify(hook.json)).toBe(201)
  }
  const a = await createAgreement(t)
  const resident = await t.login(demo.resident)
  const admin = await t.login(demo.admin)
  const control = async (path: string, body: unknown = {}) => {
    const res = await t.app.request(`/vipps-emulator/_control/${path}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    })
    expect(res.status, await res.clone().text()).toBe(200)
    return res.json()
  }
  const emulatorState = async () => (await (await t.app.request('/vipps-emulator/_control/state')).json()) as EmulatorState
  /** Vipps delivers every queued webhook; our job processes them. */
  const deliver = async () => {
    await t.emulator.deliverWebhooksNow({ all: true })
    await t.services.webhooks.processDue()
  }
  const status = async () => (await t.call('GET', `/agreement/${a.id}`, { token: admin })).json.status as string
  const vippsId = async () => (await t.db.select().from(agreements).where(eq(agreements.id, a.id)).get())!.vippsAgreementId!
  const accept = async () => {
    const res = await t.call('POST', `/agreement/${a.id}/accept`, { token: resident })
    expect(res.status, JSON.stringify(res.json)).toBe(200)
    return res.json.confirmationUrl as string
  }
  return { t, f, a, resident, admin, control, emulatorState, deliver, status, vippsId, accept }
}

const titles = async (t: Awaited<ReturnType<typeof setup>>['t'], token: string) =>
  ((await t.call('GET', '/notifications', { token })).json as { title: string }[]).map((n) => n.title)

describe('accepting an agreement through Vipps MobilePay (emulator)', () => {
  it('accept → PENDING with the confirmation URL; approve in Vipps → ACCEPTED, and the staff are told once', async () => {
    const s = await setup()
    const url = await s.accept()
    expect(url).toMatch(/^http:\/\/localhost:3000\/vipps-emulator\/confirm\/agr_/)
    expect(await s.status()).toBe('PENDING')
    // Accepting again (a retried request) answers the same URL and makes no second Vipps agreement.
    expect(await s.accept()).toBe(url)
    expect((await s.t.call('GET', `/agreement/${s.a.id}/accept`, { token: s.resident })).json.confirmationUrl).toBe(url)
    expect(Object.keys((await s.emulatorState()).agreements)).toHaveLength(1)

    await s.control(`approve/${await s.vippsId()}`)
    await s.deliver()
    expect(await s.status()).toBe('ACCEPTED')
    expect((await titles(s.t, s.admin)).filter((x) => x === `Agreement ${s.a.externalId} was accepted`)).toHaveLength(1)
    expect((await s.t.mails()).some((m) => m.to === demo.admin && m.subject === `Agreement ${s.a.externalId} was accepted`)).toBe(true)
    const again = await s.t.call('POST', `/agreement/${s.a.id}/accept`, { token: s.resident })
    expect(again).toMatchObject({ status: 409, json: { code: 'INVALID_STATE' } })
  })

  it('only the member accepts: staff get 403, and nothing is sent to Vipps', async () => {
    const s = await setup()
    const res = await s.t.call('POST', `/agreement/${s.a.id}/accept`, { token: s.admin })
    expect(res.status).toBe(403)
    expect(Object.keys((await s.emulatorState()).agreements)).toHaveLength(0)
  })

  it('reject in Vipps → REJECTED', async () => {
    const s = await setup()
    await s.accept()
    await s.control(`reject/${await s.vippsId()}`)
    await s.deliver()
    expect(await s.status()).toBe('REJECTED')
    expect(await titles(s.t, s.admin)).toContain(`Agreement ${s.a.externalId} was rejected`)
  })

  it('not approved in 10 minutes on the emulator clock → EXPIRED by the poll, without webhooks', async () => {
    const s = await setup({ webhooks: false })
    await s.accept()
    await s.control('clock', { advanceMs: 9 * 60 * 1000 })
    await s.t.services.vippsPoll.run()
    expect(await s.status()).toBe('PENDING')
    await s.control('clock', { advanceMs: 60 * 1000 + 1 })
    await s.t.services.vippsPoll.run()
    expect(await s.status()).toBe('EXPIRED')
    expect(await titles(s.t, s.admin)).toContain(`Agreement ${s.a.externalId} expired`)
    // A late "activated" observation never moves it back.
    await s.t.services.vippsObserver.observe({
      kind: 'agreement',
      providerId: s.f.provider,
      eventType: 'recurring.agreement-activated.v1',
      agreement: { id: await s.vippsId(), status: 'ACTIVE', pricing: { type: 'LEGACY', currency: 'DKK' }, interval: {}, productName: 'x', created: '' },
    })
    expect(await s.status()).toBe('EXPIRED')
  })

  it('a webhook delivered twice is stored once and leaves ACCEPTED', async () => {
    const s = await setup()
    await s.control('webhooks', { mode: 'duplicate' })
    await s.accept()
    await s.control(`approve/${await s.vippsId()}`)
    await s.deliver()
    await s.deliver()
    expect(await s.t.db.select().from(webhookEvents).all()).toHaveLength(1)
    expect(await s.status()).toBe('ACCEPTED')
    expect((await titles(s.t, s.admin)).filter((x) => x.endsWith('was accepted'))).toHaveLength(1)
  })

  it('webhooks in reverse order (stopped before activated) end CANCELED, never back to ACCEPTED', async () => {
    const s = await setup()
    await s.control('webhooks', { mode: 'reverse' })
    await s.accept()
    await s.control(`approve/${await s.vippsId()}`)
    await s.control(`stop/${await s.vippsId()}`)
    await s.deliver()
    const events = (await s.t.db.select().from(webhookEvents).all()).map((e) => e.eventType)
    expect(events).toEqual(['recurring.agreement-stopped.v1', 'recurring.agreement-activated.v1'])
    expect(await s.status()).toBe('CANCELED')
    expect(await titles(s.t, s.admin)).toContain(`Agreement ${s.a.externalId} was accepted`)
  })

  it('Vipps down during accept → 503, still CREATED; the retry works and creates one Vipps agreement', async () => {
    const s = await setup()
    await s.control('fail-next-calls', { count: 4, mode: '500' })
    const down = await s.t.call('POST', `/agreement/${s.a.id}/accept`, { token: s.resident })
    expect(down.status).toBe(503)
    // In the member's language (Danish).
    expect(down.json).toMatchObject({ code: 'PROVIDER_UNAVAILABLE', message: 'Vipps MobilePay kunne ikke kontaktes. Prøv igen senere.' })
    expect(await s.status()).toBe('CREATED')
    expect(Object.keys((await s.emulatorState()).agreements)).toHaveLength(0)
    await s.accept()
    expect(await s.status()).toBe('PENDING')
    expect(Object.keys((await s.emulatorState()).agreements)).toHaveLength(1)
  })
})

describe('changing and terminating an accepted agreement (emulator)', () => {
  async function accepted() {
    const s = await setup()
    await s.accept()
    await s.control(`approve/${await s.vippsId()}`)
    await s.deliver()
    expect(await s.status()).toBe('ACCEPTED')
    return s
  }

  it('a new price of an ACCEPTED agreement is sent to Vipps through the outbox', async () => {
    const s = await accepted()
    const res = await s.t.call('PATCH', `/agreement/${s.a.id}`, {
      token: s.admin,
      body: { parts: [{ type: 'COMMON_EXPENSES', description: 'Boligafgift', price: 480_000 }] },
    })
    expect(res.json.price).toBe(480_000)
    expect(await s.t.services.providerOutbox.run()).toBe(1)
    expect((await s.emulatorState()).agreements[await s.vippsId()]!.pricing.amount).toBe(480_000)
    expect((await s.t.db.select().from(providerOutbox).all()).map((o) => [o.kind, o.status])).toEqual([['UPDATE_AGREEMENT', 'sent']])
  })

  it('terminating without a final payment cancels at once and stops the Vipps agreement', async () => {
    const s = await accepted()
    const res = await s.t.call('POST', `/agreement/${s.a.id}/cancel`, { token: s.admin, body: { terminationDate: '2026-12-23', finalPaymentRequired: false } })
    expect(res.json.status).toBe('CANCELED')
    await s.t.services.vippsSync.run()
    expect((await s.emulatorState()).agreements[await s.vippsId()]!.status).toBe('STOPPED')
    await s.deliver()
    expect(await s.status()).toBe('CANCELED')
  })

  it('with a final payment: a charge 3 days before the date; once it is charged the agreement is stopped, CANCELED, then CLOSED', async () => {
    const s = await accepted()
    const res = await s.t.call('POST', `/agreement/${s.a.id}/cancel`, { token: s.admin, body: { terminationDate: '2026-12-23', finalPaymentRequired: true } })
    expect(res.status, JSON.stringify(res.json)).toBe(200)
    expect(res.json).toMatchObject({ status: 'ACCEPTED', terminationDate: '2026-12-23', finalPaymentRequired: true })
    const charges = (await s.t.call('GET', `/agreement/${s.a.id}/charges`, { token: s.resident })).json
    // It takes the place of December's regular charge: 1–22 December, 22 of 31 days (decision 0035).
    expect(charges).toMatchObject([{ kind: 'FINAL', due: '2026-12-20', amount: Math.round((515_050 * 22) / 31), status: 'CREATED' }])
    // Too late for a final payment: it must be due at least a day ahead.
    const b = await createAgreement(s.t)
    await s.t.db.update(agreements).set({ status: 'ACCEPTED', vippsAgreementId: 'agr_b' }).where(eq(agreements.id, b.id)).run()
    const soon = await s.t.call('POST', `/agreement/${b.id}/cancel`, { token: s.admin, body: { terminationDate: '2026-11-26', finalPaymentRequired: true } })
    expect(soon.json.issues[0].message).toBe('A last payment needs a termination date at least 4 days from today')

    await s.t.services.vippsSync.run()
    await s.control('clock', { set: '2026-12-20T08:00:00.000Z' })
    await s.control('process-due')
    await s.deliver()
    const after = (await s.t.call('GET', `/agreement/${s.a.id}/charges`, { token: s.admin })).json
    expect(after[0]).toMatchObject({ status: 'EXECUTED' })
    expect(after[0].history.map((h: { event: string }) => h.event)).toContain('CAPTURE')
    expect(await s.status()).toBe('CANCELED')
    await s.t.services.providerOutbox.run()
    expect((await s.emulatorState()).agreements[await s.vippsId()]!.status).toBe('STOPPED')

    s.t.clock.set('2026-12-24T09:00:00.000Z')
    await s.t.services.vippsPoll.run()
    expect((await s.t.db.select().from(agreements).where(eq(agreements.id, s.a.id)).get())!.status).toBe('CLOSED')
  })
})
