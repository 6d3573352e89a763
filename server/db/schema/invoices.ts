import { sql } from 'drizzle-orm'
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core'
import { bigInteger } from '../columns'
import { invoiceKinds, invoiceSettlements, invoiceStatuses } from '../../../shared/domain/invoice'
import { partTypes } from '../../../shared/domain/agreement-parts'

/**
 * Invoices and credit notes (docs/PRODUCT.md §3 "Invoice", docs/DOMAIN.md "Invoices" and "Danish specifics"): one
 * invoice per charge, issued in the transaction that creates the charge; a refund issues a credit
 * note that references the invoice. They are bookkeeping records (kept 5 years): no foreign keys
 * that could cascade a delete from companies, users, agreements or charges, and the seller's and
 * buyer's names and addresses are copied onto the row when it is issued. After issue only
 * `status`, `paymentStatus`, `paymentDate`, the settlement fields, `version` and `updatedAt` ever
 * change.
 */
export const invoices = sqliteTable(
  'invoices',
  {
    id: text('id').primaryKey(),
    companyId: text('company_id').notNull(),
    kind: text('kind', { enum: invoiceKinds }).notNull(),
    /** Gap-free per company, shared by invoices and credit notes (invoice_counters). */
    number: integer('number').notNull(),
    agreementId: text('agreement_id').notNull(),
    chargeId: text('charge_id').notNull(),
    /** The resident billed: they read their own invoices. */
    memberUserId: text('member_user_id').notNull(),
    /** A credit note: the invoice it credits. */
    creditedInvoiceId: text('credited_invoice_id'),
    /** A credit note: the provider-outbox row of its refund (the refund's id). */
    refundId: text('refund_id'),
    issueDate: text('issue_date').notNull(),
    dueDate: text('due_date').notNull(),
    status: text('status', { enum: invoiceStatuses }).notNull().default('CREATED'),
    description: text('description').notNull(),
    companyName: text('company_name').notNull(),
    companyCvr: text('company_cvr').notNull(),
    companyAddress: text('company_address'),
    consumerName: text('consumer_name').notNull(),
    consumerAddress: text('consumer_address'),
    consumerPhoneNumber: text('consumer_phone_number'),
    consumerEmailAddress: text('consumer_email_address').notNull(),
    currency: text('currency', { enum: ['DKK'] })
      .notNull()
      .default('DKK'),
    /** øre, without VAT. A credit note's amounts are positive; its kind says they are credited. */
    subtotalOre: bigInteger('subtotal_ore').notNull(),
    vatOre: bigInteger('vat_ore').notNull(),
    totalOre: bigInteger('total_ore').notNull(),
    /** The highest VAT rate of the lines, in percent. */
    vatRate: integer('vat_rate').notNull(),
    paymentStatus: text('payment_status'),
    paymentType: text('payment_type'),
    paymentDate: text('payment_date'),
    /**
     * An unpaid invoice settled by staff (docs/decisions/0042-unpaid-stays-visible.md): PAID_OUTSIDE (the member paid another way,
     * e.g. a bank transfer; `settlementNote` says how) or WRITTEN_OFF (a credit note for the open
     * amount was issued). Independent of `status`, which keeps following the Vipps charge, so
     * statistics keep counting only money collected through Vipps.
     */
    settlement: text('settlement', { enum: invoiceSettlements }),
    /** Copenhagen date of the settlement. */
    settledOn: text('settled_on'),
    settlementNote: text('settlement_note'),
    settledByUserId: text('settled_by_user_id'),
    /** The name of who settled it, as it was then (bookkeeping keeps names, not only ids). */
    settledByName: text('settled_by_name'),
    version: integer('version').notNull().default(1),
    createdAt: text('created_at').notNull(),
    updatedAt: text('updated_at').notNull(),
  },
  (t) => [
    uniqueIndex('invoices_company_number').on(t.companyId, t.number),
    // The lists' keyset order (newest first by issue date, number, id): a page reads the index in order.
    index('invoices_company_issue').on(t.companyId, t.issueDate, t.number, t.id),
    index('invoices_member').on(t.memberUserId, t.issueDate, t.number, t.id),
    index('invoices_charge').on(t.chargeId),
    index('invoices_credited').on(t.creditedInvoiceId),
    // The debtor overview (docs/DOMAIN.md "Unpaid and debtors"): a company's unsettled, unpaid invoices by due date.
    index('invoices_company_open_due')
      .on(t.companyId, t.dueDate, t.id)
      .where(sql`kind = 'INVOICE' AND settlement IS NULL AND status IN ('CREATED', 'RESERVED', 'FAILED')`),
    // The bookkeeping journal (decision 0067): executed documents by payment date, invoices paid outside by settlement date.
    // kind and id too (decision 0071): the period's counts read the index alone, and join the export marks by id.
    index('invoices_company_executed_paid')
      .on(t.companyId, t.paymentDate, t.number, t.kind, t.id)
      .where(sql`status = 'EXECUTED'`),
    // The journal's totals are the statistics' month and day sums (decision 0071) corrected by the
    // executed documents those sums cannot split: credit notes (REFUNDED) and invoices with VAT lines…
    index('invoices_company_executed_split')
      .on(t.companyId, t.paymentDate)
      .where(sql`status = 'EXECUTED' AND (kind = 'CREDIT_NOTE' OR vat_rate <> 0)`),
    // …and those the statistics date by their issue date because they have no payment date.
    index('invoices_company_executed_undated')
      .on(t.companyId, t.issueDate)
      .where(sql`status = 'EXECUTED' AND payment_date IS NULL`),
    index('invoices_company_paid_outside')
      .on(t.companyId, t.settledOn, t.number)
      .where(sql`settlement = 'PAID_OUTSIDE'`),
  ],
)

/** Article lines of an invoice (from the agreement's parts), in articleNumber order. */
export const invoiceLines = sqliteTable(
  'invoice_lines',
  {
    invoiceId: text('invoice_id')
      .notNull()
      .references(() => invoices.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    id: text('id').notNull(),
    articleNumber: text('article_number').notNull(),
    type: text('type', { enum: partTypes }).notNull(),
    description: text('description').notNull(),
    quantity: integer('quantity').notNull(),
    unit: text('unit').notNull(),
    /** øre per unit, without VAT. */
    pricePerUnitOre: bigInteger('price_per_unit_ore').notNull(),
    vatRate: integer('vat_rate').notNull(),
    vatOre: bigInteger('vat_ore').notNull(),
    totalInclVatOre: bigInteger('total_incl_vat_ore').notNull(),
    /** A credit note's line: the `position` of the invoice line it credits (decision 0044), so refunds per line add up. */
    creditedPosition: integer('credited_position'),
  },
  (t) => [primaryKey({ columns: [t.invoiceId, t.position] })],
)

/**
 * The last invoice number of each company. Incremented in the transaction that issues the
 * invoice, so a rollback (or a crash before commit) gives the number back and no number is ever
 * skipped or used twice; SQLite's single writer serializes two processes.
 */
export const invoiceCounters = sqliteTable('invoice_counters', {
  companyId: text('company_id').primaryKey(),
  lastNumber: integer('last_number').notNull(),
})
