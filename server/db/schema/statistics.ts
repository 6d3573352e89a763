import { integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core'
import { bigInteger } from '../columns'

/** The printed address and its øre per charge category: the columns both statistics tables sum. */
const addressSums = () => ({
  /** The invoice's consumer address, '' when it has none. */
  consumerAddress: text('consumer_address').notNull(),
  hotAndColdWater: bigInteger('hot_and_cold_water').notNull().default(0),
  hotWater: bigInteger('hot_water').notNull().default(0),
  coldWater: bigInteger('cold_water').notNull().default(0),
  heating: bigInteger('heating').notNull().default(0),
  addition: bigInteger('addition').notNull().default(0),
  commonExpenses: bigInteger('common_expenses').notNull().default(0),
  fee: bigInteger('fee').notNull().default(0),
  other: bigInteger('other').notNull().default(0),
})

/**
 * Charge statistics, pre-aggregated (docs/decisions/0032-charge-statistics.md): per company, payment day, agreement and printed
 * member address, the øre actually withdrawn per charge category (executed invoices' lines minus
 * executed credit notes' lines; shared/domain/statistics.ts has the rules). Maintained only by
 * SQLite triggers on `invoices` and `invoice_lines` (migration 0007; on PostgreSQL their plpgsql
 * twins, drizzle/pg/0002_statistics_triggers.sql), so every change of an invoice's status or lines
 * updates it in the same transaction, whoever writes it. A WITHOUT ROWID table: the primary key is
 * the scan order of a period's query (on PostgreSQL a heap and its primary-key index, named
 * `charge_statistics_pk` there: scripts/generate-pg-schema.ts).
 */
export const chargeStatistics = sqliteTable(
  'charge_statistics',
  {
    companyId: text('company_id').notNull(),
    /** The payment date (Copenhagen), else the issue date. */
    day: text('day').notNull(),
    agreementId: text('agreement_id').notNull(),
    ...addressSums(),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.day, t.agreementId, t.consumerAddress] })],
)

/**
 * Running month sums of `charge_statistics` within each calendar year
 * (docs/decisions/0051-statistics-month-sums.md): the row for (company, year, month, address) holds
 * that address's money from 1 January through the end of that month. A run of whole months
 * a..b of one year is then the row at b minus the row at a − 1: one row per address whatever the
 * length of the run, where the day rows have one per charge. A period's partial first and last
 * months come from the day rows. Maintained by triggers on `charge_statistics` (migration 0015),
 * so in the same transaction as the day rows; a change in month m updates the rows m..12 of its
 * year. The day rows must only ever be written by upsert or DELETE: `INSERT OR REPLACE` would
 * delete without firing the delete trigger (SQLite's default, recursive_triggers off). The primary key puts one month's addresses next to each other, in address order
 * (byte order on PostgreSQL too: its database's collation is C). On PostgreSQL the triggers are
 * drizzle/pg's `statistics_triggers`, with the same rules and names.
 */
export const chargeStatisticsMonths = sqliteTable(
  'charge_statistics_months',
  {
    companyId: text('company_id').notNull(),
    year: integer('year').notNull(),
    /** 1–12: the sums run from 1 January through the end of this month. */
    month: integer('month').notNull(),
    ...addressSums(),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.year, t.month, t.consumerAddress] })],
)
