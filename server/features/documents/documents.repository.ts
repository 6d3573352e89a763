import { and, asc, desc, eq, gt, inArray, lt, or, sql, type SQL } from 'drizzle-orm'
import type { Db } from '../../db/client'
import { documentEvents, documents } from '../../db/schema/documents'
import { users } from '../../db/schema/users'

export type DocumentRow = typeof documents.$inferSelect
export type DocumentEventRow = typeof documentEvents.$inferSelect
export type DocumentPageKey = [createdAt: string, id: string]

/**
 * Whom a caller reads documents for (mirrors documents.service `mayRead`, as SQL): every document of
 * the companies they administer, the members' and board's documents where they are on the board,
 * the members' documents where they live. The super admin reads all.
 */
export interface DocumentScope {
  all: boolean
  admin: string[]
  board: string[]
  resident: string[]
}

function visible(scope: DocumentScope): SQL | undefined {
  if (scope.all) return undefined
  const parts: SQL[] = []
  if (scope.admin.length) parts.push(inArray(documents.companyId, scope.admin))
  if (scope.board.length) parts.push(and(inArray(documents.companyId, scope.board), inArray(documents.audience, ['MEMBERS', 'BOARD']))!)
  if (scope.resident.length) parts.push(and(inArray(documents.companyId, scope.resident), eq(documents.audience, 'MEMBERS'))!)
  return parts.length ? or(...parts) : sql`0 = 1`
}

const withUploader = { document: documents, uploaderName: users.fullName }

export const documentsRepository = {
  /** The bytes of the company's document files (its storage quota, docs/decisions/0082): one statement. */
  storedBytes: async (db: Db, companyId: string): Promise<number> =>
    (
      await db
        .select({ n: sql<number>`coalesce(sum(${documents.size}), 0)`.mapWith(Number) })
        .from(documents)
        .where(eq(documents.companyId, companyId))
        .get()
    )?.n ?? 0,

  byId: async (db: Db, id: string): Promise<DocumentRow | undefined> => await db.select().from(documents).where(eq(documents.id, id)).get(),

  /** A page of a company's documents the scope reads, newest first, with the uploader's name. */
  listPage: async (db: Db, scope: DocumentScope, filter: { companyId: string; category?: string }, after: DocumentPageKey | undefined, limit: number) =>
    await db
      .select(withUploader)
      .from(documents)
      .leftJoin(users, eq(users.id, documents.uploadedByUserId))
      .where(
        and(
          eq(documents.companyId, filter.companyId),
          filter.category ? eq(documents.category, filter.category as DocumentRow['category']) : undefined,
          visible(scope),
          after ? or(lt(documents.createdAt, after[0]), and(eq(documents.createdAt, after[0]), lt(documents.id, after[1]))) : undefined,
        ),
      )
      .orderBy(desc(documents.createdAt), desc(documents.id))
      .limit(limit)
      .all(),

  /** Sync's snapshot: the scope's documents after `afterId`, in id order. */
  syncPage: async (db: Db, scope: DocumentScope, afterId: string | null, limit: number) =>
    await db
      .select(withUploader)
      .from(documents)
      .leftJoin(users, eq(users.id, documents.uploadedByUserId))
      .where(and(visible(scope), afterId ? gt(documents.id, afterId) : undefined))
      .orderBy(asc(documents.id))
      .limit(limit)
      .all(),

  /** Sync's load: the scope's documents among `ids`. */
  byIds: async (db: Db, scope: DocumentScope, ids: string[]) =>
    ids.length === 0 ?
      []
    : await db
        .select(withUploader)
        .from(documents)
        .leftJoin(users, eq(users.id, documents.uploadedByUserId))
        .where(and(inArray(documents.id, ids), visible(scope)))
        .all(),

  withUploader: async (db: Db, id: string) =>
    await db.select(withUploader).from(documents).leftJoin(users, eq(users.id, documents.uploadedByUserId)).where(eq(documents.id, id)).get(),

  insert: async (db: Db, row: typeof documents.$inferInsert) => void (await db.insert(documents).values(row).run()),

  update: async (db: Db, id: string, fields: Partial<typeof documents.$inferInsert>) =>
    void (await db
      .update(documents)
      .set({ ...fields, version: sql`${documents.version} + 1` })
      .where(eq(documents.id, id))
      .run()),

  delete: async (db: Db, id: string) => void (await db.delete(documents).where(eq(documents.id, id)).run()),

  insertEvent: async (db: Db, row: typeof documentEvents.$inferInsert) => void (await db.insert(documentEvents).values(row).run()),

  /** A document's audit trail, newest first. */
  events: async (db: Db, documentId: string): Promise<DocumentEventRow[]> =>
    await db
      .select()
      .from(documentEvents)
      .where(eq(documentEvents.documentId, documentId))
      .orderBy(desc(documentEvents.createdAt), desc(documentEvents.id))
      .all(),

  /** Of these file ids, those a document still refers to (the files' sweep). */
  fileIds: async (db: Db, ids: string[]): Promise<Set<string>> =>
    new Set(ids.length === 0 ? [] : (await db.select({ id: documents.fileId }).from(documents).where(inArray(documents.fileId, ids)).all()).map((r) => r.id)),
}
