import { asc, eq } from 'drizzle-orm'
import { expect } from 'vitest'
import type { TestApp } from '../../test/harness'
import { demo } from '../../test/harness'
import { addresses } from '../../db/schema/companies'
import { paymentProviders } from '../../db/schema/payments'
import { companyIds } from '../companies/test-helpers'

/** Ids of the demo company, its Vipps provider and addresses, and the other company. */
export async function agreementFixtures(t: Pick<TestApp, 'db'>) {
  const { main, second } = await companyIds(t)
  const provider = t.db.select().from(paymentProviders).where(eq(paymentProviders.companyId, main)).get()!.id
  const addressIds = t.db.select().from(addresses).where(eq(addresses.companyId, main)).orderBy(asc(addresses.id)).all().map((a) => a.id)
  return { main, second, provider, addressIds }
}

/** A valid create payload for the demo company (spec §3), for `email` (the first demo resident by default). */
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
