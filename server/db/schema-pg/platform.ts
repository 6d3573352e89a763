// GENERATED from server/db/schema/platform.ts by scripts/generate-pg-schema.ts (npm run db:generate:pg-schema,
// which npm run db:generate runs first): do not edit. Change the SQLite table and run npm run db:generate
// (docs/decisions/0074-one-definition-per-table-and-query.md).
import { index, integer, pgTable, primaryKey, text } from 'drizzle-orm/pg-core'

export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    scope: text('scope').notNull(),
    key: text('key').notNull(),
    requestHash: text('request_hash').notNull(),
    status: integer('status').notNull(),
    headers: text('headers').notNull(),
    body: text('body').notNull(),
    createdAt: text('created_at').notNull(),
  },
  (t) => [index('idempotency_keys_created').on(t.createdAt), primaryKey({ columns: [t.scope, t.key] })],
)

export const systemLogs = pgTable(
  'system_logs',
  {
    id: text('id').primaryKey(),
    timestamp: text('timestamp').notNull(),
    level: text('level', { enum: ['ERROR', 'WARN', 'INFO', 'DEBUG'] }).notNull(),
    source: text('source').notNull(),
    message: text('message').notNull(),
    context: text('context'),
    userId: text('user_id'),
  },
  (t) => [index('system_logs_timestamp').on(t.timestamp)],
)

export const mailOutbox = pgTable(
  'mail_outbox',
  {
    id: text('id').primaryKey(),
    to: text('to').notNull(),
    subject: text('subject').notNull(),
    text: text('text').notNull(),
    html: text('html'),
    status: text('status', { enum: ['queued', 'sent', 'failed'] })
      .notNull()
      .default('queued'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: text('next_attempt_at').notNull(),
    lastError: text('last_error'),
    createdAt: text('created_at').notNull(),
    sentAt: text('sent_at'),
  },
  (t) => [index('mail_outbox_status_next').on(t.status, t.nextAttemptAt)],
)
