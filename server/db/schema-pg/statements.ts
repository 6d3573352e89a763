// The PostgreSQL twin of server/db/schema/statements.ts: the same table, columns, indexes and constraints
// (server/db/schema-parity.test.ts); the column types per docs/decisions/0054-postgresql-schema-beside-sqlite.md.
import { index, integer, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core'
import { companies } from './companies'

/** The yearly account statements sent to every member of an association (decision 0068): one row per (company, year). */
export const statementSendouts = pgTable(
  'statement_sendouts',
  {
    id: text('id').primaryKey(),
    companyId: text('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    year: integer('year').notNull(),
    requestedByUserId: text('requested_by_user_id'),
    requestedByName: text('requested_by_name').notNull(),
    requestedAt: text('requested_at').notNull(),
    sentAt: text('sent_at'),
    recipients: integer('recipients'),
  },
  (t) => [uniqueIndex('statement_sendouts_company_year').on(t.companyId, t.year), index('statement_sendouts_queued').on(t.sentAt, t.requestedAt)],
)

/** Who a yearly sendout goes to, each claimed once when told (decision 0068). */
export const statementSendoutRecipients = pgTable(
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
