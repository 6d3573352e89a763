import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core'
import { users } from './users'

/** A value put into a notification: text, a number, or an amount in øre (written as kroner in each language). */
/** A plain value; an amount `{ ore }` (kroner in the reader's language); a day `{ day: 'YYYY-MM-DD' }` (written in the reader's language). */
export type NoticeValue = string | number | { ore: number } | { day: string }

/** A catalog message id with the values put into it (plain text; escaped when put into HTML). */
export interface StoredMessage {
  id: string
  /** The English source, for an id the catalogs do not know. */
  message?: string
  values?: Record<string, NoticeValue>
}

/**
 * In-app notifications (docs/PRODUCT.md §3 Notification). `message` holds sanitized HTML. `title`, `message`
 * and `action_text` are the text in the language the user had when it was made; the `*_source`
 * columns say what it says (catalog id and values), so it can be shown in any language. Rows made
 * before those columns existed have only the text.
 */
export const notifications = sqliteTable(
  'notifications',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    message: text('message').notNull(),
    type: text('type', { enum: ['success', 'warning', 'error', 'info'] }).notNull(),
    isRead: integer('is_read', { mode: 'boolean' }).notNull().default(false),
    actionUrl: text('action_url'),
    actionText: text('action_text'),
    titleSource: text('title_source', { mode: 'json' }).$type<StoredMessage>(),
    messageSource: text('message_source', { mode: 'json' }).$type<StoredMessage>(),
    actionTextSource: text('action_text_source', { mode: 'json' }).$type<StoredMessage>(),
    version: integer('version').notNull().default(1),
    createdAt: text('created_at').notNull(),
    readAt: text('read_at'),
  },
  (t) => [index('notifications_user_created').on(t.userId, t.createdAt)],
)
