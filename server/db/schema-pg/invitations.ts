// GENERATED from server/db/schema/invitations.ts by scripts/generate-pg-schema.ts (npm run db:generate:pg-schema,
// which npm run db:generate runs first): do not edit. Change the SQLite table and run npm run db:generate
// (docs/decisions/0074-one-definition-per-table-and-query.md).
import { boolean, index, integer, pgTable, primaryKey, text } from 'drizzle-orm/pg-core'
import { companies } from './companies'

export const invitationSettings = pgTable('invitation_settings', {
  companyId: text('company_id')
    .primaryKey()
    .references(() => companies.id, { onDelete: 'cascade' }),
  remindersOn: boolean('reminders_on').notNull().default(true),
  remindAfterDays: integer('remind_after_days').notNull().default(7),
  maxReminders: integer('max_reminders').notNull().default(2),
  updatedAt: text('updated_at').notNull(),
})

export const invitationSends = pgTable(
  'invitation_sends',
  {
    companyId: text('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    userId: text('user_id').notNull(),
    round: integer('round').notNull(),
    queuedAt: text('queued_at').notNull(),
    queuedByName: text('queued_by_name'),
    sentAt: text('sent_at'),
    mailId: text('mail_id'),
    skipped: text('skipped', { enum: ['BOUNCED', 'NO_ADDRESS', 'DONE'] }),
  },
  (t) => [
    index('invitation_sends_queued').on(t.sentAt, t.queuedAt),
    index('invitation_sends_company').on(t.companyId, t.sentAt),
    primaryKey({ columns: [t.companyId, t.userId, t.round] }),
  ],
)

export const mailBounces = pgTable(
  'mail_bounces',
  {
    id: text('id').primaryKey(),
    email: text('email').notNull(),
    kind: text('kind', { enum: ['HARD', 'COMPLAINT'] }).notNull(),
    reason: text('reason'),
    mailId: text('mail_id'),
    bouncedAt: text('bounced_at').notNull(),
  },
  (t) => [index('mail_bounces_email').on(t.email)],
)
