// The PostgreSQL twin of server/db/schema/messages.ts: the same tables, columns, indexes and constraints
// (server/db/schema-parity.test.ts); the column types per docs/decisions/0054-postgresql-schema-beside-sqlite.md.
import { boolean, index, integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core'
import { addresses, companies } from './companies'
import { users } from './users'

/**
 * Messages of a company (docs/PRODUCT.md §2 Messages, §3 Message). `body` holds sanitized HTML.
 *
 * An anonymous message (a resident to the board) has `sender_user_id` NULL and nothing else that
 * points to the sender: the row, its recipients and its change-log entries are written without
 * the caller's id (docs/decisions/0027-anonymous-messages-leave-no-trace-of-their-sender.md, messages.service.ts `sendAnonymous`).
 *
 * `status` moves forward only: DRAFT → SENT (recipients fixed, in-app copies and e-mails queued)
 * → DELIVERED (every recipient received it) → READ (every recipient opened it).
 * A DRAFT with `send_at` is scheduled: the job sends it at that instant.
 */
export const messages = pgTable(
  'messages',
  {
    id: text('id').primaryKey(),
    companyId: text('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    senderUserId: text('sender_user_id').references(() => users.id, { onDelete: 'set null' }),
    anonymous: boolean('anonymous').notNull().default(false),
    type: text('type', { enum: ['MESSAGE', 'NOTICE', 'REMINDER'] }).notNull(),
    subject: text('subject').notNull(),
    body: text('body').notNull(),
    status: text('status', { enum: ['DRAFT', 'SENT', 'DELIVERED', 'READ'] })
      .notNull()
      .default('DRAFT'),
    recipientKind: text('recipient_kind', { enum: ['MEMBER', 'ALL_MEMBERS', 'BOARD', 'ADDRESS'] }).notNull(),
    recipientUserId: text('recipient_user_id').references(() => users.id, { onDelete: 'set null' }),
    recipientAddressId: text('recipient_address_id').references(() => addresses.id, { onDelete: 'set null' }),
    /** The member's name or the address as text, kept when the target is later removed. */
    recipientLabel: text('recipient_label'),
    /** Scheduled sending (UTC instant); null sends only when asked. */
    sendAt: text('send_at'),
    sentAt: text('sent_at'),
    version: integer('version').notNull().default(1),
    createdAt: text('created_at').notNull(),
    updatedAt: text('updated_at').notNull(),
  },
  (t) => [
    index('messages_company').on(t.companyId, t.status),
    // The list's keyset order (newest first by created, id) within a company.
    index('messages_company_created').on(t.companyId, t.createdAt, t.id),
    index('messages_sender').on(t.senderUserId),
    index('messages_due').on(t.status, t.sendAt),
  ],
)

/** Who a sent message went to, with per-recipient tracking (docs/PRODUCT.md §2: Received and Viewed). */
export const messageRecipients = pgTable(
  'message_recipients',
  {
    id: text('id').primaryKey(),
    messageId: text('message_id')
      .notNull()
      .references(() => messages.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    emailAddress: text('email_address').notNull(),
    fullName: text('full_name').notNull(),
    /** The e-mail queued for this recipient (mail_outbox.id); its sending marks the message received. */
    mailId: text('mail_id'),
    receivedAt: text('received_at'),
    viewedAt: text('viewed_at'),
    createdAt: text('created_at').notNull(),
  },
  (t) => [
    uniqueIndex('message_recipients_message_user').on(t.messageId, t.userId),
    index('message_recipients_user').on(t.userId),
    index('message_recipients_pending').on(t.receivedAt),
  ],
)

/** Files attached to a message; the bytes live on disk under `<data dir>/attachments/`. */
export const messageAttachments = pgTable(
  'message_attachments',
  {
    id: text('id').primaryKey(),
    messageId: text('message_id')
      .notNull()
      .references(() => messages.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    contentType: text('content_type').notNull(),
    size: integer('size').notNull(),
    sha256: text('sha256').notNull(),
    createdAt: text('created_at').notNull(),
  },
  (t) => [index('message_attachments_message').on(t.messageId)],
)
