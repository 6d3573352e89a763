import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core'
import { users } from './users'

/** In-app notifications (spec §3 Notification). `message` holds sanitized HTML. */
export const notifications = sqliteTable(
  'notifications',
  {
    id: text('id').primaryKey(),
    userId: text('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    message: text('message').notNull(),
    type: text('type', { enum: ['success', 'warning', 'error', 'info'] }).notNull(),
    isRead: integer('is_read', { mode: 'boolean' }).notNull().default(false),
    actionUrl: text('action_url'),
    actionText: text('action_text'),
    version: integer('version').notNull().default(1),
    createdAt: text('created_at').notNull(),
    readAt: text('read_at'),
  },
  (t) => [index('notifications_user_created').on(t.userId, t.createdAt)],
)
