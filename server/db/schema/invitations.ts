import { index, integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core'
import { companies } from './companies'

/**
 * An association's reminder rules for invitations (docs/decisions/0091): whether reminders go out,
 * how many days after the last invitation or reminder, and how many at most. An association
 * without a row has the defaults (on, 7 days, 2 reminders).
 */
export const invitationSettings = sqliteTable('invitation_settings', {
  companyId: text('company_id')
    .primaryKey()
    .references(() => companies.id, { onDelete: 'cascade' }),
  remindersOn: integer('reminders_on', { mode: 'boolean' }).notNull().default(true),
  remindAfterDays: integer('remind_after_days').notNull().default(7),
  maxReminders: integer('max_reminders').notNull().default(2),
  updatedAt: text('updated_at').notNull(),
})

/**
 * One row per person, association and round (docs/decisions/0091): round 0 is the invitation,
 * rounds 1…K the reminders. The primary key makes each round once: staff queue the invitations
 * with one `INSERT … SELECT … ON CONFLICT DO NOTHING` (a double click, a retry or a second
 * instance queues nobody twice), the `invitations` job plans the reminder rounds the same way, and
 * sends each row in the transaction that claims it (`sent_at` set where it was null) and queues its
 * mail, so a crash half-way sends nobody two mails. A row claimed but not mailed says why (`skipped`).
 */
export const invitationSends = sqliteTable(
  'invitation_sends',
  {
    companyId: text('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    userId: text('user_id').notNull(),
    round: integer('round').notNull(),
    queuedAt: text('queued_at').notNull(),
    /** Who asked for an invitation (the name as it was then); null for a reminder the job planned. */
    queuedByName: text('queued_by_name'),
    /** Claimed (and its mail queued in the same transaction). */
    sentAt: text('sent_at'),
    /** The mail outbox row of the mail, when one went. */
    mailId: text('mail_id'),
    /** Why no mail went when claimed: the address bounced, there is none, or nothing is left to do. */
    skipped: text('skipped', { enum: ['BOUNCED', 'NO_ADDRESS', 'DONE'] }),
  },
  (t) => [
    primaryKey({ columns: [t.companyId, t.userId, t.round] }),
    index('invitation_sends_queued').on(t.sentAt, t.queuedAt),
    index('invitation_sends_company').on(t.companyId, t.sentAt),
  ],
)

/**
 * Addresses the mail provider reported as bounced for good (a hard bounce) or as a complaint
 * (docs/decisions/0091): no invitation or reminder goes to them any more, and staff see it. A
 * person with a new address is invited again. One row an address in practice (a notice for an
 * address already listed updates its row), but not a unique key: the erasure's sweep (decision 0069)
 * replaces an erased person's address with the same placeholder in every row that holds one.
 */
export const mailBounces = sqliteTable(
  'mail_bounces',
  {
    id: text('id').primaryKey(),
    /** The address, lower-cased as users' addresses are stored. */
    email: text('email').notNull(),
    kind: text('kind', { enum: ['HARD', 'COMPLAINT'] }).notNull(),
    /** The provider's reason (its diagnostic text), at most 500 characters. */
    reason: text('reason'),
    /** Our mail the bounce is about (from its Message-ID), when the provider says. */
    mailId: text('mail_id'),
    bouncedAt: text('bounced_at').notNull(),
  },
  (t) => [index('mail_bounces_email').on(t.email)],
)
