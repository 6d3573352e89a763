// GENERATED from server/db/schema/agreements.ts by scripts/generate-pg-schema.ts (npm run db:generate:pg-schema,
// which npm run db:generate runs first): do not edit. Change the SQLite table and run npm run db:generate
// (docs/decisions/0074-one-definition-per-table-and-query.md).
import { sql } from 'drizzle-orm'
import { bigint, boolean, index, integer, json, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core'
import { addresses, companies } from './companies'
import { paymentProviders } from './payments'
import { users } from './users'

export const agreements = pgTable(
  'agreements',
  {
    id: text('id').primaryKey(),
    companyId: text('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    externalSeq: integer('external_seq').notNull(),
    memberUserId: text('member_user_id')
      .notNull()
      .references(() => users.id),
    paymentProviderId: text('payment_provider_id')
      .notNull()
      .references(() => paymentProviders.id),
    status: text('status', { enum: ['CREATED', 'PENDING', 'ACCEPTED', 'REJECTED', 'CANCELED', 'CLOSED', 'EXPIRED'] })
      .notNull()
      .default('CREATED'),
    priceOre: bigint('price_ore', { mode: 'number' }).notNull(),
    currency: text('currency', { enum: ['DKK'] })
      .notNull()
      .default('DKK'),
    paymentPeriod: text('payment_period', { enum: ['DAILY', 'WEEKLY', 'MONTHLY', 'YEARLY'] }).notNull(),
    startPaymentDate: text('start_payment_date').notNull(),
    nextRegularPaymentDate: text('next_regular_payment_date'),
    terminationDate: text('termination_date'),
    finalPaymentRequired: boolean('final_payment_required').notNull().default(false),
    vippsAgreementId: text('vipps_agreement_id'),
    vippsConfirmationUrl: text('vipps_confirmation_url'),
    pendingSince: text('pending_since'),
    debtCollectionSince: text('debt_collection_since'),
    createdByUserId: text('created_by_user_id'),
    version: integer('version').notNull().default(1),
    createdAt: text('created_at').notNull(),
    updatedAt: text('updated_at').notNull(),
  },
  (t) => [
    uniqueIndex('agreements_company_seq').on(t.companyId, t.externalSeq),
    index('agreements_member').on(t.memberUserId),
    index('agreements_status').on(t.status),
    index('agreements_status_next').on(t.status, t.nextRegularPaymentDate, t.id),
    uniqueIndex('agreements_vipps_id').on(t.vippsAgreementId),
  ],
)

export const agreementParts = pgTable(
  'agreement_parts',
  {
    agreementId: text('agreement_id')
      .notNull()
      .references(() => agreements.id, { onDelete: 'cascade' }),
    id: text('id').notNull(),
    position: integer('position').notNull(),
    type: text('type', { enum: ['FEE', 'ADDITION', 'HEAT', 'COLD_WATER', 'HOT_WATER', 'HOT_AND_COLD_WATER', 'COMMON_EXPENSES', 'OTHER'] }).notNull(),
    description: text('description').notNull(),
    priceOre: bigint('price_ore', { mode: 'number' }).notNull(),
    vatRate: integer('vat_rate').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.agreementId, t.id] })],
)

export const agreementAddresses = pgTable(
  'agreement_addresses',
  {
    agreementId: text('agreement_id')
      .notNull()
      .references(() => agreements.id, { onDelete: 'cascade' }),
    addressId: text('address_id')
      .notNull()
      .references(() => addresses.id, { onDelete: 'restrict' }),
    position: integer('position').notNull(),
  },
  (t) => [index('agreement_addresses_address').on(t.addressId), primaryKey({ columns: [t.agreementId, t.addressId] })],
)

export const charges = pgTable(
  'charges',
  {
    id: text('id').primaryKey(),
    agreementId: text('agreement_id')
      .notNull()
      .references(() => agreements.id, { onDelete: 'cascade' }),
    companyId: text('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['REGULAR', 'ONE_TIME', 'FINAL'] }).notNull(),
    type: text('type', { enum: ['RECURRING', 'UNSCHEDULED'] }).notNull(),
    amountOre: bigint('amount_ore', { mode: 'number' }).notNull(),
    currency: text('currency', { enum: ['DKK'] })
      .notNull()
      .default('DKK'),
    description: text('description').notNull(),
    due: text('due').notNull(),
    status: text('status', { enum: ['CREATED', 'CANCELED', 'RESERVED', 'EXECUTED', 'FAILED', 'EXPIRED', 'DECLINED'] })
      .notNull()
      .default('CREATED'),
    vippsChargeId: text('vipps_charge_id'),
    vippsStatus: text('vipps_status'),
    capturedOre: bigint('captured_ore', { mode: 'number' }).notNull().default(0),
    refundedOre: bigint('refunded_ore', { mode: 'number' }).notNull().default(0),
    failureReason: text('failure_reason'),
    invoiceId: text('invoice_id'),
    failedOn: text('failed_on'),
    overdueStep: integer('overdue_step').notNull().default(0),
    version: integer('version').notNull().default(1),
    createdAt: text('created_at').notNull(),
    updatedAt: text('updated_at').notNull(),
  },
  (t) => [
    index('charges_agreement').on(t.agreementId, t.due),
    index('charges_status').on(t.status),
    index('charges_failed_on')
      .on(t.failedOn)
      .where(sql`failed_on IS NOT NULL AND status IN ('FAILED', 'DECLINED')`),
    uniqueIndex('charges_regular_agreement_due')
      .on(t.agreementId, t.due)
      .where(sql`kind = 'REGULAR'`),
    uniqueIndex('charges_final_agreement')
      .on(t.agreementId)
      .where(sql`kind = 'FINAL'`),
    uniqueIndex('charges_vipps_id').on(t.vippsChargeId),
  ],
)

export const chargeEvents = pgTable(
  'charge_events',
  {
    id: text('id').primaryKey(),
    chargeId: text('charge_id')
      .notNull()
      .references(() => charges.id, { onDelete: 'cascade' }),
    event: text('event').notNull(),
    amountOre: bigint('amount_ore', { mode: 'number' }).notNull(),
    occurredAt: text('occurred_at').notNull(),
    success: boolean('success').notNull().default(true),
    eventKey: text('event_key').notNull(),
  },
  (t) => [uniqueIndex('charge_events_charge_key').on(t.chargeId, t.eventKey)],
)

export const providerOutbox = pgTable(
  'provider_outbox',
  {
    id: text('id').primaryKey(),
    providerId: text('provider_id')
      .notNull()
      .references(() => paymentProviders.id),
    agreementId: text('agreement_id')
      .notNull()
      .references(() => agreements.id, { onDelete: 'cascade' }),
    chargeId: text('charge_id').references(() => charges.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['CREATE_CHARGE', 'STOP_AGREEMENT', 'UPDATE_AGREEMENT', 'CANCEL_CHARGE', 'CAPTURE_CHARGE', 'REFUND_CHARGE'] }).notNull(),
    payload: json('payload').notNull(),
    status: text('status', { enum: ['pending', 'sent', 'failed'] })
      .notNull()
      .default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: text('next_attempt_at').notNull(),
    lastError: text('last_error'),
    createdAt: text('created_at').notNull(),
    sentAt: text('sent_at'),
  },
  (t) => [index('provider_outbox_status_next').on(t.status, t.nextAttemptAt), index('provider_outbox_agreement').on(t.agreementId)],
)
