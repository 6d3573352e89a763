import { z } from 'zod'
import { invoiceKinds, invoiceSettlements, invoiceStatuses } from '../domain/invoice'
import { PartType } from './agreements'
import { pageQueryFields } from './paging'

/**
 * Invoices and credit notes (docs/PRODUCT.md §3 "Invoice", §7 `GET /invoice`, `GET /invoice/{id}`). Money
 * is integer øre (`totalAmount`, `subtotal`, `totalVatAmount`, `pricePerUnit`,
 * `totalPriceIncludingVat`); dates are `YYYY-MM-DD` (Europe/Copenhagen). A credit note carries
 * positive amounts and `kind: CREDIT_NOTE`; `creditedInvoice` names the invoice it credits.
 * Issued documents never change except `status` and `payment`.
 */
export const InvoiceStatus = z.enum(invoiceStatuses)
export type InvoiceStatus = z.infer<typeof InvoiceStatus>
export const InvoiceKind = z.enum(invoiceKinds)
export type InvoiceKind = z.infer<typeof InvoiceKind>

export const InvoiceListQuery = z.object({
  companyId: z.uuid().optional(),
  status: InvoiceStatus.optional(),
  ...pageQueryFields,
})
export type InvoiceListQuery = z.output<typeof InvoiceListQuery>

export const InvoiceArticle = z
  .object({
    id: z.string(),
    /** "001", "002", …: the lines sort by it. */
    articleNumber: z.string(),
    type: PartType,
    articleDescription: z.string(),
    quantity: z.number().int(),
    /** MONTH, WEEK, DAY, YEAR (a period of a regular charge) or PIECE. */
    unit: z.string(),
    /** øre per unit, without VAT. */
    pricePerUnit: z.number().int(),
    /** Percent: 0 or 25. */
    vatRate: z.number().int(),
    /** øre: the VAT included in the line, rounded per line. */
    vatAmount: z.number().int(),
    /** øre */
    totalPriceIncludingVat: z.number().int(),
    /** A credit note's line: the id of the invoice line it credits (decision 0044); null on invoices and older credit notes. */
    creditedArticleId: z.string().nullable().optional(),
  })
  .meta({ id: 'InvoiceArticle' })
export type InvoiceArticle = z.infer<typeof InvoiceArticle>

export const InvoicePayment = z
  .object({
    /** The charge's payment status (CREATED, RESERVED, EXECUTED, FAILED, CANCELED, …). */
    status: z.string(),
    /** REGULAR, ONE_TIME, FINAL (the charge's kind) or REFUND for a credit note. */
    paymentType: z.string(),
    /** Copenhagen date the money moved, once it did. */
    paymentDate: z.string().nullable(),
  })
  .meta({ id: 'InvoicePayment' })

/**
 * How staff settled an unpaid invoice outside Vipps MobilePay (decision 0042): PAID_OUTSIDE (the
 * member paid another way; `note` says how) or WRITTEN_OFF (a credit note took the open amount
 * off; the credit note carries the same settlement). `status` keeps following the Vipps charge.
 */
export const InvoiceSettlement = z
  .object({
    kind: z.enum(invoiceSettlements),
    /** Copenhagen date. */
    date: z.string(),
    note: z.string().nullable(),
    /** Who settled it (name as it was then). */
    by: z.string().nullable(),
  })
  .meta({ id: 'InvoiceSettlement' })
export type InvoiceSettlement = z.infer<typeof InvoiceSettlement>

export const Invoice = z
  .object({
    id: z.uuid(),
    kind: InvoiceKind,
    /** Gap-free per company, shared by invoices and credit notes. */
    invoiceNumber: z.string(),
    /** The document's title line (the charge's description). */
    name: z.string(),
    companyId: z.uuid(),
    agreementId: z.uuid(),
    chargeId: z.uuid(),
    creditedInvoice: z.object({ id: z.uuid(), invoiceNumber: z.string() }).nullable(),
    issueDate: z.string(),
    /** An invoice: its charge's due date (the day the money is withdrawn); a credit note: its issue date. */
    dueDate: z.string(),
    status: InvoiceStatus,
    /** Settled by staff outside Vipps MobilePay (decision 0042), or null. Optional for older local copies. */
    settlement: InvoiceSettlement.nullable().optional(),
    company: z.object({ name: z.string(), cvr: z.string(), address: z.string().nullable() }),
    payment: InvoicePayment.nullable(),
    consumerName: z.string(),
    consumerAddress: z.string().nullable(),
    consumerPhoneNumber: z.string().nullable(),
    consumerEmailAddress: z.string(),
    currency: z.literal('DKK'),
    /** øre without VAT */
    subtotal: z.number().int(),
    /** The highest VAT rate of the articles, percent. */
    vatRate: z.number().int(),
    totalVatAmount: z.number().int(),
    totalAmount: z.number().int(),
    invoiceArticles: z.array(InvoiceArticle),
    version: z.number().int(),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .meta({ id: 'Invoice' })
export type Invoice = z.infer<typeof Invoice>
