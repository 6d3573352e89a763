import { and, asc, count, desc, eq, gt, inArray, sql } from 'drizzle-orm'
import type Database from 'better-sqlite3'
import { connectionOf, type Db } from '../../db/client'
import { notifications } from '../../db/schema/notifications'

export type NotificationRow = typeof notifications.$inferSelect

const sqlIncrement = () => sql`${notifications.version} + 1`

/**
 * Marking one read is the hot write (issue #19): its queries are built and prepared once per
 * connection instead of on every call (query building and `prepare` were a tenth of a write's
 * time). Kept by connection, never one captured at start-up: reads run on the reader.
 */
function prepareHot(db: Db) {
  return {
    byIdOfUser: db
      .select()
      .from(notifications)
      .where(and(eq(notifications.id, sql.placeholder('id')), eq(notifications.userId, sql.placeholder('userId'))))
      .prepare(),
    markRead: db
      .update(notifications)
      .set({ isRead: true, readAt: sql`${sql.placeholder('at')}`, version: sqlIncrement() })
      .where(eq(notifications.id, sql.placeholder('id')))
      .returning()
      .prepare(),
  }
}
const hot = new WeakMap<Database.Database, ReturnType<typeof prepareHot>>()
function hotOf(db: Db) {
  const sqlite = connectionOf(db)
  let s = hot.get(sqlite)
  if (!s) hot.set(sqlite, (s = prepareHot(db)))
  return s
}

/** Queries on notifications; every query is scoped to one user. */
export const notificationsRepository = {
  insert: async (db: Db, row: typeof notifications.$inferInsert): Promise<void> => {
    await db.insert(notifications).values(row).run()
  },

  ofUser: async (db: Db, userId: string, limit = 200): Promise<NotificationRow[]> =>
    await db
      .select()
      .from(notifications)
      .where(eq(notifications.userId, userId))
      .orderBy(desc(notifications.createdAt), desc(notifications.id))
      .limit(limit)
      .all(),

  byIdOfUser: async (db: Db, userId: string, id: string): Promise<NotificationRow | undefined> => await hotOf(db).byIdOfUser.get({ id, userId }),

  unreadCount: async (db: Db, userId: string): Promise<number> =>
    (
      await db
        .select({ n: count() })
        .from(notifications)
        .where(and(eq(notifications.userId, userId), eq(notifications.isRead, false)))
        .get()
    )?.n ?? 0,

  unreadOfUser: async (db: Db, userId: string): Promise<NotificationRow[]> =>
    await db
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, userId), eq(notifications.isRead, false)))
      .all(),

  /** Marks the row read; returns it as it is now. */
  markRead: async (db: Db, id: string, at: string): Promise<NotificationRow | undefined> => await hotOf(db).markRead.get({ id, at }),

  delete: async (db: Db, id: string): Promise<void> => {
    await db.delete(notifications).where(eq(notifications.id, id)).run()
  },

  /** For sync: the user's rows after an id, in id order. */
  pageOfUser: async (db: Db, userId: string, afterId: string | null, limit: number): Promise<NotificationRow[]> =>
    await db
      .select()
      .from(notifications)
      .where(afterId ? and(eq(notifications.userId, userId), gt(notifications.id, afterId)) : eq(notifications.userId, userId))
      .orderBy(asc(notifications.id))
      .limit(limit)
      .all(),

  byIdsOfUser: async (db: Db, userId: string, ids: string[]): Promise<NotificationRow[]> =>
    await db
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, userId), inArray(notifications.id, ids)))
      .all(),
}
