/**
 * The Vipps client against the built-in emulator, for every call it makes, with the faults the
 * real API has: injected 500s and timeouts (retried with the same Idempotency-Key), replays, and
 * the rules the emulator enforces like Vipps does.
 */
import { describe, expect, it } from 'vitest'
import { TestClock } from '../../lib/clock'
import { newId } from '../../lib/ids'
import { createVippsEmulator } from './emulator/emulator.app'
import { vippsKeys } from './idempotency-key'
import { createVippsClient } from './vipps.client'
import { VippsRejected, VippsUnavailable } from './vipps.errors'

const BASE = 'http://vipps.test'

function setup(opts: { maxAttempts?: number; timeoutMs?: number } = {}) {
  const clock = new TestClock('2026-11-23T09:00:00.000Z')
  const emulator = createVippsEmulator({ clock, baseUrl: BASE, hangMs: 2000 })
  const fetch = ((input: string, init?: RequestInit) => emulator.app.request(input.slice(BASE.length), init)) as typeof globalThis.fetch
  const client = createVippsClient(
    { clientId: 'c', clientSecret: 's', subscriptionKey: 'k', merchantSerialNumber: '212121', isTest: true },
    { clock, baseUrl: BASE, fetch, sleep: async () => {}, maxAttempts: opts.maxAttempts ?? 4, timeoutMs: opts.timeoutMs ?? 200 },
  )
  const control = (path: string, body: unknown = {}) =>
    emulator.app.request(`/_control/${path}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) })
  return { clock, emulator, client, control }
}

async function activeAgreement(s: ReturnType<typeof setup>, key = 'agreement-1') {
  const draft = await s.client.createAgreement(
    {
      pricing: { type: 'LEGACY', currency: 'DKK', amount: 450000 },
      interval: { unit: 'MONTH', count: 1 },
      productName: 'Boligafgift',
      merchantRedirectUrl: 'http://localhost:3000/agreements/1',
      merchantAgreementUrl: 'http://localhost:3000/agreements/1',
    },
    key,
  )
  await s.control(`approve/${draft.agreementId}`)
  return draft.agreementId
}

const charge = (over: Record<string, unknown> = {}) => ({
  amount: 450000,
  transactionType: 'DIRECT_CAPTURE' as const,
  type: 'RECURRING' as const,
  description: 'Boligafgift december',
  due: '2026-12-01',
  retryDays: 5,
  ...over,
})

describe('Vipps client against the emulator', () => {
  it('creates, reads, updates and stops an agreement', async () => {
    const s = setup()
    const draft = await s.client.createAgreement(
      {
        pricing: { type: 'LEGACY', currency: 'DKK', amount: 100 },
        interval: { unit: 'MONTH', count: 1 },
        productName: 'Test',
        merchantRedirectUrl: 'http://x/y',
      },
      'a-1',
    )
    expect(draft.vippsConfirmationUrl).toBe(`${BASE}/confirm/${draft.agreementId}`)
    expect((await s.client.getAgreement(draft.agreementId)).status).toBe('PENDING')
    await s.control(`approve/${draft.agreementId}`)
    await s.client.updateAgreement(draft.agreementId, { pricing: { amount: 200 } }, 'a-2')
    expect((await s.client.getAgreement(draft.agreementId)).pricing.amount).toBe(200)
    await s.client.stopAgreement(draft.agreementId, 'a-3')
    expect((await s.client.getAgreement(draft.agreementId)).status).toBe('STOPPED')
  })

  it('collects a charge and refunds part of it, never more than was captured', async () => {
    const s = setup()
    const id = await activeAgreement(s)
    const { chargeId } = await s.client.createCharge(id, charge(), 'charge-1')
    expect((await s.client.getCharge(id, chargeId)).status).toBe('DUE')
    await s.control('clock', { set: '2026-12-01T10:00:00.000Z' })
    await s.emulator.processDue()
    expect((await s.client.getCharge(id, chargeId)).status).toBe('CHARGED')
    await s.client.refundCharge(id, chargeId, { amount: 100000, description: 'Fejl i opkrævning' }, 'refund-1')
    const refunded = await s.client.getCharge(id, chargeId)
    expect(refunded).toMatchObject({ status: 'PARTIALLY_REFUNDED', summary: { captured: 450000, refunded: 100000 } })
    const tooMuch = await s.client.refundCharge(id, chargeId, { amount: 350001, description: 'x' }, 'refund-2').catch((e: unknown) => e)
    expect(tooMuch).toBeInstanceOf(VippsRejected)
    expect((await s.client.listCharges(id)).map((c) => c.id)).toEqual([chargeId])
  })

  it('cancels and captures per the rules', async () => {
    const s = setup()
    const id = await activeAgreement(s)
    const { chargeId } = await s.client.createCharge(id, charge(), 'c-1')
    await s.client.cancelCharge(id, chargeId, 'c-2')
    expect((await s.client.getCharge(id, chargeId)).status).toBe('CANCELLED')
    const reserve = await s.client.createCharge(id, charge({ transactionType: 'RESERVE_CAPTURE', description: 'Depositum' }), 'c-3')
    await s.control('clock', { set: '2026-12-01T10:00:00.000Z' })
    await s.emulator.processDue()
    await s.client.captureCharge(id, reserve.chargeId, 450000, 'c-4')
    expect((await s.client.getCharge(id, reserve.chargeId)).status).toBe('CHARGED')
  })

  it('refuses what the real API refuses', async () => {
    const s = setup()
    const id = await activeAgreement(s)
    const refused = async (over: Record<string, unknown>, key: string) => {
      const err = await s.client.createCharge(id, charge(over), key).catch((e: unknown) => e)
      expect(err, JSON.stringify(over)).toBeInstanceOf(VippsRejected)
      return err as VippsRejected
    }
    await refused({ amount: 0 }, 'r-1')
    await refused({ description: 'x'.repeat(46) }, 'r-2')
    await refused({ due: '2026-11-23' }, 'r-3')
    await refused({ due: '2029-01-01' }, 'r-4')
    await refused({ retryDays: 15 }, 'r-5')
    await refused({ amount: 450000 * 5 + 1 }, 'r-6')
    const pending = await s.client.createAgreement(
      { pricing: { type: 'LEGACY', currency: 'DKK', amount: 100 }, interval: { unit: 'MONTH', count: 1 }, productName: 'P', merchantRedirectUrl: 'http://x' },
      'p-1',
    )
    await expect(s.client.createCharge(pending.agreementId, charge({ amount: 100 }), 'r-7')).rejects.toBeInstanceOf(VippsRejected)
  })

  it('retries injected 500s and timeouts with the same key and applies the charge once', async () => {
    const s = setup()
    const id = await activeAgreement(s)
    await s.control('fail-next-calls', { count: 1, mode: '500' })
    await s.control('fail-next-calls', { count: 1, mode: 'timeout-after-effect' })
    const { chargeId } = await s.client.createCharge(id, charge(), 'charge-row-42')
    expect(await s.client.listCharges(id)).toHaveLength(1)
    // The outbox worker retrying later with the same row id gets the same charge.
    expect((await s.client.createCharge(id, charge(), 'charge-row-42')).chargeId).toBe(chargeId)
    expect(await s.client.listCharges(id)).toHaveLength(1)
  })

  it('gives up with VippsUnavailable when the outage outlasts the attempts', async () => {
    const s = setup({ maxAttempts: 2 })
    const id = await activeAgreement(s)
    await s.control('fail-next-calls', { count: 5, mode: '500' })
    await expect(s.client.getAgreement(id)).rejects.toBeInstanceOf(VippsUnavailable)
  })

  it('registers, lists and deletes webhooks with the keys the product builds', async () => {
    const s = setup()
    const rowId = newId()
    const hook = await s.client.registerWebhook(
      { url: 'http://localhost:3000/api/webhooks/vipps/p', events: ['recurring.charge-captured.v1'] },
      vippsKeys.webhookRegistration(rowId),
    )
    expect(hook.secret.length).toBeGreaterThan(10)
    expect((await s.client.listWebhooks()).webhooks.map((w) => w.id)).toEqual([hook.id])
    await s.client.deleteWebhook(hook.id, vippsKeys.webhookDeletion(rowId))
    expect((await s.client.listWebhooks()).webhooks).toEqual([])
  })

  it('is refused a webhook call with a key over 40 characters, as by Vipps', async () => {
    const s = setup()
    const token = await s.client.accessToken()
    const res = await s.emulator.app.request('/webhooks/v1/webhooks/any', {
      method: 'DELETE',
      headers: {
        Authorization: `Bearer ${token}`,
        'Ocp-Apim-Subscription-Key': 'k',
        'Merchant-Serial-Number': '212121',
        'Idempotency-Key': `delete-${newId()}`,
      },
    })
    expect(res.status).toBe(400)
    expect(((await res.json()) as { detail: string }).detail).toMatch(/Idempotency-Key/)
  })
})
