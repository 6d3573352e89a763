// GENERATED from server/db/schema/statements.ts by scripts/generate-pg-schema.ts (npm run db:generate:pg-schema,
// which npm run db:generate runs first): do not edit. Change the SQLite table and run npm run db:generate
// (docs/decisions/0074-one-definition-per-table-and-query.md).
import { sql } from 'drizzle-orm'
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
    kind: text('kind', { enum: ['YEARLY', 'INTERIM'] })
      .notNull()
      .default('YEARLY'),
    through: text('through'),
    resendOfId: text('resend_of_id'),
    resendToUserId: text('resend_to_user_id'),
    requestedByUserId: text('requested_by_user_id'),
    requestedByName: text('requested_by_name').notNull(),
    requestedAt: text('requested_at').notNull(),
    sentAt: text('sent_at'),
    recipients: integer('recipients'),
  },
  (t) => [
    uniqueIndex('statement_sendouts_yearly_once')
      .on(t.companyId, t.year)
      .where(sql`kind = 'YEARLY' AND resend_of_id IS NULL`),
    uniqueIndex('statement_sendouts_interim_once_a_day')
      .on(t.companyId, t.year, t.through)
      .where(sql`kind = 'INTERIM' AND resend_of_id IS NULL`),
    index('statement_sendouts_queued').on(t.sentAt, t.requestedAt),
    index('statement_sendouts_resends').on(t.resendOfId),
  ],
)

export const statementSendoutRecipients = pgTable(
  'statement_sendout_recipients',
  {
    sendoutId: text('sendout_id')
      .notNull()
      .references(() => statementSendouts.id, { onDelete: 'cascade' }),
    userId: text('user_id').notNull(),
    sentAt: text('sent_at'),
    mailId: text('mail_id'),
  },
  (t) => [index('statement_sendout_recipients_unsent').on(t.sendoutId, t.sentAt), primaryKey({ columns: [t.sendoutId, t.userId] })],
)
