// The PostgreSQL twin of server/db/schema/platform.ts: the same tables, columns, indexes and constraints
// (server/db/schema-parity.test.ts); the column types per docs/decisions/0054-postgresql-schema-beside-sqlite.md.
import { index, integer, pgTable, primaryKey, text } from 'drizzle-orm/pg-core'

/**
 * Stored answers of writes by Idempotency-Key (docs/API.md "Writes"). The row is written in the
 * same transaction as the write's effect, so a key exists exactly when its effect does.
 */
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
  (t) => [primaryKey({ columns: [t.scope, t.key] }), index('idempotency_keys_created').on(t.createdAt)],
)

/** System log shown on /logs: client reports and the server's own warnings and errors. */
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

/**
 * E-mails waiting to be sent. A mail is queued in the transaction of the change that caused it
 * and sent by the mail worker afterwards, so a rolled-back change sends nothing.
 */
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
