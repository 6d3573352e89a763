import { and, asc, count, desc, eq, gt, inArray, or, sql, sum, type SQL } from 'drizzle-orm'
import type { Db } from '../../db/client'
import { invoiceLines, invoices } from '../../db/schema/invoices'
import type { InvoiceStatus } from '../../../shared/contract/invoices'

export type InvoiceRow = typeof invoices.$inferSelect
export type InvoiceLineRow = typeof invoiceLines.$inferSelect
/** Where a page of the invoice list starts: after this sort key (issue date, number, id; newest first). */
export type InvoicePageKey = [issueDate: string, number: number, id: string]

/** Which invoices a caller sees: `all`, or those of some companies and/or of one member. */
export type InvoiceScope = 'all' | { companyIds: string[]; memberUserId: string }

const scoped = (scope: InvoiceScope): SQL | undefined => {
  if (scope === 'all') return undefined
  const own = eq(invoices.memberUserId, scope.memberUserId)
  return scope.companyIds.length ? or(own, inArray(invoices.companyId, scope.companyIds)) : own
}

/**
 * Queries on invoices, credit notes and their lines (the drizzle side; the billing run's bulk
 * inserts are prepared statements in billing.repository.ts).
 */
export const invoicesRepository = {
  byId: async (db: Db, id: string): Promise<InvoiceRow | undefined> => await db.select().from(invoices).where(eq(invoices.id, id)).get(),
  byIds: async (db: Db, ids: string[]): Promise<InvoiceRow[]> => (ids.length ? await db.select().from(invoices).where(inArray(invoices.id, ids)).all() : []),
  /** The credit note of a refund (the refund's id is its provider-outbox row's). */
  ofAgreement: async (db: Db, agreementId: string): Promise<InvoiceRow[]> =>
    await db.select().from(invoices).where(eq(invoices.agreementId, agreementId)).all(),

  byRefundId: async (db: Db, refundId: string): Promise<InvoiceRow | undefined> =>
    await db.select().from(invoices).where(eq(invoices.refundId, refundId)).get(),
  /** The invoice (not a credit note) with this id, or else the one issued for the charge. */
  invoiceOfCharge: async (db: Db, charge: { id: string; invoiceId: string | null }): Promise<InvoiceRow | undefined> =>
    charge.invoiceId ?
      await db
        .select()
        .from(invoices)
        .where(and(eq(invoices.id, charge.invoiceId), eq(invoices.kind, 'INVOICE')))
        .get()
    : await db
        .select()
        .from(invoices)
        .where(and(eq(invoices.chargeId, charge.id), eq(invoices.kind, 'INVOICE')))
        .get(),
  update: async (db: Db, id: string, changes: Partial<typeof invoices.$inferInsert>): Promise<void> => {
    await db.update(invoices).set(changes).where(eq(invoices.id, id)).run()
  },
  /** What the credit notes of a charge add up to (the refunds requested so far). */
  creditedOfCharge: async (db: Db, chargeId: string): Promise<number> =>
    Number(
      (
        await db
          .select({ n: sum(invoices.totalOre) })
          .from(invoices)
          .where(and(eq(invoices.chargeId, chargeId), eq(invoices.kind, 'CREDIT_NOTE')))
          .get()
      )?.n ?? 0,
    ),
  /** What the credit notes of an invoice add up to. */
  creditedOfInvoice: async (db: Db, invoiceId: string): Promise<number> =>
    Number(
      (
        await db
          .select({ n: sum(invoices.totalOre) })
          .from(invoices)
          .where(and(eq(invoices.creditedInvoiceId, invoiceId), eq(invoices.kind, 'CREDIT_NOTE')))
          .get()
      )?.n ?? 0,
    ),
  creditNoteIdsOf: async (db: Db, invoiceId: string): Promise<string[]> =>
    (
      await db
        .select({ id: invoices.id })
        .from(invoices)
        .where(and(eq(invoices.creditedInvoiceId, invoiceId), eq(invoices.kind, 'CREDIT_NOTE')))
        .all()
    ).map((r) => r.id),
  linesOf: async (db: Db, invoiceId: string): Promise<InvoiceLineRow[]> =>
    await db.select().from(invoiceLines).where(eq(invoiceLines.invoiceId, invoiceId)).orderBy(invoiceLines.position).all(),
  /** Lines of several invoices, by invoice and article number. */
  linesOfAll: async (db: Db, invoiceIds: string[]): Promise<InvoiceLineRow[]> =>
    invoiceIds.length ?
      await db
        .select()
        .from(invoiceLines)
        .where(inArray(invoiceLines.invoiceId, invoiceIds))
        .orderBy(asc(invoiceLines.invoiceId), asc(invoiceLines.articleNumber))
        .all()
    : [],
  /** Invoice numbers by invoice id. */
  numbers: async (db: Db, ids: string[]): Promise<Map<string, string>> =>
    new Map(
      ids.length ?
        (await db.select({ id: invoices.id, number: invoices.number }).from(invoices).where(inArray(invoices.id, ids)).all()).map((r) => [
          r.id,
          String(r.number),
        ])
      : [],
    ),
  /**
   * A page of a company's documents (staff), or of a member's own (optionally of one company):
   * newest first by (issue date, number, id), the id deciding between companies' equal numbers;
   * keyset paging after `after`, one statement with LIMIT.
   */
  listPage: async (
    db: Db,
    filter: { companyId?: string; memberUserId?: string; status?: InvoiceStatus; after?: InvoicePageKey; limit: number },
  ): Promise<InvoiceRow[]> =>
    await db
      .select()
      .from(invoices)
      .where(
        and(
          filter.companyId !== undefined ? eq(invoices.companyId, filter.companyId) : undefined,
          filter.memberUserId !== undefined ? eq(invoices.memberUserId, filter.memberUserId) : undefined,
          filter.status ? eq(invoices.status, filter.status) : undefined,
          filter.after ?
            sql`(${invoices.issueDate}, ${invoices.number}, ${invoices.id}) < (${filter.after[0]}, ${filter.after[1]}, ${filter.after[2]})`
          : undefined,
        ),
      )
      .orderBy(desc(invoices.issueDate), desc(invoices.number), desc(invoices.id))
      .limit(filter.limit)
      .all(),
  countOfCompany: async (db: Db, companyId: string): Promise<number> =>
    (await db.select({ n: count() }).from(invoices).where(eq(invoices.companyId, companyId)).get())?.n ?? 0,
  /** Rows for a sync snapshot, in id order after `afterId`. */
  page: async (db: Db, scope: InvoiceScope, afterId: string | null, limit: number): Promise<InvoiceRow[]> =>
    await db
      .select()
      .from(invoices)
      .where(and(scoped(scope), afterId === null ? undefined : gt(invoices.id, afterId)))
      .orderBy(asc(invoices.id))
      .limit(limit)
      .all(),
}
