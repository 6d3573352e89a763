// GENERATED from server/db/schema/lending.ts by scripts/generate-pg-schema.ts (npm run db:generate:pg-schema,
// which npm run db:generate runs first): do not edit. Change the SQLite table and run npm run db:generate
// (docs/decisions/0074-one-definition-per-table-and-query.md).
import { index, integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core'
import { companies } from './companies'
import { users } from './users'

export const lendingItems = pgTable(
  'lending_items',
  {
    id: text('id').primaryKey(),
    companyId: text('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    lenderKind: text('lender_kind', { enum: ['MEMBER', 'ASSOCIATION'] }).notNull(),
    lenderUserId: text('lender_user_id').references(() => users.id, { onDelete: 'set null' }),
    lenderName: text('lender_name').notNull(),
    title: text('title').notNull(),
    description: text('description').notNull().default(''),
    rules: text('rules').notNull().default(''),
    location: text('location').notNull().default(''),
    depositOre: integer('deposit_ore'),
    photoId: text('photo_id'),
    photoContentType: text('photo_content_type'),
    photoSize: integer('photo_size'),
    archivedAt: text('archived_at'),
    version: integer('version').notNull().default(1),
    createdAt: text('created_at').notNull(),
    updatedAt: text('updated_at').notNull(),
  },
  (t) => [index('lending_items_company_created').on(t.companyId, t.createdAt, t.id), index('lending_items_lender').on(t.lenderUserId)],
)

export const loans = pgTable(
  'loans',
  {
    id: text('id').primaryKey(),
    companyId: text('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    itemId: text('item_id')
      .notNull()
      .references(() => lendingItems.id, { onDelete: 'restrict' }),
    borrowerUserId: text('borrower_user_id').references(() => users.id, { onDelete: 'set null' }),
    borrowerName: text('borrower_name').notNull(),
    lenderUserId: text('lender_user_id').references(() => users.id, { onDelete: 'set null' }),
    fromDate: text('from_date').notNull(),
    toDate: text('to_date').notNull(),
    message: text('message').notNull().default(''),
    status: text('status', { enum: ['REQUESTED', 'ACCEPTED', 'DECLINED', 'CANCELLED', 'CONFIRMED', 'HANDED_OVER', 'RETURNED'] }).notNull(),
    conditionOut: text('condition_out').notNull().default(''),
    handoverCondition: text('handover_condition'),
    conditionBack: text('condition_back'),
    depositOre: integer('deposit_ore'),
    lenderConfirmedAt: text('lender_confirmed_at'),
    lenderConfirmedBy: text('lender_confirmed_by'),
    borrowerConfirmedAt: text('borrower_confirmed_at'),
    handedOverAt: text('handed_over_at'),
    returnedAt: text('returned_at'),
    depositChargeId: text('deposit_charge_id'),
    depositRefundId: text('deposit_refund_id'),
    damageNote: text('damage_note'),
    version: integer('version').notNull().default(1),
    createdAt: text('created_at').notNull(),
    updatedAt: text('updated_at').notNull(),
  },
  (t) => [
    index('loans_item_dates').on(t.itemId, t.fromDate),
    index('loans_borrower').on(t.borrowerUserId, t.createdAt, t.id),
    index('loans_lender').on(t.lenderUserId, t.createdAt, t.id),
    index('loans_company').on(t.companyId, t.id),
    index('loans_deposit_open').on(t.depositRefundId, t.depositChargeId),
  ],
)

export const loanReminders = pgTable(
  'loan_reminders',
  {
    id: text('id').primaryKey(),
    loanId: text('loan_id')
      .notNull()
      .references(() => loans.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['DAY_BEFORE', 'RETURN_DAY', 'OVERDUE'] }).notNull(),
    dueAt: text('due_at').notNull(),
    sentAt: text('sent_at'),
    createdAt: text('created_at').notNull(),
  },
  (t) => [uniqueIndex('loan_reminders_loan_kind').on(t.loanId, t.kind), index('loan_reminders_due').on(t.sentAt, t.dueAt)],
)
