import { and, asc, count, desc, eq, gt, inArray } from 'drizzle-orm'
import type { Db } from '../../db/client'
import { statement } from '../../db/statement'
import { notifications, type StoredMessage } from '../../db/schema/notifications'

export type NotificationRow = typeof notifications.$inferSelect

/** A notification's columns under the row's own names, for the raw statements below. */
const COLUMNS = `id, user_id AS "userId", title, message, type, is_read AS "isRead", action_url AS "actionUrl", action_text AS "actionText",
  title_source AS "titleSource", message_source AS "messageSource", action_text_source AS "actionTextSource", version,
  created_at AS "createdAt", read_at AS "readAt"`

/** A raw row as the engine hands it over: `isRead` is 1/0 on SQLite, a boolean on PostgreSQL; the sources are JSON text on both. */
type RawNotification = Omit<NotificationRow, 'isRead' | 'titleSource' | 'messageSource' | 'actionTextSource'> & {
  isRead: number | boolean
  titleSource: string | null
  messageSource: string | null
  actionTextSource: string | null
}

/** The row as drizzle reads it (the schema's boolean and JSON columns), made of the raw row in place (it is ours). */
function toRow(raw: RawNotification | undefined): NotificationRow | undefined {
  if (!raw) return undefined
  const row = raw as unknown as NotificationRow
  row.isRead = Boolean(raw.isRead)
  row.titleSource = parseJson(raw.titleSource)
  row.messageSource = parseJson(raw.messageSource)
  row.actionTextSource = parseJson(raw.actionTextSource)
  return row
}
const parseJson = (text: string | null): StoredMessage | null => (text === null ? null : (JSON.parse(text) as StoredMessage))

/**
 * Marking one read is the hot write (the API bench's write, docs/BENCHMARKS.md): raw statements, prepared once per connection on
 * SQLite, instead of a query built and prepared on every call (query building and `prepare` were
 * a tenth of a write's time).
 */
const byIdOfUserStatement = statement<{ id: string; userId: string }, RawNotification>(
  `SELECT ${COLUMNS} FROM notifications WHERE id = @id AND user_id = @userId`,
)
const markReadStatement = statement<{ id: string; at: string }, RawNotification>(
  `UPDATE notifications SET is_read = TRUE, read_at = @at, version = version + 1 WHERE id = @id RETURNING ${COLUMNS}`,
)
const markOwnUnreadStatement = statement<{ id: string; userId: string; at: string }, RawNotification>(
  `UPDATE notifications SET is_read = TRUE, read_at = @at, version = version + 1 WHERE id = @id AND user_id = @userId AND NOT is_read RETURNING ${COLUMNS}`,
)

/** Rows per INSERT of `insertMany` (13 parameters a row: far below either engine's limit). */
const INSERT_CHUNK = 200

/** Queries on notifications; every query is scoped to one user. */
export const notificationsRepository = {
  insert: async (db: Db, row: typeof notifications.$inferInsert): Promise<void> => {
    await db.insert(notifications).values(row).run()
  },

  /** Many rows in few statements (a sendout to every member of an association). */
  insertMany: async (db: Db, rows: Array<typeof notifications.$inferInsert>): Promise<void> => {
    for (let i = 0; i < rows.length; i += INSERT_CHUNK)
      await db
        .insert(notifications)
        .values(rows.slice(i, i + INSERT_CHUNK))
        .run()
  },

  ofUser: async (db: Db, userId: string, limit = 200): Promise<NotificationRow[]> =>
    await db
      .select()
      .from(notifications)
      .where(eq(notifications.userId, userId))
      .orderBy(desc(notifications.createdAt), desc(notifications.id))
      .limit(limit)
      .all(),

  byIdOfUser: async (db: Db, userId: string, id: string): Promise<NotificationRow | undefined> => toRow(await byIdOfUserStatement.get(db, { id, userId })),

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
  markRead: async (db: Db, id: string, at: string): Promise<NotificationRow | undefined> => toRow(await markReadStatement.get(db, { id, at })),

  /** Marks the user's notification read if it is unread, in one statement: the row as it is now, or undefined (not theirs, or read already). */
  markOwnUnread: async (db: Db, userId: string, id: string, at: string): Promise<NotificationRow | undefined> =>
    toRow(await markOwnUnreadStatement.get(db, { id, userId, at })),

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
