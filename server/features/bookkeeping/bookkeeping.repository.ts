import type { Db } from '../../db/client'
import { statement } from '../../db/statement'
import type { PartType } from '../../../shared/domain/agreement-parts'
import type { JournalEvent, VoucherLines } from '../../../shared/domain/bookkeeping'
import { periodSums } from './journal-totals'

/**
 * Reads and writes of bookkeeping (decision 0067), raw statements for both
 * engines (server/db/statement.ts). The journal's events are read set-based from the invoices by
 * two partial indexes (server/db/schema/invoices.ts) — executed documents by payment
 * date, invoices paid outside Vipps by settlement date — a page of vouchers in (date, number,
 * event) keyset order, then the lines of the whole page in one query.
 */

/** The period's events: (id, event, day) of executed documents by payment date and invoices paid outside by settlement date. */
export const periodEvents = `
  SELECT i.id, i.company_id, i.number, i.payment_date AS day, CASE WHEN i.kind = 'CREDIT_NOTE' THEN 'REFUNDED' ELSE 'COLLECTED' END AS event,
         i.consumer_name, i.consumer_address, i.description
  FROM invoices i WHERE i.company_id = @companyId AND i.status = 'EXECUTED' AND i.payment_date BETWEEN @from AND @to
  UNION ALL
  SELECT i.id, i.company_id, i.number, i.settled_on AS day, 'PAID_OUTSIDE' AS event, i.consumer_name, i.consumer_address, i.description
  FROM invoices i WHERE i.company_id = @companyId AND i.settlement = 'PAID_OUTSIDE' AND i.kind = 'INVOICE' AND i.settled_on BETWEEN @from AND @to`

interface EventRow {
  id: string
  number: number
  day: string
  event: JournalEvent
  consumer_name: string
  consumer_address: string | null
  description: string
  exported_at: string | null
}

interface PageParams {
  companyId: string
  from: string
  to: string
  afterDay: string
  afterNumber: number
  afterEvent: string
  limit: number
}

/**
 * A page of one kind of event, in (day, number) order after the key, at most `@limit`: the index
 * walked in order and left as soon as the page is full (`filter` decides which events count, with
 * the export mark `m` joined), so a page costs the same early or late in a year.
 */
const branch = (o: { where: string; day: string; event: string; filter: string; exportedAt: string; marks: (event: string) => string }) => `
  SELECT * FROM (
    SELECT i.id, i.number, i.${o.day} AS day, ${o.event} AS event, i.consumer_name, i.consumer_address, i.description, ${o.exportedAt} AS exported_at
    FROM invoices i ${o.marks(o.event)}
    WHERE i.company_id = @companyId AND ${o.where} AND i.${o.day} BETWEEN @from AND @to
      AND (i.${o.day} > @afterDay OR (i.${o.day} = @afterDay AND (i.number > @afterNumber OR (i.number = @afterNumber AND ${o.event} > @afterEvent))))
      AND ${o.filter}
    ORDER BY i.${o.day}, i.number LIMIT @limit) AS ${o.day === 'payment_date' ? 'executed' : 'outside'}`

/** Both kinds of events merged into one page in (day, number, event) order. */
const pageOf = (filter: string, exportedAt: string, marks: (event: string, on: string) => string) => `
  SELECT e.id, e.number, e.day, e.event, e.consumer_name, e.consumer_address, e.description, e.exported_at FROM (
    ${branch({ where: "i.status = 'EXECUTED'", day: 'payment_date', event: "CASE WHEN i.kind = 'CREDIT_NOTE' THEN 'REFUNDED' ELSE 'COLLECTED' END", filter, exportedAt, marks: (ev) => marks(ev, 'i') })}
    UNION ALL
    ${branch({ where: "i.settlement = 'PAID_OUTSIDE' AND i.kind = 'INVOICE'", day: 'settled_on', event: "'PAID_OUTSIDE'", filter, exportedAt, marks: (ev) => marks(ev, 'i') })}
  ) e ORDER BY e.day, e.number, e.event LIMIT @limit`

/** The export marks of an event in one file format (`alias` the marks' name; the primary key's order). */
const markOf = (alias: string, format: string, event: string, on: string) =>
  `LEFT JOIN bookkeeping_export_marks ${alias} ON ${alias}.company_id = ${on}.company_id AND ${alias}.invoice_id = ${on}.id AND ${alias}.event = ${event} AND ${alias}.format = ${format}`
/** Both formats' marks of an event: `mc` the CSV's, `mx` the xlsx's. */
const bothMarks = (event: string, on: string) => `${markOf('mc', "'CSV'", event, on)} ${markOf('mx', "'XLSX'", event, on)}`
/** The earlier of the two formats' first exports (null when neither exported it). */
const firstExport = 'CASE WHEN mx.exported_at IS NULL OR mc.exported_at <= mx.exported_at THEN mc.exported_at ELSE mx.exported_at END'

/**
 * The screen's page: every event, or (`onlyNew`) those no export of either format has included;
 * `exported_at` the first export's time. The screen page's text (its plan is tested).
 */
export const screenPageSql = pageOf('(@onlyNew = 0 OR (mc.export_id IS NULL AND mx.export_id IS NULL))', firstExport, bothMarks)
const screenPage = statement<PageParams & { onlyNew: number }, EventRow>(screenPageSql)

/**
 * An export's file: the events it included first (`export_id` its id) and, when it was not
 * "only new", those exported before it in the same format (with that earlier time as "exported before").
 */
const filePage = statement<PageParams & { exportId: string; onlyNew: number; exportedAt: string; format: string }, EventRow>(
  pageOf(
    '(m.export_id = @exportId OR (@onlyNew = 0 AND m.exported_at <= @exportedAt))',
    'CASE WHEN m.export_id = @exportId THEN NULL ELSE m.exported_at END',
    (event, on) => markOf('m', '@format', event, on),
  ),
)

interface LineRow {
  invoice_id: string
  type: PartType
  vat_rate: number
  amount: number | string
}
const linesOf = statement<[ids: string], LineRow>(
  (d) =>
    `SELECT l.invoice_id, l.type, l.vat_rate, SUM(l.total_incl_vat_ore) AS amount
     FROM ${d.jsonValues('?', 'v')} ${d.orderedJoin} invoice_lines l ON l.invoice_id = v.value
     GROUP BY l.invoice_id, l.type, l.vat_rate ORDER BY l.invoice_id, MIN(l.position)`,
)

/**
 * The period's events for its counts, from the indexes alone where it can (decision 0071: the
 * executed documents' index holds kind and id), each joined to its export mark.
 */
export const countsSql = `SELECT COUNT(*) AS vouchers,
     SUM(CASE WHEN mc.export_id IS NULL AND mx.export_id IS NULL THEN 1 ELSE 0 END) AS unexported,
     COUNT(*) - COUNT(mc.export_id) AS unexported_csv, COUNT(*) - COUNT(mx.export_id) AS unexported_xlsx FROM (
     SELECT i.company_id, i.id, CASE WHEN i.kind = 'CREDIT_NOTE' THEN 'REFUNDED' ELSE 'COLLECTED' END AS event
     FROM invoices i WHERE i.company_id = @companyId AND i.status = 'EXECUTED' AND i.payment_date BETWEEN @from AND @to
     UNION ALL
     SELECT i.company_id, i.id, 'PAID_OUTSIDE' AS event
     FROM invoices i WHERE i.company_id = @companyId AND i.settlement = 'PAID_OUTSIDE' AND i.kind = 'INVOICE' AND i.settled_on BETWEEN @from AND @to
   ) e ${bothMarks('e.event', 'e')}`
interface CountRow {
  vouchers: number | string
  unexported: number | string | null
  unexported_csv: number | string
  unexported_xlsx: number | string
}
const counts = statement<{ companyId: string; from: string; to: string }, CountRow>(countsSql)

const markNew = statement<{ companyId: string; from: string; to: string; exportId: string; exportedAt: string; format: string }, never>(
  `INSERT INTO bookkeeping_export_marks (company_id, invoice_id, event, format, export_id, exported_at)
   SELECT e.company_id, e.id, e.event, @format, @exportId, @exportedAt FROM (${periodEvents}) e WHERE true
   ON CONFLICT (company_id, invoice_id, event, format) DO NOTHING`,
)

export interface ExportRow {
  id: string
  company_id: string
  from_date: string
  to_date: string
  format: 'CSV' | 'XLSX'
  only_new: number | boolean
  entries: number
  exported_at: string
  exported_by_name: string
  account_plan: string | null
}
const exportById = statement<[id: string], ExportRow>('SELECT * FROM bookkeeping_exports WHERE id = ?')
const insertExport = statement<
  [
    id: string,
    companyId: string,
    from: string,
    to: string,
    format: string,
    onlyNew: number | boolean,
    entries: number,
    at: string,
    userId: string | null,
    name: string,
    plan: string,
  ],
  never
>(
  `INSERT INTO bookkeeping_exports (id, company_id, from_date, to_date, format, only_new, entries, exported_at, exported_by_user_id, exported_by_name, account_plan)
   VALUES (?, ?, ?, ?, ?, ? = 1, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING`,
)
const setEntries = statement<[entries: number, id: string], never>('UPDATE bookkeeping_exports SET entries = ? WHERE id = ?')
const recentExports = statement<[companyId: string, limit: number], ExportRow>(
  'SELECT * FROM bookkeeping_exports WHERE company_id = ? ORDER BY exported_at DESC, id DESC LIMIT ?',
)

const planOf = statement<[companyId: string], { plan: string; version: number; updated_at: string; updated_by_name: string }>(
  'SELECT plan, version, updated_at, updated_by_name FROM bookkeeping_account_plans WHERE company_id = ?',
)
const upsertPlan = statement<[companyId: string, plan: string, version: number, at: string, name: string, expected: number], never>(
  `INSERT INTO bookkeeping_account_plans (company_id, plan, version, updated_at, updated_by_name) VALUES (?, ?, ?, ?, ?)
   ON CONFLICT (company_id) DO UPDATE SET plan = excluded.plan, version = excluded.version, updated_at = excluded.updated_at, updated_by_name = excluded.updated_by_name
   WHERE bookkeeping_account_plans.version = ?`,
)

export interface ClosedMonthRow {
  month: string
  closed_at: string
  closed_by_name: string
  /** The account plan (JSON) in force when it was closed; null: the defaults (decision 0079). */
  account_plan: string | null
}
const closedMonths = statement<[companyId: string], ClosedMonthRow>(
  'SELECT month, closed_at, closed_by_name, account_plan FROM bookkeeping_closed_months WHERE company_id = ? ORDER BY month DESC',
)
/**
 * Closes `month` unless it is in the closed period already (a month the same or later is closed):
 * closing a month closes every month before it (decision 0079), so an older one changes nothing.
 */
const closeMonth = statement<
  [companyId: string, month: string, at: string, userId: string | null, name: string, plan: string, companyId2: string, month2: string],
  never
>(
  `INSERT INTO bookkeeping_closed_months (company_id, month, closed_at, closed_by_user_id, closed_by_name, account_plan)
   SELECT ?, ?, ?, ?, ?, ? WHERE NOT EXISTS (SELECT 1 FROM bookkeeping_closed_months c WHERE c.company_id = ? AND c.month >= ?)
   ON CONFLICT (company_id, month) DO NOTHING`,
)
/** The company's latest closed month: every month up to and including it is closed (decision 0079). */
const latestClosed = statement<[companyId: string], string | null>('SELECT MAX(month) FROM bookkeeping_closed_months WHERE company_id = ?', {
  pluck: true,
})

const n = (v: number | string | null | undefined) => Number(v ?? 0)

export const bookkeepingRepository = {
  /** A page of vouchers with their lines, in (date, number, event) order after the key. */
  async page(
    db: Db,
    p: { companyId: string; from: string; to: string; after: readonly [string, number, string] | undefined; limit: number },
    filter: { onlyNew: boolean } | { exportId: string; onlyNew: boolean; exportedAt: string; format: string },
  ): Promise<VoucherLines[]> {
    // The first page starts from the period's first day, not from '': SQLite takes the key's
    // `day > @afterDay` as the index range's lower bound, so '' walked the company's whole history
    // up to the period (20–30 ms for a month at 200,000 charges, against 0.4 ms for a later page).
    const [afterDay, afterNumber, afterEvent] = p.after && p.after[0] >= p.from ? p.after : [p.from, -1, '']
    const base = { companyId: p.companyId, from: p.from, to: p.to, afterDay, afterNumber, afterEvent, limit: p.limit }
    const rows =
      'exportId' in filter ?
        await filePage.all(db, { ...base, exportId: filter.exportId, onlyNew: filter.onlyNew ? 1 : 0, exportedAt: filter.exportedAt, format: filter.format })
      : await screenPage.all(db, { ...base, onlyNew: filter.onlyNew ? 1 : 0 })
    if (!rows.length) return []
    const lines = new Map<string, VoucherLines['lines'][number][]>()
    for (const l of await linesOf.all(db, [JSON.stringify([...new Set(rows.map((r) => r.id))])])) {
      let list = lines.get(l.invoice_id)
      if (!list) lines.set(l.invoice_id, (list = []))
      list.push({ type: l.type, vatRate: Number(l.vat_rate), amount: n(l.amount) })
    }
    return rows.map((r) => ({
      invoiceId: r.id,
      number: Number(r.number),
      event: r.event,
      date: r.day,
      memberName: r.consumer_name,
      address: r.consumer_address,
      description: r.description,
      exportedAt: r.exported_at,
      lines: lines.get(r.id) ?? [],
    }))
  },
  /** The period's money per event, part type and VAT rate (journal-totals.ts). */
  totals: (db: Db, companyId: string, from: string, to: string) => periodSums(db, companyId, from, to),
  async counts(db: Db, companyId: string, from: string, to: string) {
    const r = await counts.get(db, { companyId, from, to })
    return { vouchers: n(r?.vouchers), unexported: n(r?.unexported), unexportedByFormat: { CSV: n(r?.unexported_csv), XLSX: n(r?.unexported_xlsx) } }
  },
  /** Marks the period's events no export in this format has included as this export's; answers how many. */
  markNew: async (db: Db, companyId: string, from: string, to: string, exportId: string, exportedAt: string, format: string) =>
    (await markNew.run(db, { companyId, from, to, exportId, exportedAt, format })).changes,
  exportById: (db: Db, id: string) => exportById.get(db, [id]),
  /** Inserts the export unless one with its id exists (a retry, or the same request twice at once): answers whether it did. */
  insertExport: async (db: Db, r: Parameters<typeof insertExport.run>[1]) => (await insertExport.run(db, r)).changes === 1,
  setEntries: (db: Db, id: string, entries: number) => setEntries.run(db, [entries, id]),
  recentExports: (db: Db, companyId: string, limit: number) => recentExports.all(db, [companyId, limit]),
  plan: (db: Db, companyId: string) => planOf.get(db, [companyId]),
  /** Writes the plan at `version` if the stored one is still `expected` (1 = none stored): answers whether it did. */
  savePlan: async (db: Db, companyId: string, plan: string, version: number, at: string, name: string, expected: number) =>
    (await upsertPlan.run(db, [companyId, plan, version, at, name, expected])).changes === 1,
  closedMonths: (db: Db, companyId: string) => closedMonths.all(db, [companyId]),
  closeMonth: (db: Db, companyId: string, month: string, at: string, userId: string | null, name: string, plan: string) =>
    closeMonth.run(db, [companyId, month, at, userId, name, plan, companyId, month]),
  /** The company's latest closed month (`YYYY-MM`), if any: the closed period ends with it. */
  latestClosed: async (db: Db, companyId: string): Promise<string | undefined> => (await latestClosed.get(db, [companyId])) ?? undefined,
  /** The first of these months (`YYYY-MM`) that is in the company's closed period, if any. */
  async closedOf(db: Db, companyId: string, months: readonly string[]): Promise<string | undefined> {
    if (!months.length) return undefined
    const latest = await latestClosed.get(db, [companyId])
    return latest ? months.find((m) => m <= latest) : undefined
  },
}
