/**
 * Invoices (spec §3, DOMAIN.md "Danish specifics"): statuses, kinds, payment terms and the line
 * arithmetic. Money is integer øre; VAT is included in the agreement's prices and rounded per
 * line with `vatIncluded` (the one rounding rule), so the lines always add up to the charge.
 */
import { vatIncluded, type VatRate } from './agreement-parts'
import type { ChargeStatus } from './agreement-status'

export const invoiceStatuses = ['CREATED', 'RESERVED', 'EXECUTED', 'FAILED', 'CANCELED'] as const
export type InvoiceStatus = (typeof invoiceStatuses)[number]

export const invoiceKinds = ['INVOICE', 'CREDIT_NOTE'] as const
export type InvoiceKind = (typeof invoiceKinds)[number]

/** How staff settled an unpaid invoice outside Vipps MobilePay (issue #16). */
export const invoiceSettlements = ['PAID_OUTSIDE', 'WRITTEN_OFF'] as const
export type InvoiceSettlement = (typeof invoiceSettlements)[number]

/** Payment due this many days after the invoice date (spec §9). */
export const INVOICE_PAYMENT_DAYS = 14

/** The invoice follows its charge (spec §3 lists the invoice statuses). */
export const invoiceStatusOfCharge = (status: ChargeStatus): InvoiceStatus =>
  status === 'CREATED' || status === 'RESERVED' || status === 'EXECUTED' || status === 'FAILED' ? status : status === 'DECLINED' ? 'FAILED' : 'CANCELED'

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
