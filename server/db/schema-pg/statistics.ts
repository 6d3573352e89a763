// The PostgreSQL twin of server/db/schema/statistics.ts: the same tables, columns, indexes and constraints
// (server/db/schema-parity.test.ts); the column types per docs/decisions/0054-postgresql-schema-beside-sqlite.md.
import { bigint, integer, pgTable, primaryKey, text } from 'drizzle-orm/pg-core'

/** The printed address and its øre per charge category: the columns both statistics tables sum. */
const addressSums = () => ({
  /** The invoice's consumer address, '' when it has none. */
  consumerAddress: text('consumer_address').notNull(),
  hotAndColdWater: bigint('hot_and_cold_water', { mode: 'number' }).notNull().default(0),
  hotWater: bigint('hot_water', { mode: 'number' }).notNull().default(0),
  coldWater: bigint('cold_water', { mode: 'number' }).notNull().default(0),
  heating: bigint('heating', { mode: 'number' }).notNull().default(0),
  addition: bigint('addition', { mode: 'number' }).notNull().default(0),
  commonExpenses: bigint('common_expenses', { mode: 'number' }).notNull().default(0),
  fee: bigint('fee', { mode: 'number' }).notNull().default(0),
  other: bigint('other', { mode: 'number' }).notNull().default(0),
})

/**
 * Charge statistics, pre-aggregated (docs/decisions/0032-charge-statistics.md): per company, payment day, agreement and printed
 * member address, the øre actually withdrawn per charge category (executed invoices' lines minus
 * executed credit notes' lines; shared/domain/statistics.ts has the rules). Maintained only by
 * plpgsql triggers on `invoices` and `invoice_lines` (drizzle/pg, the custom migration
 * `statistics_triggers`, the same rules as SQLite's migration 0007), so every change of an
 * invoice's status or lines updates it in the same transaction, whoever writes it.
 */
export const chargeStatistics = pgTable(
  'charge_statistics',
  {
    companyId: text('company_id').notNull(),
    /** The payment date (Copenhagen), else the issue date. */
    day: text('day').notNull(),
    agreementId: text('agreement_id').notNull(),
    ...addressSums(),
  },
  // Named: drizzle's name from the columns is longer than PostgreSQL's 63 bytes and would be cut.
  (t) => [primaryKey({ name: 'charge_statistics_pk', columns: [t.companyId, t.day, t.agreementId, t.consumerAddress] })],
)

/**
 * Running month sums of `charge_statistics` within each calendar year
 * (docs/decisions/0051-statistics-month-sums.md): the row for (company, year, month, address) holds
 * that address's money from 1 January through the end of that month. A run of whole months
 * a..b of one year is then the row at b minus the row at a − 1: one row per address whatever the
 * length of the run, where the day rows have one per charge. A period's partial first and last
 * months come from the day rows. Maintained by triggers on `charge_statistics` (drizzle/pg
 * `statistics_triggers`, as SQLite's migration 0015), so in the same transaction as the day rows;
 * a change in month m updates the rows m..12 of its year. The primary key puts one month's
 * addresses next to each other, in address order (byte order: the database's collation is C).
 */
export const chargeStatisticsMonths = pgTable(
  'charge_statistics_months',
  {
    companyId: text('company_id').notNull(),
    year: integer('year').notNull(),
    /** 1–12: the sums run from 1 January through the end of this month. */
    month: integer('month').notNull(),
    ...addressSums(),
  },
  (t) => [primaryKey({ name: 'charge_statistics_months_pk', columns: [t.companyId, t.year, t.month, t.consumerAddress] })],
)
