import { sql } from 'drizzle-orm'
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core'
import { companies } from './companies'

/**
 * The account statements sent to every member of an association (decisions 0068 and 0081): the
 * yearly statement once per (company, year), and only once the year has ended; during the year an
 * interim statement (1 January to `through`), at most one a day, which does not use up the year.
 * A resend (to one member, or to those the sendout did not reach) is a row of its own pointing to
 * the sendout it repeats (`resendOfId`), outside both unique keys. A double click, a retry or a
 * second instance queues each once. The `statements` job claims a queued row (`sent_at` set in the transaction that
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
    /** YEARLY: the whole year, once it has ended; INTERIM: 1 January to `through`, during the year. */
    kind: text('kind', { enum: ['YEARLY', 'INTERIM'] })
      .notNull()
      .default('YEARLY'),
    /** An interim statement's last day (Copenhagen); null for the yearly statement. */
    through: text('through'),
    /** A resend: the sendout it repeats (its kind, year and period); null for the sendout itself. */
    resendOfId: text('resend_of_id'),
    /** A resend to one member: who; null when it goes to those the sendout did not reach. */
    resendToUserId: text('resend_to_user_id'),
    /** Who asked for it (the name as it was then). */
    requestedByUserId: text('requested_by_user_id'),
    requestedByName: text('requested_by_name').notNull(),
    requestedAt: text('requested_at').notNull(),
    sentAt: text('sent_at'),
    /** How many members it went to (set when sent). */
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
    /**
     * The mail outbox row of the e-mail that told them (decision 0081), set with `sent_at`; null
     * when they had no address. No address, or a mail the worker gave up on (`failed`): not reached.
     */
    mailId: text('mail_id'),
  },
  (t) => [primaryKey({ columns: [t.sendoutId, t.userId] }), index('statement_sendout_recipients_unsent').on(t.sendoutId, t.sentAt)],
)
