// GENERATED from server/db/schema/statements.ts by scripts/generate-pg-schema.ts (npm run db:generate:pg-schema,
// which npm run db:generate runs first): do not edit. Change the SQLite table and run npm run db:generate
// (docs/decisions/0074-one-definition-per-table-and-query.md).
import { index, integer, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core'
import { companies } from './companies'

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

export const statementSendoutRecipients = pgTable(
  'statement_sendout_recipients',
  {
    sendoutId: text('sendout_id')
      .notNull()
      .references(() => statementSendouts.id, { onDelete: 'cascade' }),
    userId: text('user_id').notNull(),
    sentAt: text('sent_at'),
  },
  (t) => [index('statement_sendout_recipients_unsent').on(t.sendoutId, t.sentAt), primaryKey({ columns: [t.sendoutId, t.userId] })],
)
