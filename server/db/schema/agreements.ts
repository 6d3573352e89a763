import { sql } from 'drizzle-orm'
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core'
import { bigInteger } from '../columns'
import { agreementStatuses, chargeStatuses } from '../../../shared/domain/agreement-status'
import { partTypes, paymentPeriods } from '../../../shared/domain/agreement-parts'
import { addresses, companies } from './companies'
import { paymentProviders } from './payments'
import { users } from './users'

/**
 * Agreements between a company and a member (docs/PRODUCT.md §3), their parts and addresses, the charges
 * collected under them, and the provider outbox of money effects. Money is integer øre; calendar
 * dates are `YYYY-MM-DD` (Europe/Copenhagen); instants are UTC ISO strings.
 */
export const agreements = sqliteTable(
  'agreements',
  {
    id: text('id').primaryKey(),
    companyId: text('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    /** Sequential per company: 1001, 1002, … (`externalId` is its text). */
    externalSeq: integer('external_seq').notNull(),
    memberUserId: text('member_user_id')
      .notNull()
      .references(() => users.id),
    paymentProviderId: text('payment_provider_id')
      .notNull()
      .references(() => paymentProviders.id),
    status: text('status', { enum: agreementStatuses }).notNull().default('CREATED'),
    priceOre: bigInteger('price_ore').notNull(),
    currency: text('currency', { enum: ['DKK'] })
      .notNull()
      .default('DKK'),
    paymentPeriod: text('payment_period', { enum: paymentPeriods }).notNull(),
    startPaymentDate: text('start_payment_date').notNull(),
    nextRegularPaymentDate: text('next_regular_payment_date'),
    terminationDate: text('termination_date'),
    finalPaymentRequired: integer('final_payment_required', { mode: 'boolean' }).notNull().default(false),
    /** The agreement at Vipps, once the member accepted (docs/DOMAIN.md: created only then). */
    vippsAgreementId: text('vipps_agreement_id'),
    vippsConfirmationUrl: text('vipps_confirmation_url'),
    pendingSince: text('pending_since'),
    /** Set by the last overdue step (docs/DOMAIN.md "Debt collection"): the association's debt-collection process takes over. */
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
    // The billing run's keyset (next payment date, then id) walks it in order, without a sort.
    index('agreements_status_next').on(t.status, t.nextRegularPaymentDate, t.id),
    uniqueIndex('agreements_vipps_id').on(t.vippsAgreementId),
  ],
)

/** Lines of an agreement; the price of the agreement is their sum. `id` is the client's part id. */
export const agreementParts = sqliteTable(
  'agreement_parts',
  {
    agreementId: text('agreement_id')
      .notNull()
      .references(() => agreements.id, { onDelete: 'cascade' }),
    id: text('id').notNull(),
    position: integer('position').notNull(),
    type: text('type', { enum: partTypes }).notNull(),
    description: text('description').notNull(),
    priceOre: bigInteger('price_ore').notNull(),
    /** Percent: 0 or 25. */
    vatRate: integer('vat_rate').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.agreementId, t.id] })],
)

/** The company addresses an agreement covers; an address in use cannot be deleted (restrict). */
export const agreementAddresses = sqliteTable(
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
  (t) => [primaryKey({ columns: [t.agreementId, t.addressId] }), index('agreement_addresses_address').on(t.addressId)],
)

/**
 * Charges of an agreement (docs/PRODUCT.md §3 "Charge"). `kind` says why it exists: the period's REGULAR
 * charge (billing engine, decision 0029), a ONE_TIME extra charge, or the FINAL payment of a
 * termination. At most one REGULAR charge per (agreement, due date) and one FINAL charge per
 * agreement, enforced by unique indexes, so a re-run never bills twice.
 */
export const charges = sqliteTable(
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
    /** Vipps charge type. */
    type: text('type', { enum: ['RECURRING', 'UNSCHEDULED'] }).notNull(),
    amountOre: bigInteger('amount_ore').notNull(),
    currency: text('currency', { enum: ['DKK'] })
      .notNull()
      .default('DKK'),
    description: text('description').notNull(),
    due: text('due').notNull(),
    status: text('status', { enum: chargeStatuses }).notNull().default('CREATED'),
    vippsChargeId: text('vipps_charge_id'),
    /** What Vipps last said (PENDING, DUE, CHARGED, …). */
    vippsStatus: text('vipps_status'),
    capturedOre: bigInteger('captured_ore').notNull().default(0),
    refundedOre: bigInteger('refunded_ore').notNull().default(0),
    failureReason: text('failure_reason'),
    invoiceId: text('invoice_id'),
    /** Copenhagen date on which the charge was seen FAILED: overdue reminders count from it. */
    failedOn: text('failed_on'),
    /** Overdue steps already taken for this failed charge (reminders, then debt collection). */
    overdueStep: integer('overdue_step').notNull().default(0),
    version: integer('version').notNull().default(1),
    createdAt: text('created_at').notNull(),
    updatedAt: text('updated_at').notNull(),
  },
  (t) => [
    index('charges_agreement').on(t.agreementId, t.due),
    index('charges_status').on(t.status),
    // The overdue job's range (billing.repository.ts overdueCandidates): failed charges by the day they failed.
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

/** A charge's history as Vipps reports it (CREATE, RESERVE, CAPTURE, REFUND, CANCEL, FAIL), each event once. */
export const chargeEvents = sqliteTable(
  'charge_events',
  {
    id: text('id').primaryKey(),
    chargeId: text('charge_id')
      .notNull()
      .references(() => charges.id, { onDelete: 'cascade' }),
    event: text('event').notNull(),
    amountOre: bigInteger('amount_ore').notNull(),
    occurredAt: text('occurred_at').notNull(),
    success: integer('success', { mode: 'boolean' }).notNull().default(true),
    /** Vipps' idempotency key of the event, or ours; identifies it when Vipps repeats the history. */
    eventKey: text('event_key').notNull(),
  },
  (t) => [uniqueIndex('charge_events_charge_key').on(t.chargeId, t.eventKey)],
)

/**
 * Money effects waiting to be sent to the payment provider (docs/API.md "Writes"): recorded in
 * the transaction of the change that causes them, then sent by a worker with the row id as the
 * provider's Idempotency-Key, so a retry after a crash or an outage is applied once.
 */
export const providerOutbox = sqliteTable(
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
    payload: text('payload', { mode: 'json' }).$type<Record<string, unknown>>().notNull(),
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
