import { and, eq, inArray, isNotNull } from 'drizzle-orm'
import type { Db } from '../../db/client'
import { agreements, charges } from '../../db/schema/agreements'
import { companies } from '../../db/schema/companies'
import { invoices } from '../../db/schema/invoices'
import { users } from '../../db/schema/users'
import type { StatementCharge, StatementDocument } from '../../../shared/domain/account-statement'

/**
 * The reads of an account statement (decision 0068): two set-based queries whatever the number of
 * documents: the member's invoices and credit notes in one company (index `invoices_member`), and
 * the charges that did not collect on the member's agreements there (index `charges_agreement`).
 * The statement needs the history before the year too (its opening balance), so both read it all:
 * a member has a few dozen documents a year.
 */
export const accountStatementRepository = {
  company: async (db: Db, companyId: string) =>
    await db.select({ id: companies.id, name: companies.name }).from(companies).where(eq(companies.id, companyId)).get(),

  user: async (db: Db, userId: string) => await db.select({ id: users.id, name: users.fullName }).from(users).where(eq(users.id, userId)).get(),

  /** Has the user a document or an agreement (in any status) in the company: are they one of its members, now or before? */
  hasAccount: async (db: Db, userId: string, companyId: string): Promise<boolean> =>
    (await db
      .select({ id: invoices.id })
      .from(invoices)
      .where(and(eq(invoices.memberUserId, userId), eq(invoices.companyId, companyId)))
      .limit(1)
      .get()) !== undefined ||
    (await db
      .select({ id: agreements.id })
      .from(agreements)
      .where(and(eq(agreements.memberUserId, userId), eq(agreements.companyId, companyId)))
      .limit(1)
      .get()) !== undefined,

  documents: async (db: Db, userId: string, companyId: string): Promise<StatementDocument[]> => {
    const rows = await db
      .select({
        id: invoices.id,
        kind: invoices.kind,
        number: invoices.number,
        description: invoices.description,
        chargeId: invoices.chargeId,
        creditedInvoiceId: invoices.creditedInvoiceId,
        issueDate: invoices.issueDate,
        status: invoices.status,
        totalOre: invoices.totalOre,
        paymentDate: invoices.paymentDate,
        settlement: invoices.settlement,
        settledOn: invoices.settledOn,
        settlementNote: invoices.settlementNote,
      })
      .from(invoices)
      .where(and(eq(invoices.memberUserId, userId), eq(invoices.companyId, companyId)))
      .all()
    const numbers = new Map(rows.map((r) => [r.id, String(r.number)]))
    return rows.map((r) => ({
      id: r.id,
      kind: r.kind,
      invoiceNumber: String(r.number),
      name: r.description,
      chargeId: r.chargeId,
      creditedInvoice: r.creditedInvoiceId ? { id: r.creditedInvoiceId, invoiceNumber: numbers.get(r.creditedInvoiceId) ?? '' } : null,
      issueDate: r.issueDate,
      status: r.status,
      totalAmount: r.totalOre,
      payment: { paymentDate: r.paymentDate },
      settlement: r.settlement && r.settledOn ? { kind: r.settlement, date: r.settledOn, note: r.settlementNote } : null,
    }))
  },

  /** The charges on the member's agreements in the company that did not collect. */
  failedCharges: async (db: Db, userId: string, companyId: string): Promise<StatementCharge[]> => {
    const own = db
      .select({ id: agreements.id })
      .from(agreements)
      .where(and(eq(agreements.memberUserId, userId), eq(agreements.companyId, companyId)))
    const rows = await db
      .select({
        id: charges.id,
        invoiceId: charges.invoiceId,
        status: charges.status,
        failedOn: charges.failedOn,
        failureReason: charges.failureReason,
        updatedAt: charges.updatedAt,
      })
      .from(charges)
      .where(and(inArray(charges.agreementId, own), inArray(charges.status, ['FAILED', 'DECLINED', 'EXPIRED']), isNotNull(charges.invoiceId)))
      .all()
    // Only Vipps MobilePay's reason codes (`insufficient_funds`, …) reach the member; an internal error's text does not.
    return rows.map((r) => ({ ...r, failureReason: r.failureReason && /^[a-z_]{1,64}$/.test(r.failureReason) ? r.failureReason : null }))
  },
}
