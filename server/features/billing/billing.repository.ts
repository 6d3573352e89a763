import type Database from 'better-sqlite3'
import type { PaymentPeriod, PartType } from '../../../shared/domain/agreement-parts'
import type { SyncEntity } from '../../../shared/contract/sync'
import type { ProviderCallKind } from '../../integrations/vipps/provider-outbox'

/**
 * Queries of the billing engine as prepared better-sqlite3 statements: a billing run writes a
 * charge, an invoice with its lines, a counter step, an outbox row and three change-log rows per
 * agreement and period, 300,000 agreements in one run (bench/billing.ts), so the statements are
 * prepared once per connection and take plain values. All writes run inside the caller's
 * transaction; the outbox and change-log rows go through their one writers.
 */
/** Where a billing run's keyset stands: the last agreement read, by next payment date and rowid. */
export interface DueCursor {
  date: string
  rowid: number
}

export interface DueAgreement {
  /** The row's SQLite rowid: the keyset's tie-breaker after the next payment date. */
  rowid: number
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
  final_payment_required: number
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

export type BillingStatements = ReturnType<typeof billingStatements>

const cache = new WeakMap<Database.Database, ReturnType<typeof prepare>>()

/** The statements of one connection (prepared on first use). */
export function billingStatements(sqlite: Database.Database) {
  let s = cache.get(sqlite)
  if (!s) {
    s = prepare(sqlite)
    cache.set(sqlite, s)
  }
  return s
}

function prepare(sqlite: Database.Database) {
  // Keyset over agreements_status_next (status, next_regular_payment_date, rowid): each page is an
  // index range read from the last agreement seen, in index order, with no sort and no scan of the
  // agreements already passed; run inside the batch's write transaction, so the rows are current.
  const dueBatch = sqlite.prepare<{ horizon: string; afterDate: string; afterRowid: number; limit: number }, DueAgreement>(
    `SELECT a.rowid AS rowid, a.id, a.company_id, a.member_user_id, a.payment_provider_id, a.external_seq, a.price_ore, a.payment_period, a.start_payment_date,
            a.next_regular_payment_date, a.termination_date, a.final_payment_required, a.version, a.created_at,
            u.full_name AS member_name, u.email_address AS member_email, u.mobile_number AS member_phone, u.language AS member_language,
            ad.street, ad.number, ad.floor, ad.side, ad.zip, ad.city
     FROM agreements a JOIN companies c ON c.id = a.company_id JOIN payment_providers p ON p.id = a.payment_provider_id
     LEFT JOIN users u ON u.id = a.member_user_id
     LEFT JOIN addresses ad ON ad.id = (SELECT address_id FROM agreement_addresses WHERE agreement_id = a.id ORDER BY position LIMIT 1)
     WHERE a.status = 'ACCEPTED' AND a.next_regular_payment_date <= @horizon AND (a.next_regular_payment_date, a.rowid) > (@afterDate, @afterRowid)
       AND a.vipps_agreement_id IS NOT NULL AND c.status = 'ACTIVE' AND p.is_active = 1
     ORDER BY a.next_regular_payment_date, a.rowid LIMIT @limit`,
  )
  const parts = sqlite.prepare<[string], PartSnapshot>(
    'SELECT id, type, description, price_ore, vat_rate FROM agreement_parts WHERE agreement_id = ? ORDER BY position',
  )
  const company = sqlite.prepare<[string], Omit<CompanySnapshot, 'address'>>('SELECT id, name, acronym, cvr FROM companies WHERE id = ?')
  const companyAddress = sqlite.prepare<[string], Address>(
    'SELECT street, number, floor, side, zip, city FROM addresses WHERE company_id = ? ORDER BY created_at, id LIMIT 1',
  )
  const member = sqlite.prepare<[string], Omit<MemberSnapshot, 'address'>>(
    'SELECT full_name AS name, email_address AS email, mobile_number AS phone, language FROM users WHERE id = ?',
  )
  const agreementAddress = sqlite.prepare<[string], Address>(
    `SELECT ad.street, ad.number, ad.floor, ad.side, ad.zip, ad.city FROM agreement_addresses aa JOIN addresses ad ON ad.id = aa.address_id
     WHERE aa.agreement_id = ? ORDER BY aa.position LIMIT 1`,
  )
  const insertRegularCharge = sqlite.prepare(
    `INSERT INTO charges (id, agreement_id, company_id, kind, type, amount_ore, currency, description, due, status, invoice_id, version, created_at, updated_at)
     VALUES (?, ?, ?, 'REGULAR', 'RECURRING', ?, 'DKK', ?, ?, 'CREATED', ?, 1, ?, ?) ON CONFLICT DO NOTHING`,
  )
  const nextNumber = sqlite.prepare<[string], { last_number: number }>(
    `INSERT INTO invoice_counters (company_id, last_number) VALUES (?, 1)
     ON CONFLICT (company_id) DO UPDATE SET last_number = last_number + 1 RETURNING last_number`,
  )
  const insertInvoice = sqlite.prepare(
    `INSERT INTO invoices (id, company_id, kind, number, agreement_id, charge_id, member_user_id, credited_invoice_id, refund_id, issue_date, due_date, status,
       description, company_name, company_cvr, company_address, consumer_name, consumer_address, consumer_phone_number, consumer_email_address, currency,
       subtotal_ore, vat_ore, total_ore, vat_rate, payment_status, payment_type, payment_date, version, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'DKK', ?, ?, ?, ?, ?, ?, NULL, 1, ?, ?)`,
  )
  const insertLine = sqlite.prepare(
    `INSERT INTO invoice_lines (invoice_id, position, id, article_number, type, description, quantity, unit, price_per_unit_ore, vat_rate, vat_ore, total_incl_vat_ore, credited_position)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  )
  // The provider outbox and the change log have one writer each; the run calls them with plain values.
  // TEMPORARY (until billing is on server/db/statement.ts): the outbox's and the change log's insert, synchronous.
  const queueCall = sqlite.prepare(
    `INSERT INTO provider_outbox (id, provider_id, agreement_id, charge_id, kind, payload, status, attempts, next_attempt_at, created_at)
     VALUES (?, ?, ?, ?, ?, ?, 'pending', 0, ?, ?)`,
  )
  const writeChange = sqlite.prepare('INSERT INTO change_log (entity, entity_id, op, company_id, user_id, created_at) VALUES (?, ?, ?, ?, ?, ?)')
  const advanceAgreement = sqlite.prepare('UPDATE agreements SET next_regular_payment_date = ?, version = version + 1, updated_at = ? WHERE id = ?')
  const adminStaff = sqlite.prepare<[string], { user_id: string }>(
    "SELECT user_id FROM company_members WHERE company_id = ? AND role IN ('CHAIRMAN', 'ADMINISTRATOR', 'ACCOUNTANT')",
  )
  // A step is due when the charge failed on or before its cutoff day (today minus the step's days):
  // the next reminder's cutoff by the charge's step, or the debt-collection cutoff while the
  // agreement is not flagged yet. Only those rows come back; the rest cost no read of their own.
  // `latest` (the latest cutoff of all) bounds a range scan of charges_failed_on, a partial index of the failed charges.
  const overdueCandidates = sqlite.prepare<[{ steps: number; reminderCutoffs: string; debtCutoff: string; latest: string }], { id: string }>(
    `SELECT c.id FROM charges c INDEXED BY charges_failed_on JOIN invoices i ON i.id = c.invoice_id AND i.charge_id = c.id AND i.kind = 'INVOICE'
     WHERE c.failed_on IS NOT NULL AND c.status IN ('FAILED', 'DECLINED') AND c.failed_on <= @latest AND c.overdue_step <= @steps
       AND i.settlement IS NULL AND i.status <> 'EXECUTED'
       AND (c.failed_on <= (SELECT value FROM json_each(@reminderCutoffs) WHERE key = c.overdue_step)
         OR (c.failed_on <= @debtCutoff AND EXISTS (SELECT 1 FROM agreements a WHERE a.id = c.agreement_id AND a.debt_collection_since IS NULL)))`,
  )

  return {
    /**
     * The next `limit` agreements with a regular charge to create by `horizon` (ACCEPTED, at Vipps,
     * provider switched on, company ACTIVE), after `after` in (next payment date, rowid) order. Read
     * inside the batch's transaction: what another process billed meanwhile is no longer due.
     */
    dueBatch: (horizon: string, after: DueCursor, limit: number): DueAgreement[] =>
      dueBatch.all({ horizon, afterDate: after.date, afterRowid: after.rowid, limit }),
    parts: (agreementId: string): PartSnapshot[] => parts.all(agreementId),
    company(companyId: string): CompanySnapshot | undefined {
      const c = company.get(companyId)
      return c && { ...c, address: formatAddress(companyAddress.get(companyId)) }
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
    member(userId: string, agreementId: string): MemberSnapshot | undefined {
      const m = member.get(userId)
      return m && { ...m, address: formatAddress(agreementAddress.get(agreementId)) }
    },
    /** Inserts the period's charge; false when (agreement, due) was billed already (unique index). */
    insertRegularCharge: (c: {
      id: string
      agreementId: string
      companyId: string
      amountOre: number
      description: string
      due: string
      invoiceId: string
      now: string
    }): boolean => insertRegularCharge.run(c.id, c.agreementId, c.companyId, c.amountOre, c.description, c.due, c.invoiceId, c.now, c.now).changes === 1,
    /** The company's next invoice number, taken in the caller's transaction (a rollback gives it back). */
    nextInvoiceNumber: (companyId: string): number => nextNumber.get(companyId)!.last_number,
    insertInvoice(i: InvoiceInsert): void {
      insertInvoice.run(
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
      )
    },
    insertLine(l: LineInsert): void {
      insertLine.run(
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
      )
    },
    insertOutbox(o: {
      id: string
      providerId: string
      agreementId: string
      chargeId: string | null
      kind: ProviderCallKind
      payload: Record<string, unknown>
      now: string
    }): void {
      queueCall.run(o.id, o.providerId, o.agreementId, o.chargeId, o.kind, JSON.stringify(o.payload), o.now, o.now)
    },
    recordChange(entity: SyncEntity, entityId: string, companyId: string | null, userId: string | null, now: string): void {
      writeChange.run(entity, entityId, 'upsert', companyId, userId, now)
    },
    advanceAgreement: (id: string, next: string, now: string): void => void advanceAgreement.run(next, now, id),
    /** The company's admin staff (chairman, administrator, accountant): told when a payment fails or goes to debt collection. */
    adminStaffOf: (companyId: string): string[] => adminStaff.all(companyId).map((r) => r.user_id),
    /**
     * Failed charges whose invoice is still unpaid and that have an overdue step due: failed on or
     * before `reminderCutoffs[overdue_step]` (the next reminder), or before `debtCutoff` while their
     * agreement is not flagged for debt collection.
     */
    overdueCandidates: (reminderCutoffs: string[], debtCutoff: string): string[] =>
      overdueCandidates
        .all({
          steps: reminderCutoffs.length,
          reminderCutoffs: JSON.stringify(reminderCutoffs),
          debtCutoff,
          latest: [debtCutoff, ...reminderCutoffs].sort().at(-1)!,
        })
        .map((r) => r.id),
  }
}
