import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core'
import { users } from './users'

/**
 * The server's VAPID key pair (docs/decisions/0088-push-notifications.md), made once and kept here
 * so every instance signs with the same one; the private key is sealed (server/lib/secret-box.ts).
 * Unused while VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY are set.
 */
export const pushKeys = sqliteTable('push_keys', {
  id: text('id').primaryKey(),
  publicKey: text('public_key').notNull(),
  privateKeySealed: text('private_key_sealed').notNull(),
  createdAt: text('created_at').notNull(),
})

/**
 * A device's Web Push subscription (RFC 8030, RFC 8291): where its push service takes messages
 * (`endpoint`, one row per endpoint) and the keys the payload is encrypted to. `label` is what the
 * profile shows (browser and system, from the user agent); never the whole user agent.
 */
export const pushSubscriptions = sqliteTable(
  'push_subscriptions',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    endpoint: text('endpoint').notNull(),
    p256dh: text('p256dh').notNull(),
    auth: text('auth').notNull(),
    label: text('label').notNull(),
    createdAt: text('created_at').notNull(),
    lastSuccessAt: text('last_success_at'),
  },
  (t) => [uniqueIndex('push_subscriptions_endpoint').on(t.endpoint), index('push_subscriptions_user').on(t.userId)],
)

/**
 * What a user wants pushed (docs/PRODUCT.md "Profile"): the groups of notification kinds
 * (shared/domain/push-groups.ts) and quiet hours, Copenhagen wall times `HH:mm` (both or neither).
 * No row: nothing is pushed.
 */
export const pushPreferences = sqliteTable('push_preferences', {
  userId: text('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  groups: text('groups', { mode: 'json' }).$type<string[]>().notNull(),
  quietFrom: text('quiet_from'),
  quietTo: text('quiet_to'),
  version: integer('version').notNull().default(1),
  updatedAt: text('updated_at').notNull(),
})

/**
 * Pushes waiting to be sent, one per device: written in the transaction of the notification that
 * causes it and sent by the push job after the commit (like the mail outbox, decision 0004). The
 * row holds only the lock-screen title and the path to open; `dueAt` is when it may go (the end
 * of the user's quiet hours, or a retry's backoff).
 */
export const pushOutbox = sqliteTable(
  'push_outbox',
  {
    id: text('id').primaryKey(),
    subscriptionId: text('subscription_id')
      .notNull()
      .references(() => pushSubscriptions.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    path: text('path').notNull(),
    status: text('status', { enum: ['queued', 'sent', 'failed'] })
      .notNull()
      .default('queued'),
    attempts: integer('attempts').notNull().default(0),
    dueAt: text('due_at').notNull(),
    lastError: text('last_error'),
    createdAt: text('created_at').notNull(),
    sentAt: text('sent_at'),
  },
  (t) => [index('push_outbox_due').on(t.status, t.dueAt)],
)
