import fc from 'fast-check'
import { transaction, type Db } from '../../db/client'
import { demo, type TestApp } from '../../test/harness'
import type { PartType, VatRate } from '../../../shared/domain/agreement-parts'
import { agreementFixtures, createAgreement } from '../agreements/test-helpers'
import { historyWriter } from '../billing/charge-history'

/** A day in 2025–2027, as the statistics property tests draw payment dates and periods. */
export const historyDay = fc.integer({ min: 0, max: 3 * 365 }).map((n) => new Date(Date.UTC(2025, 0, 1) + n * 86_400_000).toISOString().slice(0, 10))

/** One drawn charge of a history: its lines and status, refunds of parts of it, and a later move of its invoice. */
export interface HistoryOp {
  agreement: number
  paymentDate: string
  lines: { type: PartType; amount: number; vatRate: VatRate }[]
  status: string
  refunds: { share: number; paymentDate: string; status?: string }[]
  later?: { status: string; paymentDate: string | null }
}

/** Three agreements of the demo company on two addresses (the first and third share one). */
export async function threeAgreements(t: TestApp) {
  const f = await agreementFixtures(t)
  const admin = await t.login(demo.admin)
  const agreements = [
    await createAgreement(t, {}, admin),
    await createAgreement(t, { emailAddress: demo.residentDa, memberName: 'Mads Hansen', linkedAddress: [f.addressIds[1]] }, admin),
    await createAgreement(t, { emailAddress: 'beboer09@solgaarden.dk', memberName: 'Ida Holm', linkedAddress: [f.addressIds[0]] }, admin),
  ]
  return { f, agreements }
}

/** Thrown to roll the history back once `check` has run (anything else thrown is a failure). */
class RolledBack extends Error {}

/**
 * Writes the history as billing would (one-time charges: regular ones allow one per agreement and
 * due date), runs `check` on it, and rolls it all back, so property runs share one app. One
 * transaction on `t.database.db` (server/db/client.ts), so on either engine.
 */
export async function withHistory(t: TestApp, agreementIds: string[], ops: HistoryOp[], check: (db: Db) => Promise<void> | void): Promise<void> {
  const { db } = t.database
  await transaction(db, async () => {
    const w = historyWriter(db, t.clock.now().toISOString())
    for (const o of ops) {
      const { chargeId, invoiceId } = await w.charge({
        agreementId: agreementIds[o.agreement]!,
        paymentDate: o.paymentDate,
        lines: o.lines,
        status: o.status,
        kind: 'ONE_TIME',
      })
      const total = o.lines.reduce((s, l) => s + l.amount, 0)
      if (o.status === 'EXECUTED')
        for (const r of o.refunds) await w.refund({ chargeId, amount: Math.max(1, Math.floor(total * r.share)), paymentDate: r.paymentDate, status: r.status })
      if (o.later) await w.setStatus(invoiceId, o.later.status, o.later.status === 'EXECUTED' ? o.later.paymentDate : null)
    }
    await check(db)
    // Nothing of the history stays behind.
    throw new RolledBack()
  }).catch((e: unknown) => {
    if (!(e instanceof RolledBack)) throw e
  })
}
