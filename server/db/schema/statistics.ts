import { integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core'

/**
 * Charge statistics, pre-aggregated (issue #9): per company, payment day, agreement and printed
 * member address, the øre actually withdrawn per charge category (executed invoices' lines minus
 * executed credit notes' lines; shared/domain/statistics.ts has the rules). Maintained only by
 * SQLite triggers on `invoices` and `invoice_lines` (migration 0007), so every change of an
 * invoice's status or lines updates it in the same transaction, whoever writes it. A
 * WITHOUT ROWID table: the primary key is the scan order of a period's query.
 */
export const chargeStatistics = sqliteTable(
  'charge_statistics',
  {
    companyId: text('company_id').notNull(),
    /** The payment date (Copenhagen), else the issue date. */
    day: text('day').notNull(),
    agreementId: text('agreement_id').notNull(),
    /** The invoice's consumer address, '' when it has none. */
    consumerAddress: text('consumer_address').notNull(),
    hotAndColdWater: integer('hot_and_cold_water').notNull().default(0),
    hotWater: integer('hot_water').notNull().default(0),
    coldWater: integer('cold_water').notNull().default(0),
    heating: integer('heating').notNull().default(0),
    addition: integer('addition').notNull().default(0),
    commonExpenses: integer('common_expenses').notNull().default(0),
    fee: integer('fee').notNull().default(0),
    other: integer('other').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.day, t.agreementId, t.consumerAddress] })],
)
