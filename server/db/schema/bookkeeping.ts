import { index, integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core'

/**
 * Bookkeeping (docs/BOOKKEEPING.md, decision 0067). Bookkeeping records (kept
 * 5 years, as the invoices): no foreign keys that could cascade a delete from companies or users;
 * names are copied onto the rows.
 *
 * The account plan of a company: which ledger account and VAT code each part type, refunds, Vipps
 * MobilePay fees and the contra accounts use (shared/domain/bookkeeping.ts `AccountPlan`, stored as
 * JSON). No row means the defaults (filled in on read, so nothing seeded can go missing); the first
 * change writes the row at version 2 (the defaults are version 1).
 */
export const bookkeepingAccountPlans = sqliteTable('bookkeeping_account_plans', {
  companyId: text('company_id').primaryKey(),
  plan: text('plan').notNull(),
  version: integer('version').notNull(),
  updatedAt: text('updated_at').notNull(),
  updatedByName: text('updated_by_name').notNull(),
})

/**
 * Closed months: once a month (`YYYY-MM`, Copenhagen) is closed, invoices, credit notes and payments
 * dated in it cannot change (the billing services answer 409; triggers of migration
 * `bookkeeping_closed_periods` refuse it in the database). Never reopened.
 */
export const bookkeepingClosedMonths = sqliteTable(
  'bookkeeping_closed_months',
  {
    companyId: text('company_id').notNull(),
    month: text('month').notNull(),
    closedAt: text('closed_at').notNull(),
    closedByUserId: text('closed_by_user_id'),
    closedByName: text('closed_by_name').notNull(),
    /**
     * The account plan (JSON) in force when the month was closed: the month and every month before it that this
     * close closed are shown and exported with it, whatever the plan is later (docs/BOOKKEEPING.md "Closed months").
     * Null only on a month closed before the column existed while the company had no plan of its own: the defaults.
     */
    accountPlan: text('account_plan'),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.month] })],
)

/** An export of a journal (CSV or xlsx): the period, who and when. A client-made id makes a retried export the same file. */
export const bookkeepingExports = sqliteTable(
  'bookkeeping_exports',
  {
    id: text('id').primaryKey(),
    companyId: text('company_id').notNull(),
    fromDate: text('from_date').notNull(),
    toDate: text('to_date').notNull(),
    format: text('format', { enum: ['CSV', 'XLSX'] }).notNull(),
    onlyNew: integer('only_new', { mode: 'boolean' }).notNull(),
    entries: integer('entries').notNull(),
    exportedAt: text('exported_at').notNull(),
    exportedByUserId: text('exported_by_user_id'),
    exportedByName: text('exported_by_name').notNull(),
    /** The account plan (JSON) the export was made with: every download of it is the same file, whatever the plan is later. */
    accountPlan: text('account_plan'),
  },
  (t) => [index('bookkeeping_exports_company').on(t.companyId, t.exportedAt, t.id)],
)

/**
 * Which journal events were exported, and first by which export: one row per voucher (invoice or
 * credit note), event (`COLLECTED`, `REFUNDED`, `PAID_OUTSIDE`) and file format, so "only new" of
 * the CSV and of the xlsx each hold every entry once (docs/BOOKKEEPING.md "The files"). Never
 * overwritten, so "exported before" always names the first export in that format.
 */
export const bookkeepingExportMarks = sqliteTable(
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
  (t) => [primaryKey({ columns: [t.companyId, t.invoiceId, t.event, t.format] }), index('bookkeeping_export_marks_export').on(t.exportId)],
)
