import { describe, expect, it } from 'vitest'
import { demo, testApp } from '../../test/harness'
import { createAgreement } from '../agreements/test-helpers'
import { billingStatements } from './billing.repository'
import { historyWriter } from './charge-history'

/**
 * The overdue step job (billing tick, every 10 s) reads only the failed charges that have a step
 * due today; a charge waiting for its next step costs no read of its own (issue #19: at 100,000
 * agreements the tick read every unpaid failed charge and its agreement, one query each).
 */
describe('overdue candidates', () => {
  it('are the failed, unpaid charges past their next reminder day, or past the debt-collection day while not flagged', async () => {
    const t = await testApp()
    const sqlite = t.database.sqlite
    const admin = await t.login(demo.admin)
    const agreements = [
      await createAgreement(t, {}, admin),
      await createAgreement(t, {}, admin),
      await createAgreement(t, {}, admin),
      await createAgreement(t, {}, admin),
    ]
    const w = historyWriter(sqlite, t.clock.now().toISOString())
    const failed = (agreementId: string, failedOn: string, step: number) => {
      const { chargeId } = w.charge({ agreementId, paymentDate: '2026-10-01', status: 'FAILED', lines: [{ type: 'COMMON_EXPENSES', amount: 450_000 }] })
      sqlite.prepare('UPDATE charges SET failed_on = ?, overdue_step = ? WHERE id = ?').run(failedOn, step, chargeId)
      return chargeId
    }
    // Today 2026-11-20; reminders 3 and 10 days after, debt collection after 30.
    const waiting = failed(agreements[0]!.id, '2026-11-18', 0) // day 2: nothing yet
    const firstReminder = failed(agreements[1]!.id, '2026-11-17', 0) // day 3: the first reminder
    const remindedOnce = failed(agreements[2]!.id, '2026-11-12', 1) // day 8, reminded: waits for day 10
    const toCollect = failed(agreements[3]!.id, '2026-10-01', 2) // day 50, both reminders sent
    const st = billingStatements(sqlite)
    const due = () => new Set(st.overdueCandidates(['2026-11-17', '2026-11-10'], '2026-10-21'))
    expect(due()).toEqual(new Set([firstReminder, toCollect]))
    expect(due().has(waiting) || due().has(remindedOnce)).toBe(false)
    // Flagged for debt collection: nothing left to do for it.
    sqlite.prepare('UPDATE agreements SET debt_collection_since = ? WHERE id = ?').run('2026-11-20', agreements[3]!.id)
    expect(due()).toEqual(new Set([firstReminder]))
    // Paid (the invoice executed): no step for it any more.
    sqlite.prepare("UPDATE invoices SET status = 'EXECUTED', payment_date = '2026-11-20' WHERE charge_id = ?").run(firstReminder)
    expect(due()).toEqual(new Set())
  })
})
