import { eq } from 'drizzle-orm'
import type { TestApp } from '../../test/harness'
import { agreements, charges, providerOutbox } from '../../db/schema/agreements'
import { invoices } from '../../db/schema/invoices'
import type { Db } from '../../db/client'
import { createAgreement } from '../agreements/test-helpers'

/** An agreement of the demo company made ACCEPTED with a (made-up) Vipps agreement, as billing needs. */
export async function acceptedAgreement(t: TestApp, extra: Record<string, unknown> = {}, adminToken?: string) {
  const a = await createAgreement(t, extra, adminToken)
  await t.db
    .update(agreements)
    .set({ status: 'ACCEPTED', vippsAgreementId: `agr_${a.id.slice(-12)}` })
    .where(eq(agreements.id, a.id))
    .run()
  return a
}

/**
 * The bookkeeping invariants of billing: at most one REGULAR charge per (agreement, due), one
 * invoice per charge pointing back at it, one CREATE_CHARGE outbox row per charge, and invoice
 * numbers 1..n per company with no gap and no repeat.
 */
export async function assertBookkeeping(db: Db) {
  const all = await db.select().from(charges).all()
  const regular = all.filter((c) => c.kind === 'REGULAR')
  const keys = regular.map((c) => `${c.agreementId}/${c.due}`)
  if (new Set(keys).size !== keys.length) throw new Error('two regular charges for one agreement and due date')
  const inv = await db.select().from(invoices).all()
  const byCharge = new Map<string, number>()
  for (const i of inv.filter((x) => x.kind === 'INVOICE')) byCharge.set(i.chargeId, (byCharge.get(i.chargeId) ?? 0) + 1)
  for (const c of all) {
    if (byCharge.get(c.id) !== 1) throw new Error(`charge ${c.id} has ${byCharge.get(c.id) ?? 0} invoices`)
    if (!inv.some((i) => i.id === c.invoiceId && i.chargeId === c.id)) throw new Error(`charge ${c.id} does not point at its invoice`)
  }
  const outbox = (await db.select().from(providerOutbox).all()).filter((o) => o.kind === 'CREATE_CHARGE')
  // Charges made by hand as if Vipps had them already (vippsChargeId set) were never queued.
  for (const c of all)
    if (c.vippsChargeId === null && outbox.filter((o) => o.chargeId === c.id).length !== 1) throw new Error(`charge ${c.id} is not queued exactly once`)
  const numbersByCompany = new Map<string, number[]>()
  for (const i of inv) numbersByCompany.set(i.companyId, [...(numbersByCompany.get(i.companyId) ?? []), i.number])
  for (const [companyId, numbers] of numbersByCompany) {
    const sorted = [...numbers].sort((x, y) => x - y)
    sorted.forEach((n, k) => {
      if (n !== k + 1) throw new Error(`company ${companyId}: invoice numbers ${sorted.join(',')} are not 1..${sorted.length}`)
    })
  }
  return { charges: all.length, regular: regular.length, invoices: inv.length }
}
