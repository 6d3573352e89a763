import { engineOf, type Db } from '../../db/client'
import { statement } from '../../db/statement'
import type { PaymentPeriod, PartType } from '../../../shared/domain/agreement-parts'

/**
 * Queries of the billing engine as raw statements for both engines (server/db/statement.ts): a
 * billing run writes a charge, an invoice with its lines, a counter step, an outbox row and three
 * change-log rows per agreement and period, 300,000 agreements in one run (bench/billing.ts), so
 * on SQLite the statements are prepared once per connection and take plain values. All writes run
 * inside the caller's transaction; the outbox and change-log rows go through their one writers.
 */
/** Where a billing run's keyset stands: the last agreement read, by next payment date and id. */
export interface DueCursor {
  date: string
  id: string
}

export interface DueAgreement {
  /** The agreement's id: the keyset's tie-breaker after the next payment date (unique). */
  id: string
  company_id: string
  member_user_id: string
  payment_provider_id: string
  external_seq: number
  price_ore: number
  payment_period: PaymentPeriod
  start_payment_date: string
  next_regular_payment_date: string
  termination_date: string | null
  /** 1/0 on SQLite, true/false on PostgreSQL: read it as a truth value. */
  final_payment_required: number | boolean
  version: number
  /** When the row was made (by the API, or by an import from an earlier system): no period before its day is billed. */
  created_at: string
  /** The member's snapshot, read in the same statement. */
  member_name: string | null
  member_email: string | null
  member_phone: string | null
  member_language: 'EN' | 'DA' | null
  street: string | null
  number: string | null
  floor: string | null
  side: string | null
  zip: string | null
  city: string | null
}

export interface PartSnapshot {
  id: string
  type: PartType
  description: string
  price_ore: number
  vat_rate: number
}

export interface CompanySnapshot {
  id: string
  name: string
  acronym: string
  cvr: string
  address: string | null
}

export interface MemberSnapshot {
  name: string
  email: string
  phone: string | null
  language: 'EN' | 'DA'
  address: string | null
}

export interface InvoiceInsert {
  id: string
  companyId: string
  kind: 'INVOICE' | 'CREDIT_NOTE'
  number: number
  agreementId: string
  chargeId: string
  memberUserId: string
  creditedInvoiceId: string | null
  refundId: string | null
  issueDate: string
  dueDate: string
  status: string
  description: string
  company: CompanySnapshot
  member: MemberSnapshot
  subtotalOre: number
  vatOre: number
  totalOre: number
  vatRate: number
  paymentType: string
  now: string
}

export interface LineInsert {
  invoiceId: string
  position: number
  id: string
  articleNumber: string
  type: PartType
  description: string
  quantity: number
  unit: string
  pricePerUnitOre: number
  vatRate: number
  vatOre: number
  totalInclVatOre: number
  /** A credit note's line: the position of the invoice line it credits. */
  creditedPosition: number | null
}

type Address = { street: string; number: string; floor: string | null; side: string | null; zip: string; city: string }

/** "Solvej 12, 2. th, 2100 København Ø" (the invoice's snapshot of an address). */
export const formatAddress = (a: Address | undefined): string | null =>
  a ?
    `${a.street} ${a.number}${a.floor || a.side ? `, ${[a.floor ? `${a.floor}.` : '', a.side ?? ''].filter(Boolean).join(' ')}` : ''}, ${a.zip} ${a.city}`
  : null

// Keyset over agreements_status_next (status, next_regular_payment_date, id): each page is an
// index range read from the last agreement seen, in index order, with no sort and no scan of the
// agreements already passed; run inside the batch's write transaction, so the rows are current.
const dueBatch = statement<{ horizon: string; afterDate: string; afterId: string; limit: number }, DueAgreement>(
  `SELECT a.id, a.company_id, a.member_user_id, a.payment_provider_id, a.external_seq, a.price_ore, a.payment_period, a.start_payment_date,
          a.next_regular_payment_date, a.termination_date, a.final_payment_required, a.version, a.created_at,
          u.full_name AS member_name, u.email_address AS member_email, u.mobile_number AS member_phone, u.language AS member_language,
          ad.street, ad.number, ad.floor, ad.side, ad.zip, ad.city
   FROM agreements a JOIN companies c ON c.id = a.company_id JOIN payment_providers p ON p.id = a.payment_provider_id
   LEFT JOIN users u ON u.id = a.member_user_id
   LEFT JOIN addresses ad ON ad.id = (SELECT address_id FROM agreement_addresses WHERE agreement_id = a.id ORDER BY position LIMIT 1)
   WHERE a.status = 'ACCEPTED' AND a.next_regular_payment_date <= @horizon AND (a.next_regular_payment_date, a.id) > (@afterDate, @afterId)
     AND a.vipps_agreement_id IS NOT NULL AND c.status = 'ACTIVE' AND p.is_active = TRUE
   ORDER BY a.next_regular_payment_date, a.id LIMIT @limit`,
)
/** Any fixed number: the advisory lock that makes billing batches of several processes take turns on PostgreSQL. */
const BATCH_LOCK = 0x62_6b_62_6c // "bkbl"
const batchTurn = statement<[], boolean>(`SELECT pg_try_advisory_xact_lock(${BATCH_LOCK})`, { pluck: true })
const parts = statement<[string], PartSnapshot>(
  'SELECT id, type, description, price_ore, vat_rate FROM agreement_parts WHERE agreement_id = ? ORDER BY position',
)
const company = statement<[string], Omit<CompanySnapshot, 'address'>>('SELECT id, name, acronym, cvr FROM companies WHERE id = ?')
const companyAddress = statement<[string], Address>(
  'SELECT street, number, floor, side, zip, city FROM addresses WHERE company_id = ? ORDER BY created_at, id LIMIT 1',
)
const member = statement<[string], Omit<MemberSnapshot, 'address'>>(
  'SELECT full_name AS "name", email_address AS "email", mobile_number AS "phone", language FROM users WHERE id = ?',
)
const agreementAddress = statement<[string], Address>(
  `SELECT ad.street, ad.number, ad.floor, ad.side, ad.zip, ad.city FROM agreement_addresses aa JOIN addresses ad ON ad.id = aa.address_id
   WHERE aa.agreement_id = ? ORDER BY aa.position LIMIT 1`,
)
const insertRegularCharge = statement<[string, string, string, number, string, string, string, string, string], never>(
  `INSERT INTO charges (id, agreement_id, company_id, kind, type, amount_ore, currency, description, due, status, invoice_id, version, created_at, updated_at)
   VALUES (?, ?, ?, 'REGULAR', 'RECURRING', ?, 'DKK', ?, ?, 'CREATED', ?, 1, ?, ?) ON CONFLICT DO NOTHING`,
)
// One statement: the counter's row is written (on PostgreSQL: locked to the end of the
// transaction) as it is read, so two transactions never take the same number, and a rollback
// gives the number back. `invoice_counters.` on the right: PostgreSQL also sees `excluded` there.
const nextNumber = statement<[string], number>(
  `INSERT INTO invoice_counters (company_id, last_number) VALUES (?, 1)
   ON CONFLICT (company_id) DO UPDATE SET last_number = invoice_counters.last_number + 1 RETURNING last_number`,
  { pluck: true },
)
const insertInvoice = statement<unknown[], never>(
  `INSERT INTO invoices (id, company_id, kind, number, agreement_id, charge_id, member_user_id, credited_invoice_id, refund_id, issue_date, due_date, status,
     description, company_name, company_cvr, company_address, consumer_name, consumer_address, consumer_phone_number, consumer_email_address, currency,
     subtotal_ore, vat_ore, total_ore, vat_rate, payment_status, payment_type, payment_date, version, created_at, updated_at)
   VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'DKK', ?, ?, ?, ?, ?, ?, NULL, 1, ?, ?)`,
)
const insertLine = statement<unknown[], never>(
  `INSERT INTO invoice_lines (invoice_id, position, id, article_number, type, description, quantity, unit, price_per_unit_ore, vat_rate, vat_ore, total_incl_vat_ore, credited_position)
   VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
)
const advanceAgreement = statement<[string, string, string], never>(
  'UPDATE agreements SET next_regular_payment_date = ?, version = version + 1, updated_at = ? WHERE id = ?',
)
const adminStaff = statement<[string], string>(
  "SELECT user_id FROM company_members WHERE company_id = ? AND role IN ('CHAIRMAN', 'ADMINISTRATOR', 'ACCOUNTANT')",
  { pluck: true },
)
// A step is due when the charge failed on or before its cutoff day (today minus the step's days):
// the next reminder's cutoff by the charge's step, or the debt-collection cutoff while the
// agreement is not flagged yet. Only those rows come back; the rest cost no read of their own.
// `latest` (the latest cutoff of all) bounds a range scan of charges_failed_on, a partial index
// of the failed charges (SQLite is told to take it; PostgreSQL plans by itself). The step's cutoff
// is the JSON array's element at the charge's step (none past the last reminder).
const overdueCandidates = statement<{ steps: number; reminderCutoffs: string; debtCutoff: string; latest: string }, string>(
  (d) =>
    `SELECT c.id FROM charges c ${d.engine === 'sqlite' ? 'INDEXED BY charges_failed_on' : ''} JOIN invoices i ON i.id = c.invoice_id AND i.charge_id = c.id AND i.kind = 'INVOICE'
     WHERE c.failed_on IS NOT NULL AND c.status IN ('FAILED', 'DECLINED') AND c.failed_on <= @latest AND c.overdue_step <= @steps
       AND i.settlement IS NULL AND i.status <> 'EXECUTED'
       AND (c.failed_on <= ${d.engine === 'sqlite' ? '(SELECT value FROM json_each(@reminderCutoffs) WHERE key = c.overdue_step)' : '(CAST(@reminderCutoffs AS json) ->> c.overdue_step)'}
         OR (c.failed_on <= @debtCutoff AND EXISTS (SELECT 1 FROM agreements a WHERE a.id = c.agreement_id AND a.debt_collection_since IS NULL)))`,
  { pluck: true },
)

/**
 * The billing engine's reads and writes, on the handle of the transaction in progress (a billing
 * batch, a request, a job). Every write belongs to the caller's transaction.
 */
export const billingRepository = {
  /**
   * The next `limit` agreements with a regular charge to create by `horizon` (ACCEPTED, at Vipps,
   * provider switched on, company ACTIVE), after `after` in (next payment date, id) order. Read
   * inside the batch's transaction: what another process billed meanwhile is no longer due.
   */
  dueBatch: (db: Db, horizon: string, after: DueCursor, limit: number): Promise<DueAgreement[]> =>
    dueBatch.all(db, { horizon, afterDate: after.date, afterId: after.id, limit }),
  /**
   * Called first in a billing batch's transaction: whether this batch has the turn. On PostgreSQL
   * the batches of several processes (the server's job, `npm run billing`) take turns under an
   * advisory lock held to COMMIT; false while another process's batch runs. Not waited for inside
   * the transaction: a SERIALIZABLE transaction reads from the moment of its first statement, so a
   * batch that waited would read what the other one billed as still due and lose to it at every
   * charge; the caller ends this transaction and tries again in a new one, which reads from after
   * the other's COMMIT. On SQLite the write transaction itself serializes them: always true.
   */
  async takeBatchTurn(db: Db): Promise<boolean> {
    return !engineOf(db) || (await batchTurn.get(db, [])) === true
  },
  parts: (db: Db, agreementId: string): Promise<PartSnapshot[]> => parts.all(db, [agreementId]),
  async company(db: Db, companyId: string): Promise<CompanySnapshot | undefined> {
    const c = await company.get(db, [companyId])
    return c && { ...c, address: formatAddress(await companyAddress.get(db, [companyId])) }
  },
  /** The member's snapshot from a `dueAgreement` row. */
  memberOf: (a: DueAgreement): MemberSnapshot | undefined =>
    a.member_name === null ?
      undefined
    : {
        name: a.member_name,
        email: a.member_email!,
        phone: a.member_phone,
        language: a.member_language!,
        address: a.street === null ? null : formatAddress(a as Address),
      },
  async member(db: Db, userId: string, agreementId: string): Promise<MemberSnapshot | undefined> {
    const m = await member.get(db, [userId])
    return m && { ...m, address: formatAddress(await agreementAddress.get(db, [agreementId])) }
  },
  /** Inserts the period's charge; false when (agreement, due) was billed already (unique index). */
  insertRegularCharge: async (
    db: Db,
    c: {
      id: string
      agreementId: string
      companyId: string
      amountOre: number
      description: string
      due: string
      invoiceId: string
      now: string
    },
  ): Promise<boolean> =>
    (await insertRegularCharge.run(db, [c.id, c.agreementId, c.companyId, c.amountOre, c.description, c.due, c.invoiceId, c.now, c.now])).changes === 1,
  /** The company's next invoice number, taken in the caller's transaction (a rollback gives it back). */
  nextInvoiceNumber: async (db: Db, companyId: string): Promise<number> => (await nextNumber.get(db, [companyId]))!,
  async insertInvoice(db: Db, i: InvoiceInsert): Promise<void> {
    await insertInvoice.run(db, [
      i.id,
      i.companyId,
      i.kind,
      i.number,
      i.agreementId,
      i.chargeId,
      i.memberUserId,
      i.creditedInvoiceId,
      i.refundId,
      i.issueDate,
      i.dueDate,
      i.status,
      i.description,
      i.company.name,
      i.company.cvr,
      i.company.address,
      i.member.name,
      i.member.address,
      i.member.phone,
      i.member.email,
      i.subtotalOre,
      i.vatOre,
      i.totalOre,
      i.vatRate,
      i.status,
      i.paymentType,
      i.now,
      i.now,
    ])
  },
  async insertLine(db: Db, l: LineInsert): Promise<void> {
    await insertLine.run(db, [
      l.invoiceId,
      l.position,
      l.id,
      l.articleNumber,
      l.type,
      l.description,
      l.quantity,
      l.unit,
      l.pricePerUnitOre,
      l.vatRate,
      l.vatOre,
      l.totalInclVatOre,
      l.creditedPosition,
    ])
  },
  advanceAgreement: async (db: Db, id: string, next: string, now: string): Promise<void> => void (await advanceAgreement.run(db, [next, now, id])),
  /** The company's admin staff (chairman, administrator, accountant): told when a payment fails or goes to debt collection. */
  adminStaffOf: (db: Db, companyId: string): Promise<string[]> => adminStaff.all(db, [companyId]),
  /**
   * Failed charges whose invoice is still unpaid and that have an overdue step due: failed on or
   * before `reminderCutoffs[overdue_step]` (the next reminder), or before `debtCutoff` while their
   * agreement is not flagged for debt collection.
   */
  overdueCandidates: (db: Db, reminderCutoffs: string[], debtCutoff: string): Promise<string[]> =>
    overdueCandidates.all(db, {
      steps: reminderCutoffs.length,
      reminderCutoffs: JSON.stringify(reminderCutoffs),
      debtCutoff,
      latest: [debtCutoff, ...reminderCutoffs].sort().at(-1)!,
    }),
}
