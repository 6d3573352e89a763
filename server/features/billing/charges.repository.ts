import { and, asc, eq, gt, inArray, isNotNull, or, sql, type SQL } from 'drizzle-orm'
import type { Db } from '../../db/client'
import { agreements, chargeEvents, charges } from '../../db/schema/agreements'
import { invoices } from '../../db/schema/invoices'

export type ChargeRow = typeof charges.$inferSelect
export type ChargeEventRow = typeof chargeEvents.$inferSelect
/** The agreement a charge belongs to, as the charge's change-log audience and notices read it. */
export type ChargeAgreement = typeof agreements.$inferSelect

/** Where a page of an agreement's charges starts: after this sort key (due date, created, id). */
export type ChargePageKey = [due: string, createdAt: string, id: string]

/** Which charges a caller sees: `all`, or those of some companies' agreements and/or of one member's. */
export type ChargeScope = 'all' | { companyIds: string[]; memberUserId: string }

const scoped = (scope: ChargeScope): SQL | undefined => {
  if (scope === 'all') return undefined
  const own = eq(agreements.memberUserId, scope.memberUserId)
  return scope.companyIds.length ? or(own, inArray(agreements.companyId, scope.companyIds)) : own
}

/** Queries on charges and their history (what Vipps reported). */
export const chargesRepository = {
  ofAgreement: async (db: Db, agreementId: string): Promise<ChargeRow[]> =>
    await db.select().from(charges).where(eq(charges.agreementId, agreementId)).orderBy(asc(charges.due), asc(charges.createdAt)).all(),
  /** A page of an agreement's charges by (due date, created, id) after `after`: one statement with LIMIT (docs/API.md "Lists"). */
  pageOfAgreement: async (db: Db, agreementId: string, after: ChargePageKey | undefined, limit: number): Promise<ChargeRow[]> =>
    await db
      .select()
      .from(charges)
      .where(
        and(
          eq(charges.agreementId, agreementId),
          after ? sql`(${charges.due}, ${charges.createdAt}, ${charges.id}) > (${after[0]}, ${after[1]}, ${after[2]})` : undefined,
        ),
      )
      .orderBy(asc(charges.due), asc(charges.createdAt), asc(charges.id))
      .limit(limit)
      .all(),
  byId: async (db: Db, id: string): Promise<ChargeRow | undefined> => await db.select().from(charges).where(eq(charges.id, id)).get(),
  byIds: async (db: Db, ids: string[]): Promise<ChargeRow[]> => (ids.length ? await db.select().from(charges).where(inArray(charges.id, ids)).all() : []),
  byVippsId: async (db: Db, vippsChargeId: string): Promise<ChargeRow | undefined> =>
    await db.select().from(charges).where(eq(charges.vippsChargeId, vippsChargeId)).get(),
  /** Charges Vipps knows that may still move (the poll re-reads them). */
  openAtVipps: async (db: Db): Promise<ChargeRow[]> =>
    await db
      .select()
      .from(charges)
      .where(and(isNotNull(charges.vippsChargeId), inArray(charges.status, ['CREATED', 'RESERVED'])))
      .all(),
  page: async (db: Db, scope: ChargeScope, afterId: string | null, limit: number): Promise<ChargeRow[]> =>
    (
      await db
        .select({ charge: charges })
        .from(charges)
        .innerJoin(agreements, eq(agreements.id, charges.agreementId))
        .where(and(scoped(scope), afterId === null ? undefined : gt(charges.id, afterId)))
        .orderBy(asc(charges.id))
        .limit(limit)
        .all()
    ).map((r) => r.charge),
  /** The agreement of a charge (read only: the agreements feature writes it). */
  agreementOf: async (db: Db, agreementId: string): Promise<ChargeAgreement | undefined> =>
    await db.select().from(agreements).where(eq(agreements.id, agreementId)).get(),
  insert: async (db: Db, row: typeof charges.$inferInsert): Promise<void> => {
    await db.insert(charges).values(row).run()
  },
  update: async (db: Db, id: string, changes: Partial<typeof charges.$inferInsert>): Promise<void> => {
    await db.update(charges).set(changes).where(eq(charges.id, id)).run()
  },
  events: async (db: Db, chargeIds: string[]): Promise<ChargeEventRow[]> =>
    chargeIds.length ?
      await db.select().from(chargeEvents).where(inArray(chargeEvents.chargeId, chargeIds)).orderBy(asc(chargeEvents.occurredAt), asc(chargeEvents.id)).all()
    : [],
  /** Adds a history event once (the same event from a repeated re-read is ignored). */
  insertEvent: async (db: Db, row: typeof chargeEvents.$inferInsert): Promise<void> => {
    await db.insert(chargeEvents).values(row).onConflictDoNothing().run()
  },
  /** Invoice numbers by invoice id (the charge list shows them). */
  invoiceNumbers: async (db: Db, invoiceIds: string[]): Promise<Map<string, string>> =>
    new Map(
      invoiceIds.length ?
        (await db.select({ id: invoices.id, number: invoices.number }).from(invoices).where(inArray(invoices.id, invoiceIds)).all()).map((r) => [
          r.id,
          String(r.number),
        ])
      : [],
    ),
}
