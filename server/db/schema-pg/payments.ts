// GENERATED from server/db/schema/payments.ts by scripts/generate-pg-schema.ts (npm run db:generate:pg-schema,
// which npm run db:generate runs first): do not edit. Change the SQLite table and run npm run db:generate
// (docs/decisions/0074-one-definition-per-table-and-query.md).
import { boolean, index, integer, json, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core'
import { companies } from './companies'

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

export const providerWebhooks = pgTable(
  'provider_webhooks',
  {
    id: text('id').primaryKey(),
    providerId: text('provider_id')
      .notNull()
      .references(() => paymentProviders.id, { onDelete: 'cascade' }),
    vippsWebhookId: text('vipps_webhook_id'),
    url: text('url').notNull(),
    events: json('events').notNull(),
    secretSealed: text('secret_sealed'),
    status: text('status', { enum: ['registering', 'active', 'deleting'] }).notNull(),
    createdAt: text('created_at').notNull(),
  },
  (t) => [index('provider_webhooks_provider').on(t.providerId)],
)

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
    observedStatus: text('observed_status'),
    lastError: text('last_error'),
    receivedAt: text('received_at').notNull(),
    processedAt: text('processed_at'),
  },
  (t) => [uniqueIndex('webhook_events_provider_body').on(t.providerId, t.bodyHash), index('webhook_events_status_next').on(t.status, t.nextAttemptAt)],
)
