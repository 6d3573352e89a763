import { eq } from 'drizzle-orm'
import { transaction } from '../../db/client'
import { charges } from '../../db/schema/agreements'
import { invoices } from '../../db/schema/invoices'
import { users } from '../../db/schema/users'
import { newId } from '../../lib/ids'
import { demo, type TestApp } from '../../test/harness'
import { agreementFixtures, createAgreement } from '../agreements/test-helpers'
import { historyWriter } from '../billing/charge-history'

export const userIdOf = async (t: TestApp, email: string): Promise<string> =>
  (await t.db.select({ id: users.id }).from(users).where(eq(users.emailAddress, email)).get())!.id

/**
 * The demo resident's history in the demo company, written as billing writes it: invoice A of
 * 1,000.00 kr. failed on 2 March 2026 (no funds), was collected again on 9 March, and 300.00 kr.
 * of it was refunded (credit note on 1 April, paid back on 3 April); invoice B of 500.00 kr.
 * (issued 1 December 2025) is still unpaid.
 */
export async function statementFixture(t: TestApp) {
  const f = await agreementFixtures(t)
  const agreement = await createAgreement(t)
  const { db } = t.database
  const ids = await transaction(db, async () => {
    const w = historyWriter(db, t.clock.now().toISOString())
    const old = await w.charge({
      agreementId: agreement.id,
      paymentDate: '2025-12-01',
      lines: [{ type: 'FEE', amount: 50_000 }],
      status: 'FAILED',
      kind: 'ONE_TIME',
    })
    const a = await w.charge({
      agreementId: agreement.id,
      paymentDate: '2026-03-01',
      lines: [{ type: 'COMMON_EXPENSES', amount: 100_000 }],
      status: 'FAILED',
      kind: 'ONE_TIME',
      description: 'Boligafgift marts',
    })
    await db.update(charges).set({ failedOn: '2026-03-02', failureReason: 'insufficient_funds' }).where(eq(charges.id, a.chargeId)).run()
    await db.update(charges).set({ failedOn: '2025-12-02' }).where(eq(charges.id, old.chargeId)).run()
    // The retry ("collect again"): a new charge on the same invoice, collected on 9 March.
    const original = (await db.select().from(charges).where(eq(charges.id, a.chargeId)).get())!
    const now = t.clock.now().toISOString()
    await db
      .insert(charges)
      .values({
        ...original,
        id: newId(),
        kind: 'ONE_TIME',
        status: 'EXECUTED',
        capturedOre: 100_000,
        failedOn: null,
        failureReason: null,
        vippsChargeId: null,
        invoiceId: a.invoiceId,
        createdAt: now,
        updatedAt: now,
      })
      .run()
    await w.setStatus(a.invoiceId, 'EXECUTED', '2026-03-09')
    const refund = await w.refund({ chargeId: a.chargeId, amount: 30_000, paymentDate: '2026-04-03' })
    await db.update(invoices).set({ issueDate: '2026-04-01' }).where(eq(invoices.id, refund)).run()
    return { failedOld: old.invoiceId, invoice: a.invoiceId, creditNote: refund }
  })
  return { ...f, agreementId: agreement.id, residentId: await userIdOf(t, demo.resident), ...ids }
}
