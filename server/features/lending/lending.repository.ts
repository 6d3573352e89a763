import { and, asc, desc, eq, gt, inArray, isNull, lt, lte, ne, or, sql, type SQL } from 'drizzle-orm'
import type { Db } from '../../db/client'
import { charges } from '../../db/schema/agreements'
import { companyMembers } from '../../db/schema/companies'
import { lendingItems, loanReminders, loans } from '../../db/schema/lending'
import { bookedStatuses, type LoanStatus } from '../../../shared/domain/lending'

export type ItemRow = typeof lendingItems.$inferSelect
export type LoanRow = typeof loans.$inferSelect
export type ReminderRow = typeof loanReminders.$inferSelect
export type PageKey = [createdAt: string, id: string]

/** The companies whose lending a caller sees (as staff or as a resident); the super admin sees all. */
export interface LendingScope {
  all: boolean
  companyIds: string[]
}

const inScope = (column: typeof lendingItems.companyId | typeof loans.companyId, scope: LendingScope): SQL | undefined =>
  scope.all ? undefined
  : scope.companyIds.length ? inArray(column, scope.companyIds)
  : sql`1 = 0`

const newestFirst = (
  created: typeof loans.createdAt | typeof lendingItems.createdAt,
  id: typeof loans.id | typeof lendingItems.id,
  after: PageKey | undefined,
) => (after ? or(lt(created, after[0]), and(eq(created, after[0]), lt(id, after[1]))) : undefined)

export const lendingRepository = {
  /** The bytes of the company's item photos, archived items' too (its storage quota, docs/decisions/0082): one statement. */
  storedBytes: async (db: Db, companyId: string): Promise<number> =>
    (
      await db
        .select({ n: sql<number>`coalesce(sum(${lendingItems.photoSize}), 0)`.mapWith(Number) })
        .from(lendingItems)
        .where(eq(lendingItems.companyId, companyId))
        .get()
    )?.n ?? 0,

  item: async (db: Db, id: string): Promise<ItemRow | undefined> => await db.select().from(lendingItems).where(eq(lendingItems.id, id)).get(),

  /** A page of a company's items, newest first. */
  itemPage: async (db: Db, companyId: string, after: PageKey | undefined, limit: number) =>
    await db
      .select()
      .from(lendingItems)
      .where(and(eq(lendingItems.companyId, companyId), isNull(lendingItems.archivedAt), newestFirst(lendingItems.createdAt, lendingItems.id, after)))
      .orderBy(desc(lendingItems.createdAt), desc(lendingItems.id))
      .limit(limit)
      .all(),

  itemSyncPage: async (db: Db, scope: LendingScope, afterId: string | null, limit: number) =>
    await db
      .select()
      .from(lendingItems)
      .where(and(inScope(lendingItems.companyId, scope), afterId ? gt(lendingItems.id, afterId) : undefined))
      .orderBy(asc(lendingItems.id))
      .limit(limit)
      .all(),

  itemsByIds: async (db: Db, scope: LendingScope, ids: string[]) =>
    ids.length === 0 ?
      []
    : await db
        .select()
        .from(lendingItems)
        .where(and(inArray(lendingItems.id, ids), inScope(lendingItems.companyId, scope)))
        .all(),

  insertItem: async (db: Db, row: typeof lendingItems.$inferInsert) => void (await db.insert(lendingItems).values(row).run()),

  updateItem: async (db: Db, id: string, fields: Partial<typeof lendingItems.$inferInsert>) =>
    void (await db
      .update(lendingItems)
      .set({ ...fields, version: sql`${lendingItems.version} + 1` })
      .where(eq(lendingItems.id, id))
      .run()),

  deleteItem: async (db: Db, id: string) => void (await db.delete(lendingItems).where(eq(lendingItems.id, id)).run()),

  /** Of these photo ids, those an item still refers to (the photos' sweep). */
  photoIds: async (db: Db, ids: string[]): Promise<Set<string>> =>
    new Set(
      ids.length === 0 ?
        []
      : (await db.select({ id: lendingItems.photoId }).from(lendingItems).where(inArray(lendingItems.photoId, ids)).all()).map((r) => r.id!),
    ),

  loan: async (db: Db, id: string): Promise<LoanRow | undefined> => await db.select().from(loans).where(eq(loans.id, id)).get(),

  /** Loans of an item that hold dates overlapping `from`–`to` (the overlap rule), other than `exceptId`. */
  bookedOverlapping: async (db: Db, itemId: string, from: string, to: string, exceptId?: string) =>
    await db
      .select()
      .from(loans)
      .where(
        and(
          eq(loans.itemId, itemId),
          inArray(loans.status, bookedStatuses as LoanStatus[]),
          lte(loans.fromDate, to),
          sql`${loans.toDate} >= ${from}`,
          exceptId ? ne(loans.id, exceptId) : undefined,
        ),
      )
      .all(),

  /** Open requests of an item overlapping `from`–`to`, other than `exceptId` (declined when one is accepted). */
  requestedOverlapping: async (db: Db, itemId: string, from: string, to: string, exceptId: string) =>
    await db
      .select()
      .from(loans)
      .where(and(eq(loans.itemId, itemId), eq(loans.status, 'REQUESTED'), lte(loans.fromDate, to), sql`${loans.toDate} >= ${from}`, ne(loans.id, exceptId)))
      .all(),

  /** Whether the borrower has an open request for the item sharing a day with `from`–`to`. */
  openRequestOverlapping: async (db: Db, itemId: string, borrowerUserId: string, from: string, to: string): Promise<boolean> =>
    (await db
      .select({ id: loans.id })
      .from(loans)
      .where(
        and(
          eq(loans.itemId, itemId),
          eq(loans.borrowerUserId, borrowerUserId),
          eq(loans.status, 'REQUESTED'),
          lte(loans.fromDate, to),
          sql`${loans.toDate} >= ${from}`,
        ),
      )
      .limit(1)
      .get()) !== undefined,

  /** Whether an item has a loan that is not finished. */
  hasOpenLoans: async (db: Db, itemId: string): Promise<boolean> =>
    (await db
      .select({ id: loans.id })
      .from(loans)
      .where(and(eq(loans.itemId, itemId), inArray(loans.status, ['REQUESTED', 'ACCEPTED', 'CONFIRMED', 'HANDED_OVER'])))
      .limit(1)
      .get()) !== undefined,

  /** Whether an item has any loan at all (then it is archived, not deleted). */
  hasLoans: async (db: Db, itemId: string): Promise<boolean> =>
    (await db.select({ id: loans.id }).from(loans).where(eq(loans.itemId, itemId)).limit(1).get()) !== undefined,

  /** An item's loans (its calendar and history), newest first. */
  itemLoanPage: async (db: Db, itemId: string, after: PageKey | undefined, limit: number) =>
    await db
      .select()
      .from(loans)
      .where(and(eq(loans.itemId, itemId), newestFirst(loans.createdAt, loans.id, after)))
      .orderBy(desc(loans.createdAt), desc(loans.id))
      .limit(limit)
      .all(),

  /** A member's loans as borrower, or as lender (their own items; association items for its administration). */
  myLoanPage: async (db: Db, who: { userId: string; role: 'borrower' | 'lender'; lendsFor: string[] }, after: PageKey | undefined, limit: number) =>
    (
      await db
        .select({ loan: loans })
        .from(loans)
        .innerJoin(lendingItems, eq(lendingItems.id, loans.itemId))
        .where(
          and(
            who.role === 'borrower' ?
              eq(loans.borrowerUserId, who.userId)
            : or(
                and(eq(lendingItems.lenderKind, 'MEMBER'), eq(loans.lenderUserId, who.userId)),
                who.lendsFor.length ? and(eq(lendingItems.lenderKind, 'ASSOCIATION'), inArray(loans.companyId, who.lendsFor)) : undefined,
              ),
            newestFirst(loans.createdAt, loans.id, after),
          ),
        )
        .orderBy(desc(loans.createdAt), desc(loans.id))
        .limit(limit)
        .all()
    ).map((r) => r.loan),

  loanSyncPage: async (db: Db, scope: LendingScope, afterId: string | null, limit: number) =>
    await db
      .select()
      .from(loans)
      .where(and(inScope(loans.companyId, scope), afterId ? gt(loans.id, afterId) : undefined))
      .orderBy(asc(loans.id))
      .limit(limit)
      .all(),

  loansByIds: async (db: Db, scope: LendingScope, ids: string[]) =>
    ids.length === 0 ?
      []
    : await db
        .select()
        .from(loans)
        .where(and(inArray(loans.id, ids), inScope(loans.companyId, scope)))
        .all(),

  itemsOf: async (db: Db, ids: string[]): Promise<Map<string, ItemRow>> =>
    new Map(
      ids.length === 0 ?
        []
      : (
          await db
            .select()
            .from(lendingItems)
            .where(inArray(lendingItems.id, [...new Set(ids)]))
            .all()
        ).map((r) => [r.id, r]),
    ),

  insertLoan: async (db: Db, row: typeof loans.$inferInsert) => void (await db.insert(loans).values(row).run()),

  /** The guarded step: changes the loan only if it is still at `version` (a double click or a second device loses). */
  stepLoan: async (db: Db, id: string, version: number, fields: Partial<typeof loans.$inferInsert>): Promise<boolean> =>
    (
      await db
        .update(loans)
        .set({ ...fields, version: version + 1 })
        .where(and(eq(loans.id, id), eq(loans.version, version)))
        .run()
    ).changes === 1,

  /** The association's company admin staff (who act as the lender of its items). */
  adminStaffOf: async (db: Db, companyId: string): Promise<string[]> =>
    (
      await db
        .select({ userId: companyMembers.userId })
        .from(companyMembers)
        .where(and(eq(companyMembers.companyId, companyId), inArray(companyMembers.role, ['CHAIRMAN', 'ADMINISTRATOR', 'ACCOUNTANT'])))
        .all()
    ).map((r) => r.userId),

  /**
   * Loans whose collected deposit nobody gives back yet (decision 0064): ended without damage
   * (cancelled, declined, returned) while their charge was EXECUTED and no refund recorded, e.g. a
   * cancel Vipps refused, or a charge collected after the loan ended. The `lending` job refunds them.
   */
  depositsToGiveBack: async (db: Db, limit: number): Promise<LoanRow[]> =>
    (
      await db
        .select({ loan: loans })
        .from(loans)
        .innerJoin(charges, eq(charges.id, loans.depositChargeId))
        .where(
          and(
            isNull(loans.depositRefundId),
            eq(charges.status, 'EXECUTED'),
            or(inArray(loans.status, ['CANCELLED', 'DECLINED']), and(eq(loans.status, 'RETURNED'), isNull(loans.damageNote))),
          ),
        )
        .orderBy(asc(loans.id))
        .limit(limit)
        .all()
    ).map((r) => r.loan),

  // ---- reminders

  /** Plans a loan's reminders (again): unsent ones move to the new times; sent ones stay sent. */
  planReminders: async (db: Db, rows: (typeof loanReminders.$inferInsert)[]) => {
    for (const row of rows)
      await db
        .insert(loanReminders)
        .values(row)
        .onConflictDoUpdate({ target: [loanReminders.loanId, loanReminders.kind], set: { dueAt: row.dueAt }, setWhere: isNull(loanReminders.sentAt) })
        .run()
  },

  /** Due unsent reminders of loans still out, with their loan and item (one query). */
  dueReminders: async (db: Db, now: string, limit: number): Promise<{ reminder: ReminderRow; loan: LoanRow; item: ItemRow }[]> =>
    await db
      .select({ reminder: loanReminders, loan: loans, item: lendingItems })
      .from(loanReminders)
      .innerJoin(loans, eq(loans.id, loanReminders.loanId))
      .innerJoin(lendingItems, eq(lendingItems.id, loans.itemId))
      .where(and(isNull(loanReminders.sentAt), lte(loanReminders.dueAt, now), eq(loans.status, 'HANDED_OVER')))
      .orderBy(asc(loanReminders.dueAt))
      .limit(limit)
      .all(),

  /** Marks due reminders of loans no longer out (returned) as done without sending them (one statement). */
  dropStaleReminders: async (db: Db, now: string): Promise<number> =>
    (
      await db
        .update(loanReminders)
        .set({ sentAt: now })
        .where(
          and(
            isNull(loanReminders.sentAt),
            lte(loanReminders.dueAt, now),
            sql`${loanReminders.loanId} in (select ${loans.id} from ${loans} where ${loans.status} <> 'HANDED_OVER')`,
          ),
        )
        .run()
    ).changes,

  /** The company admin staff of several associations at once (the lenders of their items). */
  adminStaffOfMany: async (db: Db, companyIds: string[]): Promise<Map<string, string[]>> => {
    const out = new Map<string, string[]>()
    if (!companyIds.length) return out
    const rows = await db
      .select({ companyId: companyMembers.companyId, userId: companyMembers.userId })
      .from(companyMembers)
      .where(and(inArray(companyMembers.companyId, [...new Set(companyIds)]), inArray(companyMembers.role, ['CHAIRMAN', 'ADMINISTRATOR', 'ACCOUNTANT'])))
      .all()
    for (const r of rows) out.set(r.companyId, [...(out.get(r.companyId) ?? []), r.userId])
    return out
  },

  /** Claims a reminder of a loan still out for sending: only one caller wins (the others see it sent). */
  claimReminder: async (db: Db, id: string, now: string): Promise<boolean> =>
    (
      await db
        .update(loanReminders)
        .set({ sentAt: now })
        .where(
          and(
            eq(loanReminders.id, id),
            isNull(loanReminders.sentAt),
            sql`exists (select 1 from ${loans} where ${loans.id} = ${loanReminders.loanId} and ${loans.status} = 'HANDED_OVER')`,
          ),
        )
        .run()
    ).changes === 1,
}
