import type { Db } from '../../db/client'
import { statement } from '../../db/statement'
import type { InvoiceStatus } from '../../../shared/domain/invoice'

/**
 * The debtor overview's queries (docs/decisions/0042-unpaid-stays-visible.md): a company's unpaid invoices — the same rule as
 * `isUnpaid` in shared/domain/invoice.ts, as SQL — one page at a time by (due date, id), with
 * everything a row shows read in the same statement (no query per row). The partial index
 * `invoices_company_open_due` holds exactly the candidate rows.
 */
export interface DebtorRow {
  id: string
  number: number
  name: string
  agreement_id: string
  external_seq: number | null
  member_user_id: string
  consumer_name: string
  consumer_address: string | null
  due_date: string
  status: InvoiceStatus
  total_ore: number
  credited_ore: number
  overdue_step: number | null
  agreement_status: string | null
  vipps_agreement_id: string | null
  debt_collection_since: string | null
  retry_pending: number
}

// `CAST(… AS TEXT)`: PostgreSQL cannot tell a parameter's type from `IS NULL` alone.
const UNPAID = `i.company_id = @companyId AND i.kind = 'INVOICE' AND i.settlement IS NULL AND i.status IN ('CREATED', 'RESERVED', 'FAILED')
  AND (i.status = 'FAILED' OR i.due_date < @today)
  AND (CAST(@agreementId AS TEXT) IS NULL OR i.agreement_id = @agreementId)`

const CREDITED = `COALESCE((SELECT SUM(cn.total_ore) FROM invoices cn WHERE cn.credited_invoice_id = i.id AND cn.kind = 'CREDIT_NOTE'), 0)`

// A type, not an interface: named parameters are a record (`Params`).
type PageParams = {
  companyId: string
  today: string
  agreementId: string | null
  afterDue: string
  afterId: string
  limit: number
}

type TotalsParams = Omit<PageParams, 'afterDue' | 'afterId' | 'limit'>

// retry_pending as 1/0 on both engines (EXISTS is a boolean on PostgreSQL).
const page = statement<PageParams, DebtorRow>(
  `SELECT i.id, i.number, i.description AS name, i.agreement_id, a.external_seq, i.member_user_id, i.consumer_name, i.consumer_address,
          i.due_date, i.status, i.total_ore, ${CREDITED} AS credited_ore,
          c.overdue_step, a.status AS agreement_status, a.vipps_agreement_id, a.debt_collection_since,
          CASE WHEN EXISTS (SELECT 1 FROM charges r WHERE r.agreement_id = i.agreement_id AND r.invoice_id = i.id AND r.id <> i.charge_id
                  AND r.status IN ('CREATED', 'RESERVED')) THEN 1 ELSE 0 END AS retry_pending
   FROM invoices i
   LEFT JOIN charges c ON c.id = i.charge_id
   LEFT JOIN agreements a ON a.id = i.agreement_id
   WHERE ${UNPAID} AND (i.due_date > @afterDue OR (i.due_date = @afterDue AND i.id > @afterId))
   ORDER BY i.due_date, i.id
   LIMIT @limit`,
)
const totals = statement<TotalsParams, { count: number; amount: number | null }>(
  (d) => `SELECT COUNT(*) AS count, SUM(${d.greatest('0', `i.total_ore - ${CREDITED}`)}) AS amount FROM invoices i WHERE ${UNPAID}`,
)

export const debtorsRepository = {
  /** Unpaid invoices after (afterDue, afterId), oldest due date first. */
  page: (db: Db, p: PageParams): Promise<DebtorRow[]> => page.all(db, p),
  async totals(db: Db, p: TotalsParams) {
    const t = (await totals.get(db, p))!
    return { count: t.count, amount: t.amount ?? 0 }
  },
}
