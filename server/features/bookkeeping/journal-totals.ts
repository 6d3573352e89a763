import type { Db, EngineName } from '../../db/client'
import { statement } from '../../db/statement'
import { partTypes, type PartType } from '../../../shared/domain/agreement-parts'
import type { JournalEvent } from '../../../shared/domain/bookkeeping'
import { spansOf } from '../statistics'

/**
 * A period's money per event, part type and VAT rate: the journal's totals (decision 0071).
 *
 * The charge statistics already hold, per category, the money of executed invoices minus executed
 * credit notes, dated by payment date (else issue date): whole months as running month sums
 * (decision 0051, `charge_statistics_months`, one row per address), a partial first or last month
 * as day rows (`charge_statistics`, about one row per charge, where the lines are three or more).
 * Those sums cannot tell a refund from a charge or a VAT line from a VAT-free one, and leave out
 * invoices paid outside Vipps MobilePay, so the documents they cannot split are read directly,
 * through partial indexes that hold only them:
 *
 * - credit notes and invoices with a VAT line (`invoices.vat_rate`, the highest rate of the lines,
 *   is above 0), executed, by payment date (`invoices_company_executed_split`): their lines exactly;
 * - executed documents without a payment date (`invoices_company_executed_undated`): the
 *   statistics count them on their issue date, the journal not at all;
 * - invoices paid outside, by settlement date (`invoices_company_paid_outside`).
 *
 * What is left of a category is the VAT-free invoices' COLLECTED money (no VAT code): statistics −
 * undated + refunded − collected on invoices with VAT. Exact in øre: integer sums and differences.
 * The cost is a few hundred rows of sums plus the split documents, not every line of the period.
 */

/** The statistics' columns (shared/domain/statistics.ts categories) and the part type each holds. */
const columnOf: Record<PartType, string> = {
  HOT_AND_COLD_WATER: 'hot_and_cold_water',
  HOT_WATER: 'hot_water',
  COLD_WATER: 'cold_water',
  HEAT: 'heating',
  ADDITION: 'addition',
  COMMON_EXPENSES: 'common_expenses',
  FEE: 'fee',
  OTHER: 'other',
}

interface SumRow {
  event: JournalEvent
  type: PartType
  vat_rate: number
  amount: number | string
}
interface Period {
  companyId: string
  from: string
  to: string
}

/**
 * SQLite without ANALYZE statistics would take the wider index of every executed document for the
 * same range (decision 0067's) and read each one; these partial indexes hold only the few wanted.
 * PostgreSQL plans by its statistics.
 */
const sqliteIndex = (engine: EngineName, index: string) => (engine === 'sqlite' ? `INDEXED BY ${index}` : '')

const executedEvent = "CASE WHEN i.kind = 'CREDIT_NOTE' THEN 'REFUNDED' ELSE 'COLLECTED' END"

/** The documents of from..to the month sums cannot split: credit notes and invoices with VAT (executed), and paid outside. */
export const splitSql = (engine: EngineName) => `SELECT ${executedEvent} AS event, l.type, l.vat_rate, SUM(l.total_incl_vat_ore) AS amount
   FROM invoices i ${sqliteIndex(engine, 'invoices_company_executed_split')} JOIN invoice_lines l ON l.invoice_id = i.id
   WHERE i.company_id = @companyId AND i.status = 'EXECUTED' AND (i.kind = 'CREDIT_NOTE' OR i.vat_rate <> 0) AND i.payment_date BETWEEN @from AND @to
   GROUP BY 1, 2, 3
   UNION ALL
   SELECT 'PAID_OUTSIDE' AS event, l.type, l.vat_rate, SUM(l.total_incl_vat_ore) AS amount
   FROM invoices i JOIN invoice_lines l ON l.invoice_id = i.id
   WHERE i.company_id = @companyId AND i.settlement = 'PAID_OUTSIDE' AND i.kind = 'INVOICE' AND i.settled_on BETWEEN @from AND @to
   GROUP BY 2, 3`
const split = statement<Period, SumRow>((d) => splitSql(d.engine))

/** Executed documents of from..to without a payment date (issue date in it): what the statistics hold and the journal does not. */
export const undatedSql = (
  engine: EngineName,
) => `SELECT l.type, SUM(CASE WHEN i.kind = 'CREDIT_NOTE' THEN -l.total_incl_vat_ore ELSE l.total_incl_vat_ore END) AS amount
   FROM invoices i ${sqliteIndex(engine, 'invoices_company_executed_undated')} JOIN invoice_lines l ON l.invoice_id = i.id
   WHERE i.company_id = @companyId AND i.status = 'EXECUTED' AND i.payment_date IS NULL AND i.issue_date BETWEEN @from AND @to
   GROUP BY l.type`
const undated = statement<Period, { type: PartType; amount: number | string }>((d) => undatedSql(d.engine))

const sumsOf = partTypes.map((t) => `SUM(${columnOf[t]}) AS ${columnOf[t]}`).join(', ')

/** The statistics' day rows of the days from..to, all agreements and addresses together (one row; nulls when there are none). */
const daySums = statement<[companyId: string, from: string, to: string], Record<string, number | string | null>>(
  `SELECT ${sumsOf} FROM charge_statistics WHERE company_id = ? AND day BETWEEN ? AND ?`,
)

/** The company's running sums at the end of a month, all addresses together (one row; nulls when it has none). */
const monthEnd = statement<[companyId: string, year: number, month: number], Record<string, number | string | null>>(
  `SELECT ${sumsOf} FROM charge_statistics_months WHERE company_id = ? AND year = ? AND month = ?`,
)

const n = (v: number | string | null | undefined) => Number(v ?? 0)

export interface PeriodSum {
  event: JournalEvent
  type: PartType
  vatRate: number
  amount: number
}

/** The money of the days from..to (both included) per event, part type and VAT rate; only groups that hold money or lines. */
export async function periodSums(db: Db, companyId: string, from: string, to: string): Promise<PeriodSum[]> {
  if (to < from) return [] // the contract refuses it; spansOf would read days outside the period
  const sums = new Map<string, PeriodSum>()
  const add = (event: JournalEvent, type: PartType, vatRate: number, amount: number) => {
    const key = `${event} ${type} ${vatRate}`
    const s = sums.get(key)
    if (s) s.amount += amount
    else sums.set(key, { event, type, vatRate, amount })
  }
  // What the statistics hold per part type: executed invoices minus executed credit notes.
  const rest = new Map<PartType, number>(partTypes.map((t) => [t, 0]))
  const plus = (type: PartType, amount: number) => rest.set(type, rest.get(type)! + amount)
  const spans = spansOf(from, to)
  for (const days of spans.days) {
    const sum = await daySums.get(db, [companyId, days.startDate, days.endDate])
    for (const t of partTypes) plus(t, n(sum?.[columnOf[t]]))
  }
  for (const m of spans.months) {
    const end = await monthEnd.get(db, [companyId, m.year, m.to])
    const before = m.from > 1 ? await monthEnd.get(db, [companyId, m.year, m.from - 1]) : undefined
    for (const t of partTypes) plus(t, n(end?.[columnOf[t]]) - n(before?.[columnOf[t]]))
  }
  const period = { companyId, from, to }
  for (const r of await undated.all(db, period)) plus(r.type, -n(r.amount))
  for (const r of await split.all(db, period)) {
    const amount = n(r.amount)
    add(r.event, r.type, Number(r.vat_rate), amount)
    // Statistics = collected − refunded: a refund is added back, and money collected on invoices with VAT is already counted.
    if (r.event === 'REFUNDED') plus(r.type, amount)
    else if (r.event === 'COLLECTED') plus(r.type, -amount)
  }
  for (const [type, amount] of rest) if (amount !== 0) add('COLLECTED', type, 0, amount)
  return [...sums.values()]
}
