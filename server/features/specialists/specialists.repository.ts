import { and, asc, eq, gt, inArray, or, sql } from 'drizzle-orm'
import type { Db } from '../../db/client'
import { specialists } from '../../db/schema/knowledge'

export type SpecialistRow = typeof specialists.$inferSelect
export type SpecialistPageKey = [kind: string, name: string, id: string]

export const specialistsRepository = {
  byId: async (db: Db, id: string): Promise<SpecialistRow | undefined> => await db.select().from(specialists).where(eq(specialists.id, id)).get(),

  /** A page of a company's specialists by kind, then name (the index's order). */
  listPage: async (db: Db, filter: { companyId: string; kind?: string }, after: SpecialistPageKey | undefined, limit: number) =>
    await db
      .select()
      .from(specialists)
      .where(
        and(
          eq(specialists.companyId, filter.companyId),
          filter.kind ? eq(specialists.kind, filter.kind as SpecialistRow['kind']) : undefined,
          after ?
            or(
              gt(specialists.kind, after[0] as SpecialistRow['kind']),
              and(eq(specialists.kind, after[0] as SpecialistRow['kind']), gt(specialists.name, after[1])),
              and(eq(specialists.kind, after[0] as SpecialistRow['kind']), eq(specialists.name, after[1]), gt(specialists.id, after[2])),
            )
          : undefined,
        ),
      )
      .orderBy(asc(specialists.kind), asc(specialists.name), asc(specialists.id))
      .limit(limit)
      .all(),

  /** Sync's snapshot: the companies' specialists after `afterId`, in id order. */
  /** Sync's snapshot: the specialists of these associations (`'all'`: the super admin's, every association's) after `afterId`, in id order. */
  syncPage: async (db: Db, companyIds: string[] | 'all', afterId: string | null, limit: number) =>
    companyIds.length === 0 ?
      []
    : await db
        .select()
        .from(specialists)
        .where(and(companyIds === 'all' ? undefined : inArray(specialists.companyId, companyIds), afterId ? gt(specialists.id, afterId) : undefined))
        .orderBy(asc(specialists.id))
        .limit(limit)
        .all(),

  byIds: async (db: Db, companyIds: string[] | 'all', ids: string[]) =>
    ids.length === 0 || companyIds.length === 0 ?
      []
    : await db
        .select()
        .from(specialists)
        .where(and(inArray(specialists.id, ids), companyIds === 'all' ? undefined : inArray(specialists.companyId, companyIds)))
        .all(),

  insert: async (db: Db, row: typeof specialists.$inferInsert) => void (await db.insert(specialists).values(row).run()),

  update: async (db: Db, id: string, fields: Partial<typeof specialists.$inferInsert>) =>
    void (await db
      .update(specialists)
      .set({ ...fields, version: sql`${specialists.version} + 1` })
      .where(eq(specialists.id, id))
      .run()),

  delete: async (db: Db, id: string) => void (await db.delete(specialists).where(eq(specialists.id, id)).run()),
}
