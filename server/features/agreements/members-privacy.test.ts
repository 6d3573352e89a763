import { describe, expect, it } from 'vitest'
import { eq } from 'drizzle-orm'
import { demo, testApp, type TestApp } from '../../test/harness'
import { addresses } from '../../db/schema/companies'
import { paymentProviders } from '../../db/schema/payments'
import { users } from '../../db/schema/users'
import { newId } from '../../lib/ids'
import { companyIds } from '../companies/test-helpers'

/** The second demo association gets a provider and an address, so its administrator can create agreements. */
async function equipSecond(t: TestApp, second: string) {
  const now = t.clock.now().toISOString()
  const provider = newId()
  await t.db
    .insert(paymentProviders)
    .values({
      id: provider,
      companyId: second,
      type: 'VIPPS',
      isActive: true,
      isTest: true,
      providerName: 'Vipps MobilePay',
      merchantSerialNumber: '313131',
      clientId: 'c',
      clientSecretSealed: 'x',
      subscriptionKeySealed: 'x',
      useTestMode: true,
      createdAt: now,
      updatedAt: now,
    })
    .run()
  const address = newId()
  await t.db
    .insert(addresses)
    .values({
      id: address,
      companyId: second,
      street: 'Havnegade',
      number: '1',
      floor: null,
      side: null,
      zip: '1058',
      city: 'København K',
      country: 'Denmark',
      referenceId: null,
      createdAt: now,
    })
    .run()
  return { provider, address }
}

const body = (second: string, ids: { provider: string; address: string }, member: { memberName: string; emailAddress: string }) => ({
  ...member,
  companyId: second,
  paymentProviderId: ids.provider,
  linkedAddress: [ids.address],
  startPaymentDate: '2026-12-01',
  paymentPeriod: 'MONTHLY',
  parts: [{ type: 'COMMON_EXPENSES', description: 'Fællesudgifter', price: 300_000 }],
})

/**
 * Creating an agreement for the e-mail of someone in another association never shows that
 * person's stored name, initials or whether they can sign in: the answer is made of what the
 * caller typed, exactly as for a new user (docs/decisions/0037-an-agreement-for-someone-outside-the-association.md).
 */
describe('creating an agreement for someone outside the association', () => {
  it('answers with what the caller typed, the same as for a new address; the account is untouched', async () => {
    const t = await testApp()
    const { second } = await companyIds(t)
    const ids = await equipSecond(t, second)
    const other = await t.login(demo.otherAdmin)
    const before = (await t.db.select().from(users).where(eq(users.emailAddress, demo.resident)).get())!
    const existing = await t.call('POST', '/agreement', { token: other, body: body(second, ids, { memberName: 'S. Jensen', emailAddress: demo.resident }) })
    const fresh = await t.call('POST', '/agreement', {
      token: other,
      body: body(second, ids, { memberName: 'S. Jensen', emailAddress: 'ny.beboer@example.dk' }),
    })
    expect(existing.status, JSON.stringify(existing.json)).toBe(201)
    expect(fresh.status).toBe(201)
    expect(existing.json.member).toEqual({ userId: before.id, title: 'SJ', fullName: 'S. Jensen', emailAddress: demo.resident, isVerified: false })
    expect(fresh.json.member).toMatchObject({ title: 'SJ', fullName: 'S. Jensen', emailAddress: 'ny.beboer@example.dk', isVerified: false })
    expect(JSON.stringify(existing.json)).not.toMatch(/Sofie|31 00 00 01/)
    // Her own account keeps her name and number.
    expect(await t.db.select().from(users).where(eq(users.id, before.id)).get()).toMatchObject({
      fullName: 'Sofie Jensen',
      mobileNumber: '+45 31 00 00 01',
      version: before.version,
    })
  })

  it('someone the caller knows (staff of the same association) is answered with their own name', async () => {
    const t = await testApp()
    const { main } = await companyIds(t)
    const admin = await t.login(demo.admin)
    const provider = (await t.db.select().from(paymentProviders).where(eq(paymentProviders.companyId, main)).get())!.id
    const address = (await t.db.select().from(addresses).where(eq(addresses.companyId, main)).get())!.id
    const res = await t.call('POST', '/agreement', { token: admin, body: body(main, { provider, address }, { memberName: 'K.', emailAddress: demo.chairman }) })
    expect(res.status).toBe(201)
    expect(res.json.member).toMatchObject({ fullName: 'Karen Holm', isVerified: true })
  })
})
