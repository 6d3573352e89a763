// GENERATED from server/db/schema/messages.ts by scripts/generate-pg-schema.ts (npm run db:generate:pg-schema,
// which npm run db:generate runs first): do not edit. Change the SQLite table and run npm run db:generate
// (docs/decisions/0074-one-definition-per-table-and-query.md).
import { boolean, index, integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core'
import { addresses, companies } from './companies'
import { users } from './users'

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
    recipientLabel: text('recipient_label'),
    sendAt: text('send_at'),
    sentAt: text('sent_at'),
    version: integer('version').notNull().default(1),
    createdAt: text('created_at').notNull(),
    updatedAt: text('updated_at').notNull(),
  },
  (t) => [
    index('messages_company').on(t.companyId, t.status),
    index('messages_company_created').on(t.companyId, t.createdAt, t.id),
    index('messages_sender').on(t.senderUserId),
    index('messages_due').on(t.status, t.sendAt),
  ],
)

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
