import type Database from 'better-sqlite3'
import type { AddressSums } from '../../../shared/domain/statistics'
import { spansOf } from './statistics-spans'

/**
 * Queries of the charge statistics (server/db/schema/statistics.ts), prepared once per
 * connection; the shared domain module builds the table from the partial sums they return.
 * A company's period is its whole months from the running month sums of `charge_statistics_months`
 * (one row per address for each run of months within a year, read in key order with no sort) plus
 * the days of a partial first or last month from the day rows of `charge_statistics`
 * (docs/decisions/0051-statistics-month-sums.md). One agreement's period is read from the day rows
 * alone: the month sums are per address, not per agreement.
 *
 * Each query hands its rows over as one JSON text of arrays ([address, amounts in
 * `statisticsCategories` order]) built by SQLite: at tens of thousands of addresses, making a
 * JavaScript value of every column costs several times what the scan does, and JSON.parse does not.
 */
const columns = ['hot_and_cold_water', 'hot_water', 'cold_water', 'heating', 'addition', 'common_expenses', 'fee', 'other'] as const
const asJson = (alias: string, amounts: readonly string[]) => `json_group_array(json_array(${alias}consumer_address, ${amounts.join(', ')}))`
const summed = columns.map((c) => `SUM(${c}) AS ${c}`).join(', ')

const cache = new WeakMap<Database.Database, ReturnType<typeof prepare>>()

export function statisticsStatements(sqlite: Database.Database) {
  let s = cache.get(sqlite)
  if (!s) cache.set(sqlite, (s = prepare(sqlite)))
  return s
}

function prepare(sqlite: Database.Database) {
  const json = <P extends unknown[], R = AddressSums>(sql: string) => {
    const statement = sqlite.prepare<P, string>(sql).pluck()
    return (...params: P) => JSON.parse(statement.get(...params)!) as R[]
  }
  const days = json<[string, string, string]>(
    `SELECT ${asJson('', columns)} FROM (SELECT consumer_address, ${summed} FROM charge_statistics WHERE company_id = ? AND day BETWEEN ? AND ? GROUP BY consumer_address)`,
  )
  const agreementDays = json<[string, string, string, string]>(
    `SELECT ${asJson('', columns)} FROM (SELECT consumer_address, ${summed} FROM charge_statistics WHERE company_id = ? AND day BETWEEN ? AND ? AND agreement_id = ? GROUP BY consumer_address)`,
  )
  // Months 1..m of a year: the running sums at m. Months a..b (a > 1): the sums at b minus those at
  // a − 1, joined by key in SQLite, so a run is one part of one row per address either way (no
  // second read to parse and merge). An address with a row at a − 1 has one at every later month
  // of that year: the triggers add rows m..12 together and never delete one (the month-sums
  // property test checks it), so the LEFT JOIN from b misses none.
  const through = json<[string, number, number]>(`SELECT ${asJson('', columns)} FROM charge_statistics_months WHERE company_id = ? AND year = ? AND month = ?`)
  const between = json<[before: number, companyId: string, year: number, month: number]>(
    `SELECT ${asJson(
      'b.',
      columns.map((c) => `b.${c} - ifnull(a.${c}, 0)`),
    )} FROM charge_statistics_months b LEFT JOIN charge_statistics_months a ON a.company_id = b.company_id AND a.year = b.year AND a.month = ? AND a.consumer_address = b.consumer_address WHERE b.company_id = ? AND b.year = ? AND b.month = ?`,
  )
  const company = sqlite.prepare<[string], { heating_water_period_start_date: string | null; heating_water_period_end_date: string | null }>(
    'SELECT heating_water_period_start_date, heating_water_period_end_date FROM companies WHERE id = ?',
  )
  // The agreements as the answer writes them ({"id", "externalId"}), built by SQLite. ORDER BY
  // external_seq is the order of `sortAgreementsByExternalId` (shared/domain/statistics.ts): the
  // sequence is a positive integer unique in the company (agreements_company_seq; the next one is
  // the largest + 1, from 1001), so its digits are the number itself and no two are equal.
  const agreements = sqlite
    .prepare<[string], string>(
      `SELECT json_group_array(json_object('id', id, 'externalId', CAST(external_seq AS TEXT))) FROM (SELECT id, external_seq FROM agreements WHERE company_id = ? ORDER BY external_seq)`,
    )
    .pluck()
  return {
    /**
     * Partial sums per printed address of the company's withdrawn money between two days (both
     * included), in parts to be added up (`statisticsJson`); within a part an address appears once.
     */
    sums(companyId: string, startDate: string, endDate: string, agreementId?: string): AddressSums[][] {
      if (agreementId) return [agreementDays(companyId, startDate, endDate, agreementId)]
      const spans = spansOf(startDate, endDate)
      const parts: AddressSums[][] = []
      for (const m of spans.months) parts.push(m.from > 1 ? between(m.from - 1, companyId, m.year, m.to) : through(companyId, m.year, m.to))
      for (const d of spans.days) parts.push(days(companyId, d.startDate, d.endDate))
      return parts
    },
    /** The same sums from the day rows alone (what the month sums must equal; the tests' reference). */
    daySums: (companyId: string, startDate: string, endDate: string): AddressSums[] => days(companyId, startDate, endDate),
    company(companyId: string) {
      const c = company.get(companyId)
      return c && { heatingWaterPeriodStartDate: c.heating_water_period_start_date, heatingWaterPeriodEndDate: c.heating_water_period_end_date }
    },
    /** The company's agreements for the filter, as the JSON text of the answer's `agreements`. */
    agreementsJson: (companyId: string): string => agreements.get(companyId)!,
  }
}
