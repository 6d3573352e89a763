import type Database from 'better-sqlite3'
import type { AddressAmounts } from '../../../shared/domain/statistics'

/**
 * Queries of the charge statistics over `charge_statistics` (server/db/schema/statistics.ts),
 * prepared once per connection. The table's primary key starts (company_id, day), so a period is
 * one range scan; SQLite sums per address and the shared domain module builds the table.
 */
interface SumRow {
  consumer_address: string
  hot_and_cold_water: number
  hot_water: number
  cold_water: number
  heating: number
  addition: number
  common_expenses: number
  fee: number
  other: number
}

const sums = `consumer_address, SUM(hot_and_cold_water) AS hot_and_cold_water, SUM(hot_water) AS hot_water, SUM(cold_water) AS cold_water, SUM(heating) AS heating,
  SUM(addition) AS addition, SUM(common_expenses) AS common_expenses, SUM(fee) AS fee, SUM(other) AS other`

const toAmounts = (r: SumRow): AddressAmounts => ({
  consumerAddress: r.consumer_address,
  parts: {
    'hot-and-cold-water': r.hot_and_cold_water,
    'hot-water': r.hot_water,
    'cold-water': r.cold_water,
    heating: r.heating,
    addition: r.addition,
    'common-expenses': r.common_expenses,
    fee: r.fee,
    other: r.other,
  },
})

const cache = new WeakMap<Database.Database, ReturnType<typeof prepare>>()

export function statisticsStatements(sqlite: Database.Database) {
  let s = cache.get(sqlite)
  if (!s) cache.set(sqlite, (s = prepare(sqlite)))
  return s
}

function prepare(sqlite: Database.Database) {
  const all = sqlite.prepare<[string, string, string], SumRow>(
    `SELECT ${sums} FROM charge_statistics WHERE company_id = ? AND day BETWEEN ? AND ? GROUP BY consumer_address`,
  )
  const one = sqlite.prepare<[string, string, string, string], SumRow>(
    `SELECT ${sums} FROM charge_statistics WHERE company_id = ? AND day BETWEEN ? AND ? AND agreement_id = ? GROUP BY consumer_address`,
  )
  const company = sqlite.prepare<[string], { heating_water_period_start_date: string | null; heating_water_period_end_date: string | null }>(
    'SELECT heating_water_period_start_date, heating_water_period_end_date FROM companies WHERE id = ?',
  )
  const agreements = sqlite.prepare<[string], { id: string; external_seq: number }>(
    'SELECT id, external_seq FROM agreements WHERE company_id = ? ORDER BY external_seq',
  )
  return {
    /** Sums per printed address of the company's withdrawn money between two days (both included). */
    sums: (companyId: string, startDate: string, endDate: string, agreementId?: string): AddressAmounts[] =>
      (agreementId ? one.all(companyId, startDate, endDate, agreementId) : all.all(companyId, startDate, endDate)).map(toAmounts),
    company(companyId: string) {
      const c = company.get(companyId)
      return c && { heatingWaterPeriodStartDate: c.heating_water_period_start_date, heatingWaterPeriodEndDate: c.heating_water_period_end_date }
    },
    agreements: (companyId: string) => agreements.all(companyId).map((a) => ({ id: a.id, externalId: String(a.external_seq) })),
  }
}
