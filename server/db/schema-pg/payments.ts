// The PostgreSQL twin of server/db/schema/payments.ts: the same tables, columns, indexes and constraints
// (server/db/schema-parity.test.ts); the column types per docs/decisions/0054-postgresql-schema-beside-sqlite.md.
import { boolean, index, integer, json, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core'
import { companies } from './companies'

/**
 * A company's payment provider (docs/PRODUCT.md §3): Vipps MobilePay only. `subscriptionKey` and
 * `clientSecret` are sealed with the app's secret key (lib/secret-box) and never leave the server.
 */
export const paymentProviders = pgTable(
  'payment_providers',
  {
    id: text('id').primaryKey(),
    companyId: text('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    type: text('type', { enum: ['VIPPS'] })
      .notNull()
      .default('VIPPS'),
    isActive: boolean('is_active').notNull().default(true),
    isTest: boolean('is_test').notNull().default(true),
    providerName: text('provider_name').notNull(),
    merchantSerialNumber: text('merchant_serial_number').notNull(),
    clientId: text('client_id').notNull(),
    clientSecretSealed: text('client_secret_sealed').notNull(),
    subscriptionKeySealed: text('subscription_key_sealed').notNull(),
    useTestMode: boolean('use_test_mode').notNull().default(true),
    version: integer('version').notNull().default(1),
    createdAt: text('created_at').notNull(),
    updatedAt: text('updated_at').notNull(),
  },
  (t) => [index('payment_providers_company').on(t.companyId)],
)

/** Webhooks registered at Vipps for a provider; the signing secret Vipps returned is sealed. */
export const providerWebhooks = pgTable(
  'provider_webhooks',
  {
    id: text('id').primaryKey(),
    providerId: text('provider_id')
      .notNull()
      .references(() => paymentProviders.id, { onDelete: 'cascade' }),
    vippsWebhookId: text('vipps_webhook_id'),
    url: text('url').notNull(),
    events: json('events').$type<string[]>().notNull(),
    secretSealed: text('secret_sealed'),
    status: text('status', { enum: ['registering', 'active', 'deleting'] }).notNull(),
    createdAt: text('created_at').notNull(),
  },
  (t) => [index('provider_webhooks_provider').on(t.providerId)],
)

/**
 * Webhook deliveries received from Vipps. Vipps delivers at least once and in any order, so a
 * delivery is stored once (by the SHA-256 of its body) and then processed by re-reading the
 * agreement or charge from Vipps, never by trusting the event's order.
 */
export const webhookEvents = pgTable(
  'webhook_events',
  {
    id: text('id').primaryKey(),
    providerId: text('provider_id')
      .notNull()
      .references(() => paymentProviders.id, { onDelete: 'cascade' }),
    bodyHash: text('body_hash').notNull(),
    eventType: text('event_type').notNull(),
    agreementId: text('agreement_id').notNull(),
    chargeId: text('charge_id'),
    payload: text('payload').notNull(),
    status: text('status', { enum: ['received', 'processed', 'failed'] })
      .notNull()
      .default('received'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: text('next_attempt_at').notNull(),
    /** What Vipps said when the object was re-read (status of the agreement or charge). */
    observedStatus: text('observed_status'),
    lastError: text('last_error'),
    receivedAt: text('received_at').notNull(),
    processedAt: text('processed_at'),
  },
  (t) => [uniqueIndex('webhook_events_provider_body').on(t.providerId, t.bodyHash), index('webhook_events_status_next').on(t.status, t.nextAttemptAt)],
)
