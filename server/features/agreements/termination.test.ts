/**
 * Terminating on 1 March with "Make last payment" once charged the regular 1 February and a final
 * 26 February, both full price. The last payment now takes the place of the last period's regular
 * charge (docs/decisions/0035-the-last-payment-of-a-termination-charges-each-day-once.md;
 * shared/domain/termination.ts): every day
 * up to the termination date is charged exactly once, in the monthly case and in the longer one
 * (yearly: the product's periods are daily, weekly, monthly and yearly).
 */
import { describe, expect, it } from 'vitest'
import { asc, eq } from 'drizzle-orm'
import { demo, testApp, type TestApp } from '../../test/harness'
import { agreements, charges } from '../../db/schema/agreements'
import { invoiceLines, invoices } from '../../db/schema/invoices'
import { createAgreement } from './test-helpers'

const PRICE = 515_050

async function acceptedAgreement(t: TestApp, extra: Record<string, unknown>) {
  const a = await createAgreement(t, extra)
  await t.db
    .update(agreements)
    .set({ status: 'ACCEPTED', vippsAgreementId: `agr_${a.id.slice(-12)}` })
    .where(eq(agreements.id, a.id))
    .run()
  return a
}

/** Charges of the agreement: kind, due date, amount, and the total of its invoice's lines. */
async function chargesOf(t: TestApp, agreementId: string) {
  const rows = await t.db.select().from(charges).where(eq(charges.agreementId, agreementId)).orderBy(asc(charges.due)).all()
  return await Promise.all(
    rows.map(async (c) => {
      const invoice = await t.db.select().from(invoices).where(eq(invoices.chargeId, c.id)).get()
      const lines = invoice ? await t.db.select().from(invoiceLines).where(eq(invoiceLines.invoiceId, invoice.id)).all() : []
      return { kind: c.kind, due: c.due, amount: c.amountOre, invoiceTotal: invoice?.totalOre, linesTotal: lines.reduce((s, l) => s + l.totalInclVatOre, 0) }
    }),
  )
}

/** The billing job on each of the given days (Copenhagen morning). */
async function billOn(t: TestApp, days: string[]) {
  for (const day of days) {
    t.clock.set(`${day}T09:00:00.000Z`)
    await t.services.billing.run()
  }
}

describe('termination with a last payment charges each day once', () => {
  it('monthly, terminated on 1 March in January: no regular 1 February, one last payment for February at full price', async () => {
    const t = await testApp()
    const a = await acceptedAgreement(t, { startPaymentDate: '2027-01-01' })
    await billOn(t, ['2026-12-29'])
    t.clock.set('2027-01-20T09:00:00.000Z')
    const admin = await t.login(demo.admin)
    const res = await t.call('POST', `/agreement/${a.id}/cancel`, { token: admin, body: { terminationDate: '2027-03-01', finalPaymentRequired: true } })
    expect(res.status, JSON.stringify(res.json)).toBe(200)
    // Shown: the last payment is the next payment; no regular one comes any more.
    expect(res.json).toMatchObject({ status: 'ACCEPTED', nextRegularPaymentDate: null, nextPaymentDate: '2027-02-26' })
    await billOn(t, ['2027-01-29', '2027-02-01', '2027-02-26', '2027-03-01'])
    expect(await chargesOf(t, a.id)).toEqual([
      { kind: 'REGULAR', due: '2027-01-01', amount: PRICE, invoiceTotal: PRICE, linesTotal: PRICE },
      { kind: 'FINAL', due: '2027-02-26', amount: PRICE, invoiceTotal: PRICE, linesTotal: PRICE },
    ])
    const charge = (await t.call('GET', `/agreement/${a.id}/charges`, { token: await t.login(demo.admin) })).json.find(
      (c: { kind: string }) => c.kind === 'FINAL',
    )
    // In the member's language (Sofie Jensen reads Danish), naming the days it pays for.
    expect(charge.description).toBe('Sidste betaling 1001: 2027-02-01–2027-02-28')
  })

  it('monthly, terminated on 15 March: 1 February as usual, the last payment for 1–14 March (14 of 31 days), its invoice lines in proportion', async () => {
    const t = await testApp()
    const a = await acceptedAgreement(t, { startPaymentDate: '2027-01-01' })
    await billOn(t, ['2026-12-29'])
    t.clock.set('2027-01-20T09:00:00.000Z')
    const admin = await t.login(demo.admin)
    const res = await t.call('POST', `/agreement/${a.id}/cancel`, { token: admin, body: { terminationDate: '2027-03-15', finalPaymentRequired: true } })
    expect(res.json).toMatchObject({ nextRegularPaymentDate: '2027-02-01', nextPaymentDate: '2027-02-01' })
    await billOn(t, ['2027-01-29', '2027-02-26', '2027-03-12'])
    const share = Math.round((PRICE * 14) / 31)
    expect(await chargesOf(t, a.id)).toEqual([
      { kind: 'REGULAR', due: '2027-01-01', amount: PRICE, invoiceTotal: PRICE, linesTotal: PRICE },
      { kind: 'REGULAR', due: '2027-02-01', amount: PRICE, invoiceTotal: PRICE, linesTotal: PRICE },
      { kind: 'FINAL', due: '2027-03-12', amount: share, invoiceTotal: share, linesTotal: share },
    ])
    expect((await t.call('GET', `/agreement/${a.id}`, { token: await t.login(demo.admin) })).json).toMatchObject({
      nextRegularPaymentDate: null,
      nextPaymentDate: '2027-03-12',
    })
  })

  it('monthly, terminated after the last period was charged: nothing is left, so a last payment is refused with the reason (EN/DA)', async () => {
    const t = await testApp()
    const a = await acceptedAgreement(t, { startPaymentDate: '2027-01-01' })
    await billOn(t, ['2026-12-29', '2027-01-29'])
    t.clock.set('2027-02-10T09:00:00.000Z')
    const admin = await t.login(demo.admin)
    const refused = await t.call('POST', `/agreement/${a.id}/cancel`, { token: admin, body: { terminationDate: '2027-03-01', finalPaymentRequired: true } })
    expect(refused.status).toBe(400)
    expect(refused.json.issues).toEqual([
      expect.objectContaining({
        path: 'finalPaymentRequired',
        message: 'Everything up to the termination date is already charged, so there is no last payment to make. Terminate without a last payment.',
      }),
    ])
    const da = await t.call('POST', `/agreement/${a.id}/cancel`, {
      token: admin,
      headers: { 'Accept-Language': 'da' },
      body: { terminationDate: '2027-03-01', finalPaymentRequired: true },
    })
    expect(da.json.issues[0].message).toMatch(/sidste betaling/i)
    // Without a last payment it ends, and shows no next payment.
    const ended = await t.call('POST', `/agreement/${a.id}/cancel`, { token: admin, body: { terminationDate: '2027-03-01', finalPaymentRequired: false } })
    expect(ended.json).toMatchObject({ status: 'CANCELED', nextRegularPaymentDate: null, nextPaymentDate: null })
    expect((await chargesOf(t, a.id)).map((c) => [c.kind, c.due])).toEqual([
      ['REGULAR', '2027-01-01'],
      ['REGULAR', '2027-02-01'],
    ])
  })

  it('yearly, terminated on 1 April before the year was charged: no regular 1 January, one last payment for January–March (90 of 365 days)', async () => {
    const t = await testApp()
    const a = await acceptedAgreement(t, { startPaymentDate: '2027-01-01', paymentPeriod: 'YEARLY' })
    t.clock.set('2026-12-01T09:00:00.000Z')
    const admin = await t.login(demo.admin)
    const res = await t.call('POST', `/agreement/${a.id}/cancel`, { token: admin, body: { terminationDate: '2027-04-01', finalPaymentRequired: true } })
    expect(res.status, JSON.stringify(res.json)).toBe(200)
    expect(res.json).toMatchObject({ nextRegularPaymentDate: null, nextPaymentDate: '2027-03-29' })
    await billOn(t, ['2026-12-29', '2027-01-01', '2027-03-29', '2027-04-01'])
    const share = Math.round((PRICE * 90) / 365)
    expect(await chargesOf(t, a.id)).toEqual([{ kind: 'FINAL', due: '2027-03-29', amount: share, invoiceTotal: share, linesTotal: share }])
  })

  it('yearly, terminated on 1 April after the year was charged: nothing is left to charge', async () => {
    const t = await testApp()
    const a = await acceptedAgreement(t, { startPaymentDate: '2027-01-01', paymentPeriod: 'YEARLY' })
    await billOn(t, ['2026-12-29'])
    t.clock.set('2027-02-01T09:00:00.000Z')
    const admin = await t.login(demo.admin)
    const refused = await t.call('POST', `/agreement/${a.id}/cancel`, { token: admin, body: { terminationDate: '2027-04-01', finalPaymentRequired: true } })
    expect(refused.json.issues?.[0]?.path).toBe('finalPaymentRequired')
    expect((await chargesOf(t, a.id)).map((c) => [c.kind, c.due, c.amount])).toEqual([['REGULAR', '2027-01-01', PRICE]])
  })
})
