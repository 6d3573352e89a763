import { and, asc, desc, eq, gt, inArray, lt, or, sql, type SQL } from 'drizzle-orm'
import type { Db } from '../../db/client'
import { marketListings } from '../../db/schema/market'

export type ListingRow = typeof marketListings.$inferSelect
export type ListingPageKey = [createdAt: string, id: string]

/** The companies whose market a caller sees (as staff or as a resident); the super admin sees all. */
export interface MarketScope {
  all: boolean
  companyIds: string[]
}

function visible(scope: MarketScope): SQL | undefined {
  if (scope.all) return undefined
  return scope.companyIds.length ? inArray(marketListings.companyId, scope.companyIds) : sql`1 = 0`
}

export const marketRepository = {
  /** The bytes of the company's listing photos (its storage quota, docs/decisions/0082): one statement. */
  storedBytes: async (db: Db, companyId: string): Promise<number> =>
    (
      await db
        .select({ n: sql<number>`coalesce(sum(${marketListings.photoSize}), 0)`.mapWith(Number) })
        .from(marketListings)
        .where(eq(marketListings.companyId, companyId))
        .get()
    )?.n ?? 0,

  byId: async (db: Db, id: string): Promise<ListingRow | undefined> => await db.select().from(marketListings).where(eq(marketListings.id, id)).get(),

  /**
   * A page of a company's listings, newest first: what is not expired, and the caller's own even
   * when expired (they renew them). `now` is the expiry's comparison instant (ISO).
   */
  listPage: async (db: Db, filter: { companyId: string; kind?: string; userId: string; now: string }, after: ListingPageKey | undefined, limit: number) =>
    await db
      .select()
      .from(marketListings)
      .where(
        and(
          eq(marketListings.companyId, filter.companyId),
          filter.kind ? eq(marketListings.kind, filter.kind as ListingRow['kind']) : undefined,
          or(gt(marketListings.expiresAt, filter.now), eq(marketListings.status, 'GONE'), eq(marketListings.sellerUserId, filter.userId)),
          after ? or(lt(marketListings.createdAt, after[0]), and(eq(marketListings.createdAt, after[0]), lt(marketListings.id, after[1]))) : undefined,
        ),
      )
      .orderBy(desc(marketListings.createdAt), desc(marketListings.id))
      .limit(limit)
      .all(),

  /** Sync's snapshot: the scope's listings after `afterId`, in id order (the client hides others' expired ones). */
  syncPage: async (db: Db, scope: MarketScope, afterId: string | null, limit: number) =>
    await db
      .select()
      .from(marketListings)
      .where(and(visible(scope), afterId ? gt(marketListings.id, afterId) : undefined))
      .orderBy(asc(marketListings.id))
      .limit(limit)
      .all(),

  byIds: async (db: Db, scope: MarketScope, ids: string[]) =>
    ids.length === 0 ?
      []
    : await db
        .select()
        .from(marketListings)
        .where(and(inArray(marketListings.id, ids), visible(scope)))
        .all(),

  insert: async (db: Db, row: typeof marketListings.$inferInsert) => void (await db.insert(marketListings).values(row).run()),

  update: async (db: Db, id: string, fields: Partial<typeof marketListings.$inferInsert>) =>
    void (await db
      .update(marketListings)
      .set({ ...fields, version: sql`${marketListings.version} + 1` })
      .where(eq(marketListings.id, id))
      .run()),

  delete: async (db: Db, id: string) => void (await db.delete(marketListings).where(eq(marketListings.id, id)).run()),

  /** Of these photo ids, those a listing still refers to (the photos' sweep). */
  photoIds: async (db: Db, ids: string[]): Promise<Set<string>> =>
    new Set(
      ids.length === 0 ?
        []
      : (await db.select({ id: marketListings.photoId }).from(marketListings).where(inArray(marketListings.photoId, ids)).all()).map((r) => r.id!),
    ),
}
