import { describe, expect, it } from 'vitest'
import { demo, testApp } from '../../test/harness'
import { createAgreement } from '../agreements/test-helpers'
import { eq } from 'drizzle-orm'
import { agreements as agreementsTable, charges } from '../../db/schema/agreements'
import { invoices } from '../../db/schema/invoices'
import { billingRepository } from './billing.repository'
import { historyWriter } from './charge-history'

/**
 * The overdue step job (billing tick, every 10 s) reads only the failed charges that have a step
 * due today; a charge waiting for its next step costs no read of its own (at 100,000 agreements
 * the tick once read every unpaid failed charge and its agreement, one query each).
 */
describe('overdue candidates', () => {
  it('are the failed, unpaid charges past their next reminder day, or past the debt-collection day while not flagged', async () => {
    const t = await testApp()
    const admin = await t.login(demo.admin)
    const agreements = [
      await createAgreement(t, {}, admin),
      await createAgreement(t, {}, admin),
      await createAgreement(t, {}, admin),
      await createAgreement(t, {}, admin),
    ]
    const w = historyWriter(t.db, t.clock.now().toISOString())
    const failed = async (agreementId: string, failedOn: string, step: number) => {
      const { chargeId } = await w.charge({ agreementId, paymentDate: '2026-10-01', status: 'FAILED', lines: [{ type: 'COMMON_EXPENSES', amount: 450_000 }] })
      await t.db.update(charges).set({ failedOn, overdueStep: step }).where(eq(charges.id, chargeId)).run()
      return chargeId
    }
    // Today 2026-11-20; reminders 3 and 10 days after, debt collection after 30.
    const waiting = await failed(agreements[0]!.id, '2026-11-18', 0) // day 2: nothing yet
    const firstReminder = await failed(agreements[1]!.id, '2026-11-17', 0) // day 3: the first reminder
    const remindedOnce = await failed(agreements[2]!.id, '2026-11-12', 1) // day 8, reminded: waits for day 10
    const toCollect = await failed(agreements[3]!.id, '2026-10-01', 2) // day 50, both reminders sent
    const due = async () => new Set(await billingRepository.overdueCandidates(t.db, ['2026-11-17', '2026-11-10'], '2026-10-21'))
    expect(await due()).toEqual(new Set([firstReminder, toCollect]))
    expect((await due()).has(waiting) || (await due()).has(remindedOnce)).toBe(false)
    // Flagged for debt collection: nothing left to do for it.
    await t.db.update(agreementsTable).set({ debtCollectionSince: '2026-11-20' }).where(eq(agreementsTable.id, agreements[3]!.id)).run()
    expect(await due()).toEqual(new Set([firstReminder]))
    // Paid (the invoice executed): no step for it any more.
    await t.db.update(invoices).set({ status: 'EXECUTED', paymentDate: '2026-11-20' }).where(eq(invoices.chargeId, firstReminder)).run()
    expect(await due()).toEqual(new Set())
  })
})
