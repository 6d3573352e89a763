// GENERATED from server/db/schema/statistics.ts by scripts/generate-pg-schema.ts (npm run db:generate:pg-schema,
// which npm run db:generate runs first): do not edit. Change the SQLite table and run npm run db:generate
// (docs/decisions/0074-one-definition-per-table-and-query.md).
import { bigint, integer, pgTable, primaryKey, text } from 'drizzle-orm/pg-core'

export const chargeStatistics = pgTable(
  'charge_statistics',
  {
    companyId: text('company_id').notNull(),
    day: text('day').notNull(),
    agreementId: text('agreement_id').notNull(),
    consumerAddress: text('consumer_address').notNull(),
    hotAndColdWater: bigint('hot_and_cold_water', { mode: 'number' }).notNull().default(0),
    hotWater: bigint('hot_water', { mode: 'number' }).notNull().default(0),
    coldWater: bigint('cold_water', { mode: 'number' }).notNull().default(0),
    heating: bigint('heating', { mode: 'number' }).notNull().default(0),
    addition: bigint('addition', { mode: 'number' }).notNull().default(0),
    commonExpenses: bigint('common_expenses', { mode: 'number' }).notNull().default(0),
    fee: bigint('fee', { mode: 'number' }).notNull().default(0),
    other: bigint('other', { mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ name: 'charge_statistics_pk', columns: [t.companyId, t.day, t.agreementId, t.consumerAddress] })],
)

export const chargeStatisticsMonths = pgTable(
  'charge_statistics_months',
  {
    companyId: text('company_id').notNull(),
    year: integer('year').notNull(),
    month: integer('month').notNull(),
    consumerAddress: text('consumer_address').notNull(),
    hotAndColdWater: bigint('hot_and_cold_water', { mode: 'number' }).notNull().default(0),
    hotWater: bigint('hot_water', { mode: 'number' }).notNull().default(0),
    coldWater: bigint('cold_water', { mode: 'number' }).notNull().default(0),
    heating: bigint('heating', { mode: 'number' }).notNull().default(0),
    addition: bigint('addition', { mode: 'number' }).notNull().default(0),
    commonExpenses: bigint('common_expenses', { mode: 'number' }).notNull().default(0),
    fee: bigint('fee', { mode: 'number' }).notNull().default(0),
    other: bigint('other', { mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ name: 'charge_statistics_months_pk', columns: [t.companyId, t.year, t.month, t.consumerAddress] })],
)
