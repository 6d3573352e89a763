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
  insert: (db: Db, row: typeof notifications.$inferInsert): void => {
    db.insert(notifications).values(row).run()
  },

  ofUser: (db: Db, userId: string, limit = 200): NotificationRow[] =>
    db.select().from(notifications).where(eq(notifications.userId, userId)).orderBy(desc(notifications.createdAt), desc(notifications.id)).limit(limit).all(),

  byIdOfUser: (db: Db, userId: string, id: string): NotificationRow | undefined => hotOf(db).byIdOfUser.get({ id, userId }),

  unreadCount: (db: Db, userId: string): number =>
    db
      .select({ n: count() })
      .from(notifications)
      .where(and(eq(notifications.userId, userId), eq(notifications.isRead, false)))
      .get()?.n ?? 0,

  unreadOfUser: (db: Db, userId: string): NotificationRow[] =>
    db
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, userId), eq(notifications.isRead, false)))
      .all(),

  /** Marks the row read; returns it as it is now. */
  markRead: (db: Db, id: string, at: string): NotificationRow | undefined => hotOf(db).markRead.get({ id, at }),

  delete: (db: Db, id: string): void => {
    db.delete(notifications).where(eq(notifications.id, id)).run()
  },

  /** For sync: the user's rows after an id, in id order. */
  pageOfUser: (db: Db, userId: string, afterId: string | null, limit: number): NotificationRow[] =>
    db
      .select()
      .from(notifications)
      .where(afterId ? and(eq(notifications.userId, userId), gt(notifications.id, afterId)) : eq(notifications.userId, userId))
      .orderBy(asc(notifications.id))
      .limit(limit)
      .all(),

  byIdsOfUser: (db: Db, userId: string, ids: string[]): NotificationRow[] =>
    db
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, userId), inArray(notifications.id, ids)))
      .all(),
}
