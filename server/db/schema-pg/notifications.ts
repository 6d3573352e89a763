// GENERATED from server/db/schema/notifications.ts by scripts/generate-pg-schema.ts (npm run db:generate:pg-schema,
// which npm run db:generate runs first): do not edit. Change the SQLite table and run npm run db:generate
// (docs/decisions/0074-one-definition-per-table-and-query.md).
import { boolean, index, integer, json, pgTable, text } from 'drizzle-orm/pg-core'
import { users } from './users'

export const notifications = pgTable(
  'notifications',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    message: text('message').notNull(),
    type: text('type', { enum: ['success', 'warning', 'error', 'info'] }).notNull(),
    isRead: boolean('is_read').notNull().default(false),
    actionUrl: text('action_url'),
    actionText: text('action_text'),
    titleSource: json('title_source'),
    messageSource: json('message_source'),
    actionTextSource: json('action_text_source'),
    version: integer('version').notNull().default(1),
    createdAt: text('created_at').notNull(),
    readAt: text('read_at'),
  },
  (t) => [index('notifications_user_created').on(t.userId, t.createdAt)],
)
