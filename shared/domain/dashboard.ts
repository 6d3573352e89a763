/**
 * The company dashboard (docs/PRODUCT.md §2 "Company dashboard"): what the association's
 * staff see first — this month's and this year's money, the last twelve months per category, the
 * next collection and what needs attention — computed from the rows the device has synced, so the
 * screen is the same online and offline.
 *
 * Nothing here adds money of its own: every figure is one of the shared rules applied to a period.
 * - Collected, refunded and net come from `statisticsFromDocuments` (shared/domain/statistics.ts),
 *   the function that finishes the charge statistics on the server and offline: net is exactly
 *   what `GET /company/{id}/charges-statistics` answers as `summary.total` for the same dates;
 *   collected is the same over the invoices alone, refunded over the credit notes alone (so
 *   net = collected − refunded).
 * - Outstanding is `openBalance` (shared/domain/invoice.ts), the debtor overview's rule: unpaid
 *   invoices (failed, or past due and not collected, not settled by staff) less what credit notes
 *   took off them.
 * - The next collection follows billing's own rules (`upcomingPayment`, `lastPaymentOf` of
 *   shared/domain/termination.ts) and the charges already made and still open.
 * - The heating-and-water period is the statistics' one (`heatingWaterPeriod`).
 * Dates are `YYYY-MM-DD` Copenhagen calendar dates, money integer øre.
 */
import type { PartType, PaymentPeriod } from './agreement-parts'
import { plusDays } from './billing-period'
import type { CompanyStatus } from './company-status'
import { daysInMonth } from './day-month'
import { isUnpaid, openBalance, type InvoiceKind, type InvoiceSettlement, type InvoiceStatus } from './invoice'
import { countedDateOf, documentOfInvoice, statisticsCategories, statisticsFromDocuments, type CategoryAmounts, type StatisticsDocument } from './statistics'
import { heatingWaterPeriod, type DateRange } from './statistics-period'
import { lastPaymentOf, upcomingPayment } from './termination'

/** How many months the chart shows, the current one last. */
export const DASHBOARD_MONTHS = 12
/** A termination date this many days ahead (or fewer) is "soon". */
export const TERMINATION_SOON_DAYS = 30

/** An invoice or credit note as synced (the `Invoice` of shared/contract/invoices.ts, the fields used here). */
export interface DashboardDocument {
  id: string
  kind: InvoiceKind
  status: InvoiceStatus
  agreementId: string
  issueDate: string
  dueDate: string
  totalAmount: number
  consumerAddress: string | null
  settlement?: { kind: InvoiceSettlement } | null
  creditedInvoice: { id: string } | null
  payment: { paymentDate: string | null } | null
  invoiceArticles: readonly { type: PartType; totalPriceIncludingVat: number }[]
}

/** A charge as synced (the `Charge` of shared/contract/agreements.ts, the fields used here). */
export interface DashboardCharge {
  id: string
  agreementId: string
  amount: number
  due: string
  status: string
  invoiceId: string | null
}

/** An agreement as synced (the `Agreement` of shared/contract/agreements.ts, the fields used here). */
export interface DashboardAgreement {
  id: string
  externalId: string
  status: string
  member: { fullName: string }
  price: number
  paymentPeriod: PaymentPeriod
  startPaymentDate: string
  nextRegularPaymentDate: string | null
  terminationDate: string | null
  finalPaymentRequired: boolean
  collectionProblem?: string | null
}

export interface DashboardCompany {
  id: string
  status: CompanyStatus
  heatingWaterPeriodStartDate: string | null
  heatingWaterPeriodEndDate: string | null
}

export interface DashboardProvider {
  id: string
  isActive: boolean
  providerName: string
  /** The provider's registered webhooks. */
  webhooks: number
}

export interface DashboardInput {
  today: string
  company: DashboardCompany | null
  documents: readonly DashboardDocument[]
  charges: readonly DashboardCharge[]
  agreements: readonly DashboardAgreement[]
  providers: readonly DashboardProvider[]
}

// ---- periods

/** `YYYY-MM` of a date. */
export const monthOf = (date: string): string => date.slice(0, 7)

/** The first and last day of a month (`YYYY-MM`). */
export function monthRange(month: string): DateRange {
  const days = daysInMonth(Number(month.slice(5, 7)), Number(month.slice(0, 4)))
  return { startDate: `${month}-01`, endDate: `${month}-${String(days).padStart(2, '0')}` }
}

/** The month `n` months after `month` (negative: before). */
export function plusMonths(month: string, n: number): string {
  const index = Number(month.slice(0, 4)) * 12 + Number(month.slice(5, 7)) - 1 + n
  return `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, '0')}`
}

/** The last `count` months up to and including today's, oldest first. */
export const lastMonths = (today: string, count = DASHBOARD_MONTHS): string[] =>
  Array.from({ length: count }, (_, i) => plusMonths(monthOf(today), i - count + 1))

/** This month so far: the 1st up to today. */
export const monthToDate = (today: string): DateRange => ({ startDate: `${monthOf(today)}-01`, endDate: today })

/** This year so far: 1 January up to today. */
export const yearToDate = (today: string): DateRange => ({ startDate: `${today.slice(0, 4)}-01-01`, endDate: today })

// ---- money of a period

/** What moved in a period, in øre: `net` equals the charge statistics' `summary.total` for the same dates. */
export interface MoneyMoved {
  collected: number
  refunded: number
  net: number
  /** Net per category (the statistics' `summary`). */
  categories: CategoryAmounts
}

/** The statistics documents of synced invoices, split once by kind. */
interface Ledger {
  all: StatisticsDocument[]
  invoices: StatisticsDocument[]
  creditNotes: StatisticsDocument[]
}

function ledgerOf(documents: readonly StatisticsDocument[]): Ledger {
  return { all: [...documents], invoices: documents.filter((d) => d.kind === 'INVOICE'), creditNotes: documents.filter((d) => d.kind === 'CREDIT_NOTE') }
}

function moneyMoved(ledger: Ledger, range: DateRange): MoneyMoved {
  const filter = { startDate: range.startDate, endDate: range.endDate }
  const all = statisticsFromDocuments(ledger.all, filter).summary
  const collected = statisticsFromDocuments(ledger.invoices, filter).summary.total
  // Credit notes count negative in the statistics; refunded is shown as a positive amount.
  const refunded = -statisticsFromDocuments(ledger.creditNotes, filter).summary.total
  const { total, ...categories } = all
  return { collected, refunded, net: total, categories }
}

/** The period's figures on the dashboard. */
export interface PeriodFigures extends MoneyMoved, DateRange {
  /** Open amount of the unpaid invoices due in the period (the debtor rule). */
  outstanding: number
}

/** Documents in the debtor rule's shape (credit notes matched to the invoice they credit). */
const debtorDocument = (d: DashboardDocument) => ({
  id: d.id,
  kind: d.kind,
  status: d.status,
  dueDate: d.dueDate,
  totalAmount: d.totalAmount,
  settlement: d.settlement ?? null,
  creditedInvoiceId: d.creditedInvoice?.id ?? null,
})
type DebtorDocument = ReturnType<typeof debtorDocument>

function outstandingIn(debtorDocuments: readonly DebtorDocument[], range: DateRange | null, today: string): number {
  const inRange =
    range ? debtorDocuments.filter((d) => d.kind === 'CREDIT_NOTE' || (d.dueDate >= range.startDate && d.dueDate <= range.endDate)) : debtorDocuments
  return openBalance(inRange, today)
}

// ---- the months of the chart

export interface MonthFigures extends MoneyMoved, DateRange {
  /** `YYYY-MM` */
  month: string
}

/** The last twelve months' money, each month as the statistics would answer for its first to last day. */
function monthsOf(documents: readonly StatisticsDocument[], months: readonly string[]): MonthFigures[] {
  // One pass to sort the documents into their months; then each month is the statistics of its own.
  const byMonth = new Map<string, StatisticsDocument[]>(months.map((m) => [m, []]))
  for (const d of documents) byMonth.get(monthOf(countedDateOf(d)))?.push(d)
  return months.map((month) => {
    const range = monthRange(month)
    return { month, ...range, ...moneyMoved(ledgerOf(byMonth.get(month)!), range) }
  })
}

/** The categories that have any money in the months (the chart leaves the others out), in the statistics' order. */
export const categoriesWithMoney = (months: readonly MonthFigures[]): (typeof statisticsCategories)[number][] =>
  statisticsCategories.filter((c) => months.some((m) => m.categories[c] !== 0))

/**
 * The company's heating-and-water period to mark on the chart: the statistics' one (the latest
 * that has started by today), cut to the months shown; null when the company has none or it lies
 * outside them.
 */
export function heatingWaterSpan(
  today: string,
  window: DateRange,
  company: Pick<DashboardCompany, 'heatingWaterPeriodStartDate' | 'heatingWaterPeriodEndDate'> | null,
): {
  period: DateRange
  shown: DateRange
} | null {
  const period = company ? heatingWaterPeriod(today, company.heatingWaterPeriodStartDate, company.heatingWaterPeriodEndDate) : undefined
  if (!period || period.endDate < window.startDate || period.startDate > window.endDate) return null
  return {
    period,
    shown: {
      startDate: period.startDate > window.startDate ? period.startDate : window.startDate,
      endDate: period.endDate < window.endDate ? period.endDate : window.endDate,
    },
  }
}

// ---- the next collection

export interface NextCollection {
  date: string
  /** What is expected to be withdrawn that day, øre. */
  amount: number
  /** How many payments make it up. */
  payments: number
}

const OPEN_CHARGE = new Set(['CREATED', 'RESERVED'])

/**
 * The next day money is withdrawn, and how much: the charges already made and still open (due
 * today or later), and for each agreement billing will charge (ACCEPTED, nothing stopping its
 * collection) its next payment — the period's price, or a termination's last payment — unless
 * that charge is already made. Null when nothing is coming.
 */
export function nextCollection(
  agreements: readonly DashboardAgreement[],
  charges: readonly DashboardCharge[],
  today: string,
  companyCollects = true,
): NextCollection | null {
  if (!companyCollects) return null
  const coming: { date: string; amount: number }[] = []
  const made = new Set<string>()
  for (const c of charges) {
    if (!OPEN_CHARGE.has(c.status) || c.due < today) continue
    coming.push({ date: c.due, amount: c.amount })
    made.add(`${c.agreementId}|${c.due}`)
  }
  for (const a of agreements) {
    if (a.status !== 'ACCEPTED' || a.collectionProblem) continue
    const next = upcomingPayment(a)
    if (!next || next.date < today || made.has(`${a.id}|${next.date}`)) continue
    const amount =
      next.kind === 'REGULAR' ? a.price
      : a.terminationDate ? (lastPaymentOf(a, a.terminationDate)?.amount ?? 0)
      : 0
    if (amount > 0) coming.push({ date: next.date, amount })
  }
  if (coming.length === 0) return null
  const date = coming.reduce((first, c) => (c.date < first ? c.date : first), coming[0]!.date)
  const that = coming.filter((c) => c.date === date)
  return { date, amount: that.reduce((s, c) => s + c.amount, 0), payments: that.length }
}

// ---- what needs attention

export type AttentionItem =
  | { kind: 'company-not-active'; companyId: string; status: CompanyStatus }
  | { kind: 'provider-without-webhooks'; companyId: string; providerId: string; providerName: string }
  | { kind: 'failed-charges'; agreementId: string; externalId: string; memberName: string; charges: number; amount: number; since: string }
  | { kind: 'termination-soon'; agreementId: string; externalId: string; memberName: string; terminationDate: string }
  | { kind: 'awaiting-acceptance'; agreementId: string; externalId: string; memberName: string; status: 'CREATED' | 'PENDING' }

const FAILED_CHARGE = new Set(['FAILED', 'DECLINED'])
const ENDED = new Set(['CLOSED', 'REJECTED', 'EXPIRED'])

const byExternalId = (a: { externalId: string }, b: { externalId: string }) =>
  a.externalId.localeCompare(b.externalId, 'da', { numeric: true }) || (a.externalId < b.externalId ? -1 : 1)

/**
 * What staff should look at, most pressing first: the company not collecting, an active payment
 * provider without webhooks (payments are then only learnt by polling), failed charges still
 * unpaid (per agreement, oldest first), terminations within `TERMINATION_SOON_DAYS` days (soonest
 * first), agreements waiting for the member's acceptance.
 */
export function attentionItems(input: DashboardInput): AttentionItem[] {
  const { today, company } = input
  const items: AttentionItem[] = []
  if (company && company.status !== 'ACTIVE') items.push({ kind: 'company-not-active', companyId: company.id, status: company.status })
  if (company)
    for (const p of input.providers)
      if (p.isActive && p.webhooks === 0)
        items.push({ kind: 'provider-without-webhooks', companyId: company.id, providerId: p.id, providerName: p.providerName })

  const agreements = new Map(input.agreements.map((a) => [a.id, a]))
  const documents = new Map(input.documents.map((d) => [d.id, d]))
  const creditNotesOf = new Map<string, DashboardDocument[]>()
  for (const d of input.documents)
    if (d.kind === 'CREDIT_NOTE' && d.creditedInvoice) creditNotesOf.set(d.creditedInvoice.id, [...(creditNotesOf.get(d.creditedInvoice.id) ?? []), d])

  // Failed charges whose invoice is still unpaid (a retry collected, paid outside or written off: settled).
  const failed = new Map<string, { charges: number; invoices: Set<string>; since: string }>()
  for (const c of input.charges) {
    if (!FAILED_CHARGE.has(c.status)) continue
    const invoice = c.invoiceId ? documents.get(c.invoiceId) : undefined
    if (invoice && !isUnpaid(debtorDocument(invoice), today)) continue
    const entry = failed.get(c.agreementId) ?? { charges: 0, invoices: new Set<string>(), since: c.due }
    entry.charges++
    if (invoice) entry.invoices.add(invoice.id)
    if (c.due < entry.since) entry.since = c.due
    failed.set(c.agreementId, entry)
  }
  const failedItems: Extract<AttentionItem, { kind: 'failed-charges' }>[] = []
  for (const [agreementId, f] of failed) {
    const a = agreements.get(agreementId)
    const owed = [...f.invoices].reduce((sum, id) => sum + openBalance([documents.get(id)!, ...(creditNotesOf.get(id) ?? [])].map(debtorDocument), today), 0)
    failedItems.push({
      kind: 'failed-charges',
      agreementId,
      externalId: a?.externalId ?? '',
      memberName: a?.member.fullName ?? '',
      charges: f.charges,
      amount: owed,
      since: f.since,
    })
  }
  failedItems.sort((x, y) =>
    x.since < y.since ? -1
    : x.since > y.since ? 1
    : byExternalId(x, y),
  )
  items.push(...failedItems)

  const horizon = plusDays(today, TERMINATION_SOON_DAYS)
  const ending = input.agreements
    .filter((a) => a.terminationDate && a.terminationDate >= today && a.terminationDate <= horizon && !ENDED.has(a.status))
    .sort((x, y) =>
      x.terminationDate! < y.terminationDate! ? -1
      : x.terminationDate! > y.terminationDate! ? 1
      : byExternalId(x, y),
    )
  for (const a of ending)
    items.push({ kind: 'termination-soon', agreementId: a.id, externalId: a.externalId, memberName: a.member.fullName, terminationDate: a.terminationDate! })

  const waiting = input.agreements.filter((a) => (a.status === 'CREATED' || a.status === 'PENDING') && !a.terminationDate).sort(byExternalId)
  for (const a of waiting)
    items.push({
      kind: 'awaiting-acceptance',
      agreementId: a.id,
      externalId: a.externalId,
      memberName: a.member.fullName,
      status: a.status as 'CREATED' | 'PENDING',
    })
  return items
}

// ---- the whole screen

export interface Dashboard {
  today: string
  month: PeriodFigures
  year: PeriodFigures
  /** Every unpaid invoice of the company: the debtor overview's total. */
  outstanding: { amount: number; invoices: number }
  next: NextCollection | null
  /** The last twelve months, oldest first. */
  months: MonthFigures[]
  heatingWater: { period: DateRange; shown: DateRange } | null
  attention: AttentionItem[]
}

/** Everything the dashboard shows, from the synced rows. */
export function dashboardOf(input: DashboardInput): Dashboard {
  const { today } = input
  const statistics = input.documents.map(documentOfInvoice)
  const ledger = ledgerOf(statistics)
  const debtors = input.documents.map(debtorDocument)
  const period = (range: DateRange): PeriodFigures => ({ ...range, ...moneyMoved(ledger, range), outstanding: outstandingIn(debtors, range, today) })
  const months = lastMonths(today)
  return {
    today,
    month: period(monthToDate(today)),
    year: period(yearToDate(today)),
    outstanding: { amount: outstandingIn(debtors, null, today), invoices: debtors.filter((d) => isUnpaid(d, today)).length },
    // Only an ACTIVE company collects (`collectsCharges` of company-status.ts; compared here, as a
    // value import of that module would split it into a chunk of its own in the app's first route).
    next: nextCollection(input.agreements, input.charges, today, input.company ? input.company.status === 'ACTIVE' : true),
    months: monthsOf(statistics, months),
    heatingWater: heatingWaterSpan(today, { startDate: monthRange(months[0]!).startDate, endDate: monthRange(months.at(-1)!).endDate }, input.company),
    attention: attentionItems(input),
  }
}
