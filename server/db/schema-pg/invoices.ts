// GENERATED from server/db/schema/invoices.ts by scripts/generate-pg-schema.ts (npm run db:generate:pg-schema,
// which npm run db:generate runs first): do not edit. Change the SQLite table and run npm run db:generate
// (docs/decisions/0074-one-definition-per-table-and-query.md).
import { sql } from 'drizzle-orm'
import { bigint, index, integer, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core'

export const invoices = pgTable(
  'invoices',
  {
    id: text('id').primaryKey(),
    companyId: text('company_id').notNull(),
    kind: text('kind', { enum: ['INVOICE', 'CREDIT_NOTE'] }).notNull(),
    number: integer('number').notNull(),
    agreementId: text('agreement_id').notNull(),
    chargeId: text('charge_id').notNull(),
    memberUserId: text('member_user_id').notNull(),
    creditedInvoiceId: text('credited_invoice_id'),
    refundId: text('refund_id'),
    issueDate: text('issue_date').notNull(),
    dueDate: text('due_date').notNull(),
    status: text('status', { enum: ['CREATED', 'RESERVED', 'EXECUTED', 'FAILED', 'CANCELED'] })
      .notNull()
      .default('CREATED'),
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
    subtotalOre: bigint('subtotal_ore', { mode: 'number' }).notNull(),
    vatOre: bigint('vat_ore', { mode: 'number' }).notNull(),
    totalOre: bigint('total_ore', { mode: 'number' }).notNull(),
    vatRate: integer('vat_rate').notNull(),
    paymentStatus: text('payment_status'),
    paymentType: text('payment_type'),
    paymentDate: text('payment_date'),
    settlement: text('settlement', { enum: ['PAID_OUTSIDE', 'WRITTEN_OFF'] }),
    settledOn: text('settled_on'),
    settlementNote: text('settlement_note'),
    settledByUserId: text('settled_by_user_id'),
    settledByName: text('settled_by_name'),
    version: integer('version').notNull().default(1),
    createdAt: text('created_at').notNull(),
    updatedAt: text('updated_at').notNull(),
  },
  (t) => [
    uniqueIndex('invoices_company_number').on(t.companyId, t.number),
    index('invoices_company_issue').on(t.companyId, t.issueDate, t.number, t.id),
    index('invoices_member').on(t.memberUserId, t.issueDate, t.number, t.id),
    index('invoices_charge').on(t.chargeId),
    index('invoices_credited').on(t.creditedInvoiceId),
    index('invoices_company_open_due')
      .on(t.companyId, t.dueDate, t.id)
      .where(sql`kind = 'INVOICE' AND settlement IS NULL AND status IN ('CREATED', 'RESERVED', 'FAILED')`),
    index('invoices_company_executed_paid')
      .on(t.companyId, t.paymentDate, t.number, t.kind, t.id)
      .where(sql`status = 'EXECUTED'`),
    index('invoices_company_executed_split')
      .on(t.companyId, t.paymentDate)
      .where(sql`status = 'EXECUTED' AND (kind = 'CREDIT_NOTE' OR vat_rate <> 0)`),
    index('invoices_company_executed_undated')
      .on(t.companyId, t.issueDate)
      .where(sql`status = 'EXECUTED' AND payment_date IS NULL`),
    index('invoices_company_paid_outside')
      .on(t.companyId, t.settledOn, t.number)
      .where(sql`settlement = 'PAID_OUTSIDE'`),
  ],
)

export const invoiceLines = pgTable(
  'invoice_lines',
  {
    invoiceId: text('invoice_id')
      .notNull()
      .references(() => invoices.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    id: text('id').notNull(),
    articleNumber: text('article_number').notNull(),
    type: text('type', { enum: ['FEE', 'ADDITION', 'HEAT', 'COLD_WATER', 'HOT_WATER', 'HOT_AND_COLD_WATER', 'COMMON_EXPENSES', 'OTHER'] }).notNull(),
    description: text('description').notNull(),
    quantity: integer('quantity').notNull(),
    unit: text('unit').notNull(),
    pricePerUnitOre: bigint('price_per_unit_ore', { mode: 'number' }).notNull(),
    vatRate: integer('vat_rate').notNull(),
    vatOre: bigint('vat_ore', { mode: 'number' }).notNull(),
    totalInclVatOre: bigint('total_incl_vat_ore', { mode: 'number' }).notNull(),
    creditedPosition: integer('credited_position'),
  },
  (t) => [primaryKey({ columns: [t.invoiceId, t.position] })],
)

export const invoiceCounters = pgTable('invoice_counters', {
  companyId: text('company_id').primaryKey(),
  lastNumber: integer('last_number').notNull(),
})
