import type { Db } from '../../db/client'
import { statement, type Dialect } from '../../db/statement'
import type { AddressSums } from '../../../shared/domain/statistics'
import { spansOf } from './statistics-spans'

/**
 * Queries of the charge statistics (server/db/schema/statistics.ts), raw statements for both
 * engines (server/db/statement.ts); the shared domain module builds the table from the partial
 * sums they return. A company's period is its whole months from the running month sums of
 * `charge_statistics_months` (one row per address for each run of months within a year, read in
 * key order: on SQLite with no sort, on PostgreSQL ordered in the aggregate) plus the days of a
 * partial first or last month from the day rows of `charge_statistics`
 * (docs/decisions/0051-statistics-month-sums.md). One agreement's period is read from the day rows
 * alone: the month sums are per address, not per agreement.
 *
 * Each query hands its rows over as one JSON text of arrays ([address, amounts in
 * `statisticsCategories` order]) built by the database: at tens of thousands of addresses, making
 * a JavaScript value of every column costs several times what the scan does, and JSON.parse does
 * not. The rows come in address order (byte order on both engines); `statisticsJson` sorts them
 * for the answer whatever their order, so the order only keeps the sort cheap and the reads alike.
 */
const columns = ['hot_and_cold_water', 'hot_water', 'cold_water', 'heating', 'addition', 'common_expenses', 'fee', 'other'] as const
const summed = columns.map((c) => `SUM(${c}) AS ${c}`).join(', ')
/** The rows' arrays in address order: SQLite reads them in that order already (a GROUP BY's or the key's). */
const asJson = (d: Dialect, alias: string, amounts: readonly string[]) =>
  d.jsonArraysInOrder([`${alias}consumer_address`, ...amounts], `${alias}consumer_address`)

const json = <P extends readonly unknown[]>(text: (d: Dialect) => string) => {
  const s = statement<P, string>(text, { pluck: true })
  return async (db: Db, params: P) => JSON.parse((await s.get(db, params))!) as AddressSums[]
}

const days = json<[companyId: string, startDate: string, endDate: string]>(
  (d) =>
    `SELECT ${asJson(d, '', columns)} FROM (SELECT consumer_address, ${summed} FROM charge_statistics WHERE company_id = ? AND day BETWEEN ? AND ? GROUP BY consumer_address) s`,
)
const agreementDays = json<[companyId: string, startDate: string, endDate: string, agreementId: string]>(
  (d) =>
    `SELECT ${asJson(d, '', columns)} FROM (SELECT consumer_address, ${summed} FROM charge_statistics WHERE company_id = ? AND day BETWEEN ? AND ? AND agreement_id = ? GROUP BY consumer_address) s`,
)
// Months 1..m of a year: the running sums at m. Months a..b (a > 1): the sums at b minus those at
// a − 1, joined by key in the database, so a run is one part of one row per address either way (no
// second read to parse and merge). An address with a row at a − 1 has one at every later month
// of that year: the triggers add rows m..12 together and never delete one (the month-sums
// property test checks it), so the LEFT JOIN from b misses none.
const through = json<[companyId: string, year: number, month: number]>(
  (d) => `SELECT ${asJson(d, '', columns)} FROM charge_statistics_months WHERE company_id = ? AND year = ? AND month = ?`,
)
const between = json<[before: number, companyId: string, year: number, month: number]>(
  (d) =>
    `SELECT ${asJson(
      d,
      'b.',
      columns.map((c) => `b.${c} - coalesce(a.${c}, 0)`),
    )} FROM charge_statistics_months b LEFT JOIN charge_statistics_months a ON a.company_id = b.company_id AND a.year = b.year AND a.month = ? AND a.consumer_address = b.consumer_address WHERE b.company_id = ? AND b.year = ? AND b.month = ?`,
)
const company = statement<[companyId: string], { heating_water_period_start_date: string | null; heating_water_period_end_date: string | null }>(
  'SELECT heating_water_period_start_date, heating_water_period_end_date FROM companies WHERE id = ?',
)
// The agreements as the answer writes them ({"id", "externalId"}, compact, as JSON.stringify
// does), built by the database. ORDER BY external_seq is the order of `sortAgreementsByExternalId`
// (shared/domain/statistics.ts): the sequence is a positive integer unique in the company
// (agreements_company_seq; the next one is the largest + 1, from 1001), so its digits are the
// number itself and no two are equal. PostgreSQL's json_build_object and json_agg put spaces
// between members and elements, so its text is written with string_agg (to_json escapes the id).
const agreements = statement<[companyId: string], string>(
  (d) =>
    d.engine === 'postgres' ?
      `SELECT coalesce('[' || string_agg('{"id":' || to_json(id)::text || ',"externalId":"' || CAST(external_seq AS TEXT) || '"}', ',' ORDER BY external_seq) || ']', '[]')
       FROM agreements WHERE company_id = ?`
    : `SELECT json_group_array(json_object('id', id, 'externalId', CAST(external_seq AS TEXT))) FROM (SELECT id, external_seq FROM agreements WHERE company_id = ? ORDER BY external_seq) s`,
  { pluck: true },
)

export const statisticsRepository = {
  /**
   * Partial sums per printed address of the company's withdrawn money between two days (both
   * included), in parts to be added up (`statisticsJson`); within a part an address appears once.
   * Read them in one snapshot (`snapshot(db, …)`) so that the parts are of one moment.
   */
  async sums(db: Db, companyId: string, startDate: string, endDate: string, agreementId?: string): Promise<AddressSums[][]> {
    if (agreementId) return [await agreementDays(db, [companyId, startDate, endDate, agreementId])]
    const spans = spansOf(startDate, endDate)
    const parts: AddressSums[][] = []
    for (const m of spans.months) parts.push(await (m.from > 1 ? between(db, [m.from - 1, companyId, m.year, m.to]) : through(db, [companyId, m.year, m.to])))
    for (const d of spans.days) parts.push(await days(db, [companyId, d.startDate, d.endDate]))
    return parts
  },
  /** The same sums from the day rows alone (what the month sums must equal; the tests' reference). */
  daySums: (db: Db, companyId: string, startDate: string, endDate: string): Promise<AddressSums[]> => days(db, [companyId, startDate, endDate]),
  async company(db: Db, companyId: string) {
    const c = await company.get(db, [companyId])
    return c && { heatingWaterPeriodStartDate: c.heating_water_period_start_date, heatingWaterPeriodEndDate: c.heating_water_period_end_date }
  },
  /** The company's agreements for the filter, as the JSON text of the answer's `agreements`. */
  agreementsJson: async (db: Db, companyId: string): Promise<string> => (await agreements.get(db, [companyId]))!,
}
