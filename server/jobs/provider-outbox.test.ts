import { describe, expect, it } from 'vitest'
import { eq } from 'drizzle-orm'
import { demo, testApp } from '../test/harness'
import { TestClock } from '../lib/clock'
import { createVippsClient } from '../integrations/vipps/vipps.client'
import type { VippsEnvironment } from '../integrations/vipps/vipps-environment'
import { charges, providerOutbox } from '../db/schema/agreements'
import { invoices } from '../db/schema/invoices'
import { acceptedAgreement } from '../features/billing/test-helpers'
import { providerOutboxRepository as outbox } from '../integrations/vipps/provider-outbox'
import { DEFAULT_CLAIM_LEASE_MS } from '../env'
import { acceptedWithCollectedCharge, createAgreement } from '../features/agreements/test-helpers'

/** A stand-in for Vipps: `mode` says how it answers the calls the outbox sends. */
function fakeVipps() {
  const state = { mode: 'ok' as 'ok' | 'down' | 'refuse' }
  const sent: { method: string; path: string; key: string | null; body: unknown }[] = []
  const fetch = (async (url: string, init: RequestInit) => {
    const path = new URL(url).pathname
    if (path === '/accesstoken/get') return Response.json({ token_type: 'Bearer', expires_in: 3600, access_token: 't' })
    const headers = new Headers(init.headers)
    sent.push({ method: init.method ?? 'GET', path, key: headers.get('Idempotency-Key'), body: init.body ? JSON.parse(String(init.body)) : undefined })
    if (state.mode === 'down') return new Response('unavailable', { status: 503 })
    if (state.mode === 'refuse') return Response.json({ title: 'Bad Request', detail: 'Invalid due date' }, { status: 400 })
    if (init.method === 'POST' && path.endsWith('/charges')) return Response.json({ chargeId: 'chr-vipps-1' })
    if (init.method === 'POST' && path.endsWith('/refund')) return new Response(null, { status: 204 })
    if (init.method === 'GET' && path.includes('/charges/'))
      return Response.json({
        id: path.split('/').at(-1),
        agreementId: 'agr',
        amount: 515_050,
        currency: 'DKK',
        description: 'Boligafgift',
        due: '2026-11-01',
        status: 'PARTIALLY_REFUNDED',
        type: 'RECURRING',
        transactionType: 'DIRECT_CAPTURE',
        retryDays: 5,
        summary: { captured: 515_050, refunded: 15_050, cancelled: 0 },
        history: [{ occurred: '2026-11-23T09:00:00Z', event: 'REFUND', amount: 15_050, idempotencyKey: 'k', success: true }],
      })
    return new Response('not found', { status: 404 })
  }) as typeof globalThis.fetch
  const env: VippsEnvironment = {
    clientFor: (credentials) => createVippsClient(credentials, { clock: new TestClock(), baseUrl: 'http://fake-vipps', fetch, sleep: async () => {} }),
    publicBaseUrl: () => 'http://fake-vipps',
  }
  return { env, state, sent }
}

async function withOneTimeCharge() {
  const vipps = fakeVipps()
  const t = await testApp({}, { vipps: vipps.env })
  const a = await acceptedAgreement(t)
  const admin = await t.login(demo.admin)
  const res = await t.call('POST', `/agreement/${a.id}/requestOneTimeCharge`, { token: admin, body: { amount: 25_000, description: 'Ny nøgle' } })
  expect(res.status, JSON.stringify(res.json)).toBe(201)
  const row = async () => (await t.db.select().from(providerOutbox).where(eq(providerOutbox.chargeId, res.json.id)).get())!
  const charge = async () => (await t.db.select().from(charges).where(eq(charges.id, res.json.id)).get())!
  return { t, vipps, row, charge }
}

describe('the provider-outbox job', () => {
  it('sends a queued charge, retrying with backoff and the same body and Idempotency-Key until Vipps answers', async () => {
    const { t, vipps, row, charge } = await withOneTimeCharge()
    vipps.state.mode = 'down'
    expect(await t.services.providerOutbox.run()).toBe(1)
    // Tried again after 5 s · 2^1; the due date was fixed on the first attempt.
    expect(await row()).toMatchObject({
      status: 'pending',
      attempts: 1,
      nextAttemptAt: new Date(t.clock.now().getTime() + 10_000).toISOString(),
      payload: { due: '2026-11-24' },
    })
    expect(await t.services.providerOutbox.run()).toBe(0)
    t.clock.advance(10_000)
    vipps.state.mode = 'ok'
    expect(await t.services.providerOutbox.run()).toBe(1)
    expect(await row()).toMatchObject({ status: 'sent', attempts: 2, lastError: null })
    expect(await charge()).toMatchObject({ vippsChargeId: 'chr-vipps-1', vippsStatus: 'PENDING', status: 'CREATED' })
    const posts = vipps.sent.filter((c) => c.method === 'POST')
    expect(new Set(posts.map((c) => c.key))).toEqual(new Set([posts[0]!.key]))
    expect(posts.at(-1)!.body).toEqual(posts[0]!.body)
    expect(posts[0]!.body).toMatchObject({ amount: 25_000, due: '2026-11-24', externalId: (await charge()).id })
  })

  it('a charge Vipps refuses to create is DECLINED at once; its invoice FAILED and the overdue steps begin', async () => {
    const { t, vipps, row, charge } = await withOneTimeCharge()
    vipps.state.mode = 'refuse'
    expect(await t.services.providerOutbox.run()).toBe(1)
    expect(await row()).toMatchObject({ status: 'failed', attempts: 1 })
    expect(await charge()).toMatchObject({ status: 'DECLINED', failedOn: '2026-11-23', overdueStep: 0 })
    expect(
      await t.db
        .select()
        .from(invoices)
        .where(eq(invoices.id, (await charge()).invoiceId!))
        .get(),
    ).toMatchObject({ status: 'FAILED', paymentStatus: 'DECLINED' })
  })

  it("a refund reaches Vipps: its credit note is EXECUTED and the charge's history comes back from Vipps", async () => {
    const vipps = fakeVipps()
    const t = await testApp({}, { vipps: vipps.env })
    const a = await createAgreement(t)
    const chargeId = await acceptedWithCollectedCharge(t, a.id)
    const accountant = await t.login(demo.accountant)
    const res = await t.call('POST', `/agreement/${a.id}/refund`, { token: accountant, body: { chargeId, amount: 15_050, description: 'For meget opkrævet' } })
    expect(res.status, JSON.stringify(res.json)).toBe(201)
    expect(await t.services.providerOutbox.run()).toBe(1)
    expect(vipps.sent.find((c) => c.path.endsWith('/refund'))).toMatchObject({
      key: expect.stringContaining(res.json.id.slice(-12)),
      body: { amount: 15_050, description: 'For meget opkrævet' },
    })
    expect(await t.db.select().from(invoices).where(eq(invoices.id, res.json.creditNote.id)).get()).toMatchObject({
      status: 'EXECUTED',
      paymentStatus: 'EXECUTED',
      paymentDate: '2026-11-23',
    })
    expect((await t.call('GET', `/agreement/${a.id}/charges`, { token: accountant })).json[0]).toMatchObject({
      id: chargeId,
      history: [{ event: 'REFUND', amount: 15_050 }],
    })
  })

  it('a row another sender claimed is left to it until its lease runs out; then taken over, and the first sender’s late outcome does not count', async () => {
    const { t, vipps, row, charge } = await withOneTimeCharge()
    // Another instance claims the row (its job turn overlapped this one's) and stalls or dies.
    const lease = new Date(t.clock.now().getTime() + DEFAULT_CLAIM_LEASE_MS).toISOString()
    const theirs = (await outbox.claim(t.db, await row(), lease))!
    expect(theirs).toMatchObject({ attempts: 1, nextAttemptAt: lease })
    expect(await outbox.claim(t.db, { ...(await row()), attempts: 0 }, lease)).toBeUndefined()
    expect(await t.services.providerOutbox.run()).toBe(0)
    expect(vipps.sent.filter((c) => c.method === 'POST')).toEqual([])
    // The lease runs out: this sender takes the row over and sends it.
    t.clock.advance(DEFAULT_CLAIM_LEASE_MS)
    expect(await t.services.providerOutbox.run()).toBe(1)
    expect(await row()).toMatchObject({ status: 'sent', attempts: 2 })
    // The first sender comes back and records a failure: refused, the row and the charge stay as they are.
    expect(await outbox.settle(t.db, theirs, { status: 'failed', lastError: 'late' })).toBe(false)
    expect(await row()).toMatchObject({ status: 'sent', attempts: 2, lastError: null })
    expect(await charge()).toMatchObject({ vippsChargeId: 'chr-vipps-1', status: 'CREATED' })
  })
})
