/**
 * Invoices (docs/PRODUCT.md §3, docs/DOMAIN.md "Danish specifics"): statuses, kinds, payment terms and the line
 * arithmetic. Money is integer øre; VAT is included in the agreement's prices and rounded per
 * line with `vatIncluded` (the one rounding rule), so the lines always add up to the charge.
 */
import { vatIncluded, type VatRate } from './agreement-parts'
import type { ChargeStatus } from './agreement-status'

export const invoiceStatuses = ['CREATED', 'RESERVED', 'EXECUTED', 'FAILED', 'CANCELED'] as const
export type InvoiceStatus = (typeof invoiceStatuses)[number]

export const invoiceKinds = ['INVOICE', 'CREDIT_NOTE'] as const
export type InvoiceKind = (typeof invoiceKinds)[number]

/** How staff settled an unpaid invoice outside Vipps MobilePay (docs/decisions/0042-unpaid-stays-visible.md). */
export const invoiceSettlements = ['PAID_OUTSIDE', 'WRITTEN_OFF'] as const
export type InvoiceSettlement = (typeof invoiceSettlements)[number]

/**
 * The one due-date rule (docs/decisions/0043-one-due-date.md): an invoice is due on its charge's due date — the day Vipps
 * MobilePay withdraws the money — so the invoice, the charge list and the agreement show the same
 * date. A credit note is due the day it is issued (the money goes back at once). A retry of an
 * unpaid invoice is a new attempt on the same invoice, which keeps its date.
 */
export const invoiceDueDate = (document: { kind: InvoiceKind; chargeDue: string; issueDate: string }): string =>
  document.kind === 'INVOICE' ? document.chargeDue : document.issueDate

/** The invoice follows its charge (docs/PRODUCT.md §3 lists the invoice statuses). */
export const invoiceStatusOfCharge = (status: ChargeStatus): InvoiceStatus =>
  status === 'CREATED' || status === 'RESERVED' || status === 'EXECUTED' || status === 'FAILED' ? status
  : status === 'DECLINED' ? 'FAILED'
  : 'CANCELED'

export interface LineInput {
  /** Gross price incl. VAT, øre. */
  grossOre: number
  vatRate: VatRate
  quantity?: number
}

export interface LineAmounts {
  quantity: number
  pricePerUnitOre: number
  vatOre: number
  totalInclVatOre: number
}

/** One line: VAT included in the gross amount, rounded in øre; price per unit without VAT. */
export function lineAmounts(line: LineInput): LineAmounts {
  const quantity = line.quantity ?? 1
  const vatOre = vatIncluded(line.grossOre, line.vatRate)
  const net = line.grossOre - vatOre
  // Quantities are 1 for agreement parts; a net total that does not divide keeps the per-unit price rounded down.
  return { quantity, pricePerUnitOre: Math.floor(net / quantity), vatOre, totalInclVatOre: line.grossOre }
}

/** Subtotal (without VAT), VAT and total of lines: total = subtotal + VAT = sum of the gross amounts. */
export function invoiceTotals(lines: readonly LineInput[]): { subtotalOre: number; vatOre: number; totalOre: number; vatRate: number } {
  let vat = 0
  let total = 0
  let rate = 0
  for (const l of lines) {
    vat += vatIncluded(l.grossOre, l.vatRate)
    total += l.grossOre
    rate = Math.max(rate, l.vatRate)
  }
  return { subtotalOre: total - vat, vatOre: vat, totalOre: total, vatRate: rate }
}

/** Article numbers sort as text: zero-padded so line 10 follows line 9. */
export const articleNumberOf = (position: number): string => String(position + 1).padStart(3, '0')

/**
 * A credit note's amount spread over the invoice's lines in proportion to their totals, so each
 * line's VAT is credited at its own rate and rounded per line like the invoice. Whole øre by the
 * largest-remainder method: the shares add up to `amount` exactly and, while `amount` is at most
 * the invoice total, no share exceeds its line.
 */
export function creditShares(grossOre: readonly number[], amount: number): number[] {
  const total = grossOre.reduce((s, g) => s + g, 0)
  if (total <= 0) return grossOre.map((_, i) => (i === grossOre.length - 1 ? amount : 0))
  const shares = grossOre.map((g) => Math.floor((amount * g) / total))
  let left = amount - shares.reduce((s, x) => s + x, 0)
  const byRemainder = grossOre.map((g, i) => ({ i, rest: (amount * g) % total })).sort((a, b) => b.rest - a.rest || a.i - b.i)
  for (let k = 0; left > 0; k = (k + 1) % byRemainder.length) {
    const { i } = byRemainder[k]!
    if (shares[i]! < grossOre[i]! || amount > total) {
      shares[i]!++
      left--
    }
  }
  return shares
}

/**
 * A refund or write-off split over an invoice's lines (docs/decisions/0044-refunds-go-to-chosen-lines.md). `remaining` is what is left to
 * credit on each line (its total less what credit notes already took from it); `chosen` are the
 * positions the treasurer picked (none: every line, in proportion, as before). The amount is split
 * over the chosen lines in proportion to what is left on them, in whole øre, adding up exactly;
 * no share exceeds what is left on its line. Null when the amount is more than the chosen lines
 * have left.
 */
export function lineShares(remaining: readonly number[], amount: number, chosen?: readonly number[]): number[] | null {
  const picked = chosen && chosen.length ? new Set(chosen) : null
  const weights = remaining.map((r, i) => (picked && !picked.has(i) ? 0 : Math.max(0, r)))
  const available = weights.reduce((s, w) => s + w, 0)
  if (!Number.isInteger(amount) || amount < 0 || amount > available) return null
  if (amount === 0) return weights.map(() => 0)
  return creditShares(weights, amount)
}

/** An invoice as the debtor rules read it (the API's `Invoice`, or a row with the same fields). */
export interface OpenInvoiceInput {
  kind: InvoiceKind
  status: InvoiceStatus
  dueDate: string
  totalAmount: number
  settlement?: { kind: InvoiceSettlement } | null
}

/**
 * Is the invoice unpaid (docs/DOMAIN.md "Unpaid and debtors", decision 0042)? An invoice (not a credit note), not settled by staff, whose
 * charge failed, or which is past its due date and not collected. A cancelled charge owes
 * nothing (it was replaced or stopped on purpose).
 */
export const isUnpaid = (invoice: OpenInvoiceInput, today: string): boolean =>
  invoice.kind === 'INVOICE' &&
  !invoice.settlement &&
  (invoice.status === 'FAILED' || ((invoice.status === 'CREATED' || invoice.status === 'RESERVED') && invoice.dueDate < today))

/** What is still owed on an invoice: its total less what credit notes took off it, if unpaid; else 0. */
export const openAmountOf = (invoice: OpenInvoiceInput, creditedOre: number, today: string): number =>
  isUnpaid(invoice, today) ? Math.max(0, invoice.totalAmount - creditedOre) : 0

/**
 * The open balance of a member's invoices: the sum of what is owed on each, credit notes matched
 * to the invoice they credit. The same rule as the debtor overview on the server.
 */
export function openBalance(documents: readonly (OpenInvoiceInput & { id: string; creditedInvoiceId?: string | null })[], today: string): number {
  const credited = new Map<string, number>()
  for (const d of documents)
    if (d.kind === 'CREDIT_NOTE' && d.creditedInvoiceId) credited.set(d.creditedInvoiceId, (credited.get(d.creditedInvoiceId) ?? 0) + d.totalAmount)
  return documents.reduce((sum, d) => sum + openAmountOf(d, credited.get(d.id) ?? 0, today), 0)
}
