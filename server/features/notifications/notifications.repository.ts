import { and, asc, count, desc, eq, gt, inArray, sql } from 'drizzle-orm'
import type { Db } from '../../db/client'
import { notifications } from '../../db/schema/notifications'

export type NotificationRow = typeof notifications.$inferSelect

const sqlIncrement = () => sql`${notifications.version} + 1`

/** Queries on notifications; every query is scoped to one user. */
export const notificationsRepository = {
  insert: (db: Db, row: typeof notifications.$inferInsert): void => {
    db.insert(notifications).values(row).run()
  },

  ofUser: (db: Db, userId: string, limit = 200): NotificationRow[] =>
    db.select().from(notifications).where(eq(notifications.userId, userId)).orderBy(desc(notifications.createdAt), desc(notifications.id)).limit(limit).all(),

  byIdOfUser: (db: Db, userId: string, id: string): NotificationRow | undefined =>
    db
      .select()
      .from(notifications)
      .where(and(eq(notifications.id, id), eq(notifications.userId, userId)))
      .get(),

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

  markRead: (db: Db, id: string, at: string): void => {
    db.update(notifications).set({ isRead: true, readAt: at, version: sqlIncrement() }).where(eq(notifications.id, id)).run()
  },

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
