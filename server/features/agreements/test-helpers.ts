import { asc, eq } from 'drizzle-orm'
import { expect } from 'vitest'
import type { TestApp } from '../../test/harness'
import { demo } from '../../test/harness'
import { addresses } from '../../db/schema/companies'
import { paymentProviders } from '../../db/schema/payments'
import { companyIds } from '../companies/test-helpers'
import { agreements, charges } from '../../db/schema/agreements'
import { newId } from '../../lib/ids'
import { transaction } from '../../db/client'

/** Ids of the demo company, its Vipps provider and addresses, and the other company. */
export async function agreementFixtures(t: Pick<TestApp, 'db'>) {
  const { main, second } = await companyIds(t)
  const provider = (await t.db.select().from(paymentProviders).where(eq(paymentProviders.companyId, main)).get())!.id
  const addressIds = (await t.db.select().from(addresses).where(eq(addresses.companyId, main)).orderBy(asc(addresses.id)).all()).map((a) => a.id)
  return { main, second, provider, addressIds }
}

/** A valid create payload for the demo company (docs/PRODUCT.md §3), for `email` (the first demo resident by default). */
export const createPayload = (f: Awaited<ReturnType<typeof agreementFixtures>>, extra: Record<string, unknown> = {}) => ({
  memberName: 'Sofie Jensen',
  emailAddress: demo.resident,
  companyId: f.main,
  paymentProviderId: f.provider,
  linkedAddress: [f.addressIds[0]],
  currency: 'DKK',
  startPaymentDate: '2026-12-01',
  paymentPeriod: 'MONTHLY',
  parts: [
    { type: 'COMMON_EXPENSES', description: 'Boligafgift', price: 450_000 },
    { type: 'HEAT', description: 'Aconto varme', price: 65_050 },
  ],
  ...extra,
})

/** Creates an agreement as the demo administrator and returns it. */
export async function createAgreement(t: TestApp, extra: Record<string, unknown> = {}, adminToken?: string) {
  const f = await agreementFixtures(t)
  const admin = adminToken ?? (await t.login(demo.admin))
  const res = await t.call('POST', '/agreement', { token: admin, body: createPayload(f, extra) })
  expect(res.status, JSON.stringify(res.json)).toBe(201)
  return res.json as { id: string; version: number; externalId: string; status: string; price: number }
}

/**
 * Makes an agreement ACCEPTED (with a made-up Vipps agreement id) and gives it a collected
 * (EXECUTED, captured) charge of 515,050 øre with its invoice, as if Vipps had charged it.
 * Returns the charge id.
 */
export async function acceptedWithCollectedCharge(t: TestApp, agreementId: string): Promise<string> {
  await t.db
    .update(agreements)
    .set({ status: 'ACCEPTED', vippsAgreementId: `agr_${agreementId.slice(-12)}` })
    .where(eq(agreements.id, agreementId))
    .run()
  const id = newId()
  const now = t.clock.now().toISOString()
  await t.db
    .insert(charges)
    .values({
      id,
      agreementId,
      companyId: (await t.db.select().from(agreements).where(eq(agreements.id, agreementId)).get())!.companyId,
      kind: 'REGULAR',
      type: 'RECURRING',
      amountOre: 515_050,
      description: 'Boligafgift',
      due: '2026-11-01',
      status: 'EXECUTED',
      vippsChargeId: `chr_${id.slice(-12)}`,
      vippsStatus: 'CHARGED',
      capturedOre: 515_050,
      createdAt: now,
      updatedAt: now,
    })
    .run()
  await transaction(t.db, async () => t.services.invoicing.issueForCharge((await t.db.select().from(charges).where(eq(charges.id, id)).get())!))
  return id
}
