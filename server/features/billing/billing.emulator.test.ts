/**
 * Billing against the built-in Vipps emulator: charges sent through the outbox while the emulator
 * fails 30 % of calls and times out 10 % (each charge exists exactly once at Vipps), webhooks
 * twice and in reverse order (the right final statuses), a refund whose answer is lost (one
 * refund at Vipps), and a failed charge through the overdue steps to debt collection.
 */
import { describe, expect, it } from 'vitest'
import { eq } from 'drizzle-orm'
import { demo, testAppWithVipps } from '../../test/harness'
import { agreements, charges, chargeEvents, providerOutbox } from '../../db/schema/agreements'
import { invoices } from '../../db/schema/invoices'
import { vippsWebhookEvents } from '../../../shared/contract/webhooks'
import { agreementFixtures, createAgreement } from '../agreements/test-helpers'
import { assertBookkeeping } from './test-helpers'

type EmulatorCharge = { id: string; status: string; amount: number; refunded: number }

async function setup(options: { agreements?: number; residents?: string[] } = {}) {
  const t = await testAppWithVipps({}, { fastFaults: true })
  const f = await agreementFixtures(t)
  const control = async (path: string, body: unknown = {}) => {
    const res = await t.app.request(`/vipps-emulator/_control/${path}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    })
    expect(res.status, await res.clone().text()).toBe(200)
    return res.json()
  }
  const state = async () => (await (await t.app.request('/vipps-emulator/_control/state')).json()) as { charges: Record<string, EmulatorCharge> }
  const hook = await t.call('POST', `/webhook/register/${f.provider}`, {
    token: await t.login(demo.superadmin),
    body: { webhookUrl: `http://localhost:3000/api/webhooks/vipps/${f.provider}`, events: [...vippsWebhookEvents] },
  })
  expect(hook.status).toBe(201)
  const deliver = async () => {
    await t.emulator.deliverWebhooksNow({ all: true })
    await t.services.webhooks.processDue()
  }
  const admin = await t.login(demo.admin)
  const residents = options.residents ?? [demo.resident]
  const ids: string[] = []
  for (let i = 0; i < (options.agreements ?? 1); i++) {
    const email = residents[i % residents.length]!
    const a = await createAgreement(t, { emailAddress: email, startPaymentDate: '2026-11-26' }, admin)
    const accept = await t.call('POST', `/agreement/${a.id}/accept`, { token: await t.login(email) })
    expect(accept.status).toBe(200)
    await control(`approve/${(await t.db.select().from(agreements).where(eq(agreements.id, a.id)).get())!.vippsAgreementId}`)
    ids.push(a.id)
  }
  await deliver()
  for (const id of ids) expect((await t.db.select().from(agreements).where(eq(agreements.id, id)).get())!.status).toBe('ACCEPTED')
  /** Sends the outbox until nothing is pending, moving our clock past each backoff. */
  const drain = async (rounds = 60) => {
    for (let i = 0; i < rounds; i++) {
      await t.services.providerOutbox.run()
      if (!(await t.db.select().from(providerOutbox).all()).some((o) => o.status === 'pending')) return i
      t.clock.advance(15 * 60 * 1000)
    }
    throw new Error('outbox not drained')
  }
  return { t, f, control, state, deliver, admin, ids, drain }
}

describe('charges at Vipps through the outbox (emulator)', () => {
  it('with 30 % of calls failing and 10 % timing out, every charge ends up at Vipps exactly once', async () => {
    for (const seed of [7, 42]) {
      const s = await setup({ agreements: 5 })
      await s.t.services.billing.run()
      await s.t.services.billing.run()
      const ours = await s.t.db.select().from(charges).all()
      expect(ours).toHaveLength(5)
      await s.control('chaos', { errorRate: 0.3, timeoutRate: 0.1, seed })
      await s.drain()
      await s.control('chaos', { errorRate: 0, timeoutRate: 0 })
      const atVipps = Object.values((await s.state()).charges)
      expect(atVipps).toHaveLength(ours.length)
      const mine = await s.t.db.select().from(charges).all()
      expect(new Set(mine.map((c) => c.vippsChargeId)).size).toBe(5)
      expect(mine.every((c) => c.vippsChargeId && atVipps.some((v) => v.id === c.vippsChargeId))).toBe(true)
      expect((await s.t.db.select().from(providerOutbox).all()).map((o) => o.status)).toEqual(Array(5).fill('sent'))
      await assertBookkeeping(s.t.db)
    }
  }, 60_000)

  it('duplicated and reversed webhooks end with the right statuses; invoices follow their charge', async () => {
    const s = await setup({ agreements: 2 })
    await s.t.services.billing.run()
    await s.drain()
    await s.control('webhooks', { mode: 'duplicate' })
    await s.control('fail-next-charges', { count: 1 })
    await s.control('clock', { set: '2026-11-26T08:00:00.000Z' })
    await s.control('process-due')
    await s.control('webhooks', { mode: 'reverse' })
    await s.deliver()
    await s.deliver()
    const mine = await s.t.db.select().from(charges).all()
    expect(mine.map((c) => c.status).sort()).toEqual(['EXECUTED', 'FAILED'])
    for (const c of mine) {
      const invoice = (await s.t.db.select().from(invoices).where(eq(invoices.id, c.invoiceId!)).get())!
      expect(invoice.status).toBe(c.status)
      const events = (await s.t.db.select().from(chargeEvents).where(eq(chargeEvents.chargeId, c.id)).all()).map((e) => e.eventKey)
      expect(new Set(events).size).toBe(events.length)
    }
    // A late re-read of an old state never moves a charge back.
    await s.t.services.vippsPoll.run()
    expect((await s.t.db.select().from(charges).all()).map((c) => c.status).sort()).toEqual(['EXECUTED', 'FAILED'])
    const overdue = (await s.t.call('GET', '/agreement', { token: s.admin })).json.map((a: { overdue: boolean }) => a.overdue).sort()
    expect(overdue).toEqual([false, true])
  })

  it('a refund whose answer is lost, retried by the client and by the worker, is made once at Vipps', async () => {
    const s = await setup()
    await s.t.services.billing.run()
    await s.drain()
    await s.control('clock', { set: '2026-11-26T08:00:00.000Z' })
    await s.control('process-due')
    await s.deliver()
    const [charge] = await s.t.db.select().from(charges).all()
    expect(charge!.status).toBe('EXECUTED')
    const accountant = await s.t.login(demo.accountant)
    const send = () =>
      s.t.call('POST', `/agreement/${s.ids[0]}/refund`, {
        token: accountant,
        headers: { 'Idempotency-Key': 'refund-1' },
        body: { chargeId: charge!.id, amount: 10_000, description: 'Fejl i aconto' },
      })
    const first = await send()
    const again = await send()
    expect(first.status).toBe(201)
    expect(again.headers.get('Idempotent-Replayed')).toBe('true')
    expect(again.json.id).toBe(first.json.id)
    // Vipps does the refund but the answer never arrives, also not to the client's own 3 retries;
    // the worker tries again later with the same key.
    await s.control('fail-next-calls', { count: 4, mode: 'timeout-after-effect' })
    await s.t.services.providerOutbox.run()
    expect((await s.t.db.select().from(providerOutbox).where(eq(providerOutbox.id, first.json.id)).get())!.status).toBe('pending')
    await s.drain()
    const atVipps = Object.values((await s.state()).charges)[0]!
    expect(atVipps).toMatchObject({ refunded: 10_000, status: 'PARTIALLY_REFUNDED' })
    const note = (await s.t.call('GET', `/invoice/${first.json.creditNote.id}`, { token: accountant })).json
    expect(note).toMatchObject({ kind: 'CREDIT_NOTE', status: 'EXECUTED', totalAmount: 10_000 })
    const history = (await s.t.call('GET', `/agreement/${s.ids[0]}/charges`, { token: accountant })).json[0].history
    expect(history.filter((h: { event: string }) => h.event === 'REFUND')).toEqual([expect.objectContaining({ amount: 10_000 })])
  })

  it('a failed charge: overdue, member and staff told, reminders on day 3 and 10, debt collection on day 30', async () => {
    const s = await setup()
    await s.t.services.billing.run()
    await s.drain()
    await s.control('fail-next-charges', { count: 1 })
    await s.control('clock', { set: '2026-11-26T08:00:00.000Z' })
    await s.control('process-due')
    await s.deliver()
    const id = s.ids[0]!
    const view = async () => (await s.t.call('GET', `/agreement/${id}`, { token: s.admin })).json
    expect(await view()).toMatchObject({ overdue: true, debtCollection: false })
    const mailsTo = async (to: string, subject: string) => (await s.t.mails()).filter((m) => m.to === to && m.subject.startsWith(subject)).length
    // The resident reads Danish, the administrator English: each gets mail in their language.
    expect(await mailsTo(demo.resident, 'En betaling mislykkedes')).toBe(1)
    expect(await mailsTo(demo.admin, `Agreement ${(await view()).externalId} is overdue`)).toBe(1)
    const failedOn = (await s.t.db.select().from(charges).all())[0]!.failedOn!
    const dayAfter = (days: number) => `${new Date(Date.parse(`${failedOn}T10:00:00.000Z`) + days * 86_400_000).toISOString()}`
    s.t.clock.set(dayAfter(2))
    await s.t.services.billing.tick()
    expect(await mailsTo(demo.resident, 'Påmindelse')).toBe(0)
    s.t.clock.set(dayAfter(3))
    await s.t.services.billing.tick()
    await s.t.services.billing.tick()
    expect(await mailsTo(demo.resident, 'Påmindelse')).toBe(1)
    s.t.clock.set(dayAfter(10))
    await s.t.services.billing.tick()
    expect(await mailsTo(demo.resident, 'Påmindelse')).toBe(2)
    expect((await view()).debtCollection).toBe(false)
    s.t.clock.set(dayAfter(30))
    await s.t.services.billing.tick()
    await s.t.services.billing.tick()
    expect(await view()).toMatchObject({ overdue: true, debtCollection: true })
    expect(await mailsTo(demo.admin, `Agreement ${(await view()).externalId} goes to debt collection`)).toBe(1)
  })
})
