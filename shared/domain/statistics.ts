/**
 * Charge statistics (docs/PRODUCT.md §2 "Charges statistics", §3): what was actually withdrawn
 * from members' bank accounts, per member address and charge category, in øre. The one place
 * that says which money counts; the server (over its pre-aggregated rows) and the offline client
 * (over the synced invoices) both finish their sums here, so they cannot disagree.
 *
 * Rules (docs/decisions/0032-charge-statistics.md):
 * - The ledger is the invoices: every charge has one invoice whose lines split its amount by the
 *   agreement's part types, and every refund has one credit note whose lines split the refund the
 *   same way (billing's `creditShares`: proportional to the invoice's lines, exact in øre). So
 *   "per category" needs no rule of its own: it is the lines' `type`.
 * - Only money that moved counts: an invoice whose status is EXECUTED (its charge was captured)
 *   adds its lines; a credit note whose status is EXECUTED (the refund reached Vipps) subtracts
 *   its lines. Created, reserved, failed or cancelled documents count nothing.
 * - The date that counts is the payment date (the Copenhagen date the money moved, set when the
 *   document became EXECUTED), falling back to the issue date for a document without one. A
 *   refund therefore lowers the period in which it was paid back, not the period of its charge,
 *   so a period's figure can be negative for a category.
 * - The row is the member address printed on the document (`consumerAddress`, the agreement's
 *   first address when it was issued), so an address edited later does not move old money.
 * - An address whose every category nets to 0 in the period is left out (nothing was withdrawn).
 */
import type { PartType } from './agreement-parts'

export const statisticsCategories = ['hot-and-cold-water', 'hot-water', 'cold-water', 'heating', 'addition', 'common-expenses', 'fee', 'other'] as const
export type StatisticsCategory = (typeof statisticsCategories)[number]

/** The category of each agreement part type (docs/PRODUCT.md §2 "Charges statistics"). */
export const categoryOfPartType: Record<PartType, StatisticsCategory> = {
  HOT_AND_COLD_WATER: 'hot-and-cold-water',
  HOT_WATER: 'hot-water',
  COLD_WATER: 'cold-water',
  HEAT: 'heating',
  ADDITION: 'addition',
  COMMON_EXPENSES: 'common-expenses',
  FEE: 'fee',
  OTHER: 'other',
}

export type CategoryAmounts = Record<StatisticsCategory, number>

export const zeroAmounts = (): CategoryAmounts => ({
  'hot-and-cold-water': 0,
  'hot-water': 0,
  'cold-water': 0,
  heating: 0,
  addition: 0,
  'common-expenses': 0,
  fee: 0,
  other: 0,
})

/** An invoice or credit note as both sides hold it (server row or synced `Invoice`). */
export interface StatisticsDocument {
  kind: 'INVOICE' | 'CREDIT_NOTE'
  status: string
  agreementId: string
  paymentDate: string | null
  issueDate: string
  consumerAddress: string | null
  /** Gross amounts incl. VAT in øre, positive on both kinds. */
  lines: readonly { type: PartType; amount: number }[]
}

export interface StatisticsFilter {
  startDate: string
  endDate: string
  agreementId?: string
}

/** The Copenhagen date on which a document's money counts. */
export const countedDateOf = (d: Pick<StatisticsDocument, 'paymentDate' | 'issueDate'>): string => d.paymentDate ?? d.issueDate

/** The key of a document's row: its printed address, '' when it has none. */
export const addressKeyOf = (consumerAddress: string | null): string => consumerAddress ?? ''

/** +1 for an invoice, -1 for a credit note: the sign of its lines in the statistics. */
export const signOf = (kind: StatisticsDocument['kind']): 1 | -1 => (kind === 'CREDIT_NOTE' ? -1 : 1)

/** Whether a document counts in the filter's period (and agreement). */
export const documentCounts = (d: StatisticsDocument, f: StatisticsFilter): boolean => {
  if (d.status !== 'EXECUTED') return false
  if (f.agreementId && d.agreementId !== f.agreementId) return false
  const day = countedDateOf(d)
  return day >= f.startDate && day <= f.endDate
}

export interface AddressAmounts {
  consumerAddress: string
  parts: CategoryAmounts
}

export interface StatisticsRow extends AddressAmounts {
  total: number
}

export interface StatisticsTable {
  charges: StatisticsRow[]
  summary: CategoryAmounts & { total: number }
}

const totalOf = (parts: CategoryAmounts) => statisticsCategories.reduce((s, c) => s + parts[c], 0)
const byAddress = new Intl.Collator('da', { numeric: true, sensitivity: 'base' })
/** The rows' order: by address (Danish, numbers in numeric order; no address last), ties by code point. */
export const compareAddresses = (a: string, b: string) =>
  (a === '' ? 1 : 0) - (b === '' ? 1 : 0) ||
  byAddress.compare(a, b) ||
  (a < b ? -1
  : a > b ? 1
  : 0)

/** An address's partial sums as the server reads them: the address, then the amounts in `statisticsCategories` order. */
export type AddressSums = readonly [consumerAddress: string, ...amounts: number[]]

/**
 * Merges partial sums (any number per address, in any order) into the table: one row per
 * address with a total, sorted by address (Danish, numbers in numeric order; no address last),
 * addresses netting to 0 in every category left out, and the summary over the rows.
 */
export function statisticsOf(partials: Iterable<AddressAmounts>): StatisticsTable {
  const rows: AddressSums[] = []
  for (const p of partials) rows.push([p.consumerAddress, ...statisticsCategories.map((c) => p.parts[c])])
  return statisticsOfSums(rows)
}

/**
 * `statisticsOf` over plain arrays, the form the server's queries return: tens of thousands of
 * addresses at a large company, so amounts are merged in arrays and only the rows kept become
 * objects (docs/decisions/0051-statistics-month-sums.md).
 */
export function statisticsOfSums(partials: Iterable<AddressSums>): StatisticsTable {
  const n = statisticsCategories.length
  const merged = new Map<string, number[]>()
  for (const p of partials) {
    const row = merged.get(p[0])
    if (!row) merged.set(p[0], p.slice(1) as number[])
    else for (let i = 0; i < n; i++) row[i]! += p[i + 1] as number
  }
  const addresses: string[] = []
  for (const [address, amounts] of merged) if (amounts.some((x) => x !== 0)) addresses.push(address)
  addresses.sort(compareAddresses)
  const summary = zeroAmounts()
  const charges = addresses.map((consumerAddress) => {
    const amounts = merged.get(consumerAddress)!
    const parts = zeroAmounts()
    let total = 0
    for (let i = 0; i < n; i++) {
      const c = statisticsCategories[i]!
      parts[c] = amounts[i]!
      summary[c] += amounts[i]!
      total += amounts[i]!
    }
    return { consumerAddress, parts, total }
  })
  return { charges, summary: { ...summary, total: totalOf(summary) } }
}

/** The table computed straight from documents (the offline client; the tests' reference). */
export function statisticsFromDocuments(documents: Iterable<StatisticsDocument>, filter: StatisticsFilter): StatisticsTable {
  const partials: AddressAmounts[] = []
  for (const d of documents) {
    if (!documentCounts(d, filter)) continue
    const parts = zeroAmounts()
    const sign = signOf(d.kind)
    for (const l of d.lines) parts[categoryOfPartType[l.type]] += sign * l.amount
    partials.push({ consumerAddress: addressKeyOf(d.consumerAddress), parts })
  }
  return statisticsOf(partials)
}

/** The digits of an external id as a number, for the dropdown's numeric order ("A-1002" → 1002). */
export const externalIdNumber = (externalId: string): number => {
  const digits = externalId.replace(/\D/g, '')
  return digits ? Number(digits) : Number.POSITIVE_INFINITY
}

/** Agreements for the dropdown, sorted numerically by the digits of their external id (docs/PRODUCT.md §2). */
export const sortAgreementsByExternalId = <T extends { externalId: string }>(agreements: readonly T[]): T[] =>
  [...agreements].sort((a, b) => externalIdNumber(a.externalId) - externalIdNumber(b.externalId) || a.externalId.localeCompare(b.externalId))

/** A synced invoice or credit note (the `Invoice` of shared/contract/invoices.ts) as a statistics document. */
export const documentOfInvoice = (i: {
  kind: 'INVOICE' | 'CREDIT_NOTE'
  status: string
  agreementId: string
  issueDate: string
  consumerAddress: string | null
  payment: { paymentDate: string | null } | null
  invoiceArticles: readonly { type: PartType; totalPriceIncludingVat: number }[]
}): StatisticsDocument => ({
  kind: i.kind,
  status: i.status,
  agreementId: i.agreementId,
  paymentDate: i.payment?.paymentDate ?? null,
  issueDate: i.issueDate,
  consumerAddress: i.consumerAddress,
  lines: i.invoiceArticles.map((a) => ({ type: a.type, amount: a.totalPriceIncludingVat })),
})
