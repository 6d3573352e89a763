import { describe, expect, it } from 'vitest'
import { eq } from 'drizzle-orm'
import { openDatabase } from '../../db/client'
import { demoAgreementsAwaitingVipps, seedDemoData } from '../../db/seed'
import { agreementAddresses, agreementParts, agreements, charges } from '../../db/schema/agreements'
import { paymentProviders } from '../../db/schema/payments'
import { TestClock } from '../../lib/clock'
import { createSecretBox } from '../../lib/secret-box'
import { approveInEmulator } from '../../integrations/vipps/built-in'
import { demoApp } from '../../test/demo-app'
import { demo } from '../../test/harness'

describe('demo agreements', () => {
  it('seeds six accepted agreements, one awaiting resident 02 and one ended (a former resident), numbered from 1001, price = sum of parts', async () => {
    const { db } = openDatabase(':memory:')
    await seedDemoData(db, new TestClock('2026-11-23T09:00:00.000Z'), createSecretBox('test-secret-key'))
    const rows = await db.select().from(agreements).all()
    expect(rows.map((r) => r.status)).toEqual([...Array(6).fill('ACCEPTED'), 'CREATED', 'CLOSED'])
    expect(rows.map((r) => r.externalSeq)).toEqual([1001, 1002, 1003, 1004, 1005, 1006, 1007, 1008])
    expect(rows.slice(0, 7).every((r) => r.nextRegularPaymentDate === '2026-12-01')).toBe(true)
    expect(rows[7]).toMatchObject({ nextRegularPaymentDate: null, terminationDate: '2026-08-01', startPaymentDate: '2025-12-01' })
    const parts = await db.select().from(agreementParts).all()
    for (const r of rows) expect(parts.filter((p) => p.agreementId === r.id).reduce((s, p) => s + p.priceOre, 0)).toBe(r.priceOre)
    expect(await db.select().from(agreementAddresses).all()).toHaveLength(8)
    // Seeding again changes nothing.
    await seedDemoData(db, new TestClock('2026-11-23T09:00:00.000Z'), createSecretBox('test-secret-key'))
    expect(await db.select().from(agreements).all()).toHaveLength(8)
  })

  /**
   * After `npm start` the agreements shown as Accepted once had no Vipps agreement, so billing
   * skipped them and a one-off charge was refused (decision 0036). Started as main.ts starts (built-in
   * emulator, billing on the emulator's clock), each gets an approved Vipps agreement and the first
   * month bills every one of them.
   */
  it('with the built-in emulator, every seeded ACCEPTED agreement gets an approved Vipps agreement and the first month bills it', async () => {
    const clock = new TestClock('2026-11-23T09:00:00.000Z')
    const database = openDatabase(':memory:')
    await seedDemoData(database.db, clock, createSecretBox('test-secret-key'))
    const { app, services, emulator, login } = await demoApp(database, clock, 'test-secret-key')
    const db = database.db
    const accepted = await db.select().from(agreements).where(eq(agreements.status, 'ACCEPTED')).all()
    expect(accepted).toHaveLength(6)

    // Before: shown as Accepted, yet nothing can be charged — and the view says so.
    const admin = await login(demo.admin)
    const list = async () =>
      (await (await app.request('/api/agreement', { headers: { Authorization: `Bearer ${admin}` } })).json()) as {
        externalId: string
        status: string
        collectionProblem: string | null
      }[]
    expect((await list()).filter((a) => a.status === 'ACCEPTED').map((a) => a.collectionProblem)).toEqual(Array(6).fill('NO_PROVIDER_AGREEMENT'))

    // The start step of main.ts; a second start finds nothing left to connect.
    expect(await demoAgreementsAwaitingVipps(db)).toHaveLength(6)
    expect(await services.agreements.connectSeeded(await demoAgreementsAwaitingVipps(db), approveInEmulator(emulator))).toBe(6)
    expect(await demoAgreementsAwaitingVipps(db)).toEqual([])
    const state = (await (await app.request('/vipps-emulator/_control/state')).json()) as {
      agreements: Record<string, { status: string; pricing: { amount: number } }>
    }
    for (const a of await db.select().from(agreements).where(eq(agreements.status, 'ACCEPTED')).all()) {
      expect(a.vippsAgreementId).not.toBeNull()
      expect(state.agreements[a.vippsAgreementId!]).toMatchObject({ status: 'ACTIVE', pricing: { amount: a.priceOre } })
    }
    expect((await list()).map((a) => a.collectionProblem)).toEqual(Array(8).fill(null))

    // Month 1: the emulator's clock moves to 3 days before 1 December; one billing run.
    const set = await app.request('/vipps-emulator/_control/clock', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ set: '2026-11-28T09:00:00.000Z' }),
    })
    expect(set.status).toBe(200)
    expect(await services.billing.run()).toEqual({ agreements: 6, charges: 6 })
    const billed = await db.select().from(charges).all()
    expect(billed.map((c) => c.agreementId).sort()).toEqual(accepted.map((a) => a.id).sort())
    expect(billed.every((c) => c.kind === 'REGULAR' && c.due === '2026-12-01' && c.invoiceId !== null)).toBe(true)
    // Vipps takes every one of them.
    await services.providerOutbox.run()
    expect((await db.select().from(charges).all()).every((c) => c.vippsChargeId !== null)).toBe(true)

    // A one-off charge on a demo agreement is accepted now.
    const oneOff = await app.request(`/api/agreement/${accepted[0]!.id}/requestOneTimeCharge`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${admin}`, 'Content-Type': 'application/json', 'Idempotency-Key': 'demo-one-off' },
      body: JSON.stringify({ amount: 25_000, description: 'Nøgle' }),
    })
    expect(oneOff.status, await oneOff.clone().text()).toBe(201)
    emulator.stop()
  })

  it('an ACCEPTED agreement that cannot be charged says why: no Vipps agreement, provider switched off', async () => {
    const { testAppWithVipps } = await import('../../test/harness')
    const { acceptedWithCollectedCharge, createAgreement } = await import('./test-helpers')
    const t = await testAppWithVipps()
    const a = await createAgreement(t)
    const admin = await t.login(demo.admin)
    const get = async () => (await t.call('GET', `/agreement/${a.id}`, { token: admin })).json
    expect((await get()).collectionProblem).toBeNull() // CREATED: nothing to collect yet
    await t.db.update(agreements).set({ status: 'ACCEPTED' }).where(eq(agreements.id, a.id)).run()
    expect((await get()).collectionProblem).toBe('NO_PROVIDER_AGREEMENT')
    await acceptedWithCollectedCharge(t, a.id)
    expect((await get()).collectionProblem).toBeNull()
    await t.db.update(paymentProviders).set({ isActive: false }).run()
    expect((await get()).collectionProblem).toBe('PROVIDER_INACTIVE')
    // Billing skips it exactly then.
    await t.db.update(agreements).set({ nextRegularPaymentDate: '2026-11-25' }).where(eq(agreements.id, a.id)).run()
    expect(await t.services.billing.run()).toEqual({ agreements: 0, charges: 0 })
    await t.db.update(paymentProviders).set({ isActive: true }).run()
    expect(await t.services.billing.run()).toEqual({ agreements: 1, charges: 1 })
  })
})
