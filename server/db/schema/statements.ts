import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core'
import { companies } from './companies'

/**
 * The yearly account statements sent to every member of an association (decision
 * 0068): one row per (company, year), unique, so a double click, a retry or a second instance
 * queues it once. The `statements` job claims a queued row (`sent_at` set in the transaction that
 * writes every member's notification and e-mail) so it goes out once, even after a crash.
 */
export const statementSendouts = sqliteTable(
  'statement_sendouts',
  {
    id: text('id').primaryKey(),
    companyId: text('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    year: integer('year').notNull(),
    /** Who asked for it (the name as it was then). */
    requestedByUserId: text('requested_by_user_id'),
    requestedByName: text('requested_by_name').notNull(),
    requestedAt: text('requested_at').notNull(),
    sentAt: text('sent_at'),
    /** How many members it went to (set when sent). */
    recipients: integer('recipients'),
  },
  (t) => [uniqueIndex('statement_sendouts_company_year').on(t.companyId, t.year), index('statement_sendouts_queued').on(t.sentAt, t.requestedAt)],
)

/**
 * Who a yearly sendout goes to (decision 0068): listed in one statement when staff queue the year,
 * then told in batches by the `statements` job, each batch claimed (`sent_at` set) in the
 * transaction that writes its notifications and e-mails: a crash loses no one and tells no one twice,
 * and 2,000 members never hold the write lock in one long transaction.
 */
export const statementSendoutRecipients = sqliteTable(
  'statement_sendout_recipients',
  {
    sendoutId: text('sendout_id')
      .notNull()
      .references(() => statementSendouts.id, { onDelete: 'cascade' }),
    userId: text('user_id').notNull(),
    sentAt: text('sent_at'),
  },
  (t) => [primaryKey({ columns: [t.sendoutId, t.userId] }), index('statement_sendout_recipients_unsent').on(t.sendoutId, t.sentAt)],
)
