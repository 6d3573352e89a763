// GENERATED from server/db/schema/bookkeeping.ts by scripts/generate-pg-schema.ts (npm run db:generate:pg-schema,
// which npm run db:generate runs first): do not edit. Change the SQLite table and run npm run db:generate
// (docs/decisions/0074-one-definition-per-table-and-query.md).
import { boolean, index, integer, pgTable, primaryKey, text } from 'drizzle-orm/pg-core'

export const bookkeepingAccountPlans = pgTable('bookkeeping_account_plans', {
  companyId: text('company_id').primaryKey(),
  plan: text('plan').notNull(),
  version: integer('version').notNull(),
  updatedAt: text('updated_at').notNull(),
  updatedByName: text('updated_by_name').notNull(),
})

export const bookkeepingClosedMonths = pgTable(
  'bookkeeping_closed_months',
  {
    companyId: text('company_id').notNull(),
    month: text('month').notNull(),
    closedAt: text('closed_at').notNull(),
    closedByUserId: text('closed_by_user_id'),
    closedByName: text('closed_by_name').notNull(),
    accountPlan: text('account_plan'),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.month] })],
)

export const bookkeepingExports = pgTable(
  'bookkeeping_exports',
  {
    id: text('id').primaryKey(),
    companyId: text('company_id').notNull(),
    fromDate: text('from_date').notNull(),
    toDate: text('to_date').notNull(),
    format: text('format', { enum: ['CSV', 'XLSX'] }).notNull(),
    onlyNew: boolean('only_new').notNull(),
    entries: integer('entries').notNull(),
    exportedAt: text('exported_at').notNull(),
    exportedByUserId: text('exported_by_user_id'),
    exportedByName: text('exported_by_name').notNull(),
    accountPlan: text('account_plan'),
  },
  (t) => [index('bookkeeping_exports_company').on(t.companyId, t.exportedAt, t.id)],
)

export const bookkeepingExportMarks = pgTable(
  'bookkeeping_export_marks',
  {
    companyId: text('company_id').notNull(),
    invoiceId: text('invoice_id').notNull(),
    event: text('event', { enum: ['COLLECTED', 'REFUNDED', 'PAID_OUTSIDE'] }).notNull(),
    format: text('format', { enum: ['CSV', 'XLSX'] })
      .notNull()
      .default('CSV'),
    exportId: text('export_id').notNull(),
    exportedAt: text('exported_at').notNull(),
  },
  (t) => [index('bookkeeping_export_marks_export').on(t.exportId), primaryKey({ columns: [t.companyId, t.invoiceId, t.event, t.format] })],
)
