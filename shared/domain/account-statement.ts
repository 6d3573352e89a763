/**
 * A member's account statement (kontokort, decision 0068): every invoice, payment, failed charge,
 * credit note, refund paid out, write-off and payment outside Vipps MobilePay of one member in one
 * association, as dated rows in order with a running balance. One pure function, used by the
 * server's `GET /account-statement` and by the offline client on its synced invoices and charges
 * (like shared/domain/statistics.ts), so both answer the same rows.
 *
 * Sign convention: integer øre; a debit (+) is what the member owes more, a credit (−) what they
 * owe less. A balance above 0 is owed by the member, below 0 is in their favour.
 * docs/decisions/0068-member-account-statements.md explains each row.
 */
import type { InvoiceKind, InvoiceSettlement, InvoiceStatus } from './invoice'
import { copenhagenDateOf } from './copenhagen'

/** The fields of an invoice or credit note the statement reads (the API's `Invoice` has them all). */
export interface StatementDocument {
  id: string
  kind: InvoiceKind
  invoiceNumber: string
  /** The document's title line. */
  name: string
  chargeId: string
  creditedInvoice: { id: string; invoiceNumber: string } | null
  issueDate: string
  status: InvoiceStatus
  totalAmount: number
  payment: { paymentDate: string | null } | null
  settlement?: { kind: InvoiceSettlement; date: string; note: string | null } | null
}

/** A charge that did not collect (FAILED, DECLINED or EXPIRED); other charges are ignored. */
export interface StatementCharge {
  id: string
  /** The invoice it tries to collect (its own, or the invoice a retry collects again). */
  invoiceId: string | null
  status: string
  /** Copenhagen date it was seen failed; null: the day of `updatedAt`. */
  failedOn: string | null
  failureReason?: string | null
  updatedAt: string
}

export const statementRowKinds = [
  'OPENING_BALANCE',
  'INVOICE',
  'CHARGE_FAILED',
  'PAYMENT',
  'PAID_OUTSIDE',
  'CREDIT_NOTE',
  'WRITE_OFF',
  'REFUND_PAID',
  'CANCELLED',
] as const
export type StatementRowKind = (typeof statementRowKinds)[number]

export interface StatementRow {
  date: string
  kind: StatementRowKind
  /** The document the row is about (the voucher): its id and number; null on the opening balance. */
  documentId: string | null
  documentNumber: string | null
  /** The invoice a credit note credits, or null. */
  creditedNumber: string | null
  /** The document's title line, or a settlement's note. */
  text: string
  /** Why a charge failed, when known. */
  reason: string | null
  /** øre the member owes more (≥ 0). */
  debit: number
  /** øre the member owes less (≥ 0). */
  credit: number
  /** øre after this row: > 0 the member owes, < 0 in their favour. */
  balance: number
}

export interface AccountStatement {
  from: string
  to: string
  openingBalance: number
  closingBalance: number
  totalDebit: number
  totalCredit: number
  /** The opening balance first (when `from` is given), then the period's rows. */
  rows: StatementRow[]
}

/** Order of the kinds within one day: a document before what happened to it. */
const rank: Record<StatementRowKind, number> = {
  OPENING_BALANCE: 0,
  INVOICE: 1,
  CHARGE_FAILED: 2,
  PAYMENT: 3,
  PAID_OUTSIDE: 3,
  CREDIT_NOTE: 4,
  WRITE_OFF: 4,
  REFUND_PAID: 5,
  CANCELLED: 6,
}

const failedStatuses = new Set(['FAILED', 'DECLINED', 'EXPIRED'])

const dayOf = (iso: string): string => copenhagenDateOf(new Date(iso))

type Event = Omit<StatementRow, 'balance'> & { tie: string }

/** Every event of the documents and charges, unordered, without balances. */
export function statementEvents(documents: readonly StatementDocument[], charges: readonly StatementCharge[]): Event[] {
  const events: Event[] = []
  const byId = new Map(documents.map((d) => [d.id, d]))
  const credited = new Map<string, number>()
  for (const d of documents)
    if (d.kind === 'CREDIT_NOTE' && d.creditedInvoice) credited.set(d.creditedInvoice.id, (credited.get(d.creditedInvoice.id) ?? 0) + d.totalAmount)
  /** What an invoice's credit notes issued on or before `day` took off it. */
  const creditedBy = (invoiceId: string, day: string): number =>
    documents.reduce((sum, c) => (c.kind === 'CREDIT_NOTE' && c.creditedInvoice?.id === invoiceId && c.issueDate <= day ? sum + c.totalAmount : sum), 0)
  const row = (d: StatementDocument, kind: StatementRowKind, date: string, amount: number, extra: Partial<Event> = {}): Event => ({
    date,
    kind,
    documentId: d.id,
    documentNumber: d.invoiceNumber,
    creditedNumber: d.creditedInvoice?.invoiceNumber ?? null,
    text: d.name,
    reason: null,
    debit: amount > 0 ? amount : 0,
    credit: amount < 0 ? -amount : 0,
    tie: d.invoiceNumber.padStart(12, '0'),
    ...extra,
  })
  for (const d of documents) {
    // Dated vouchers only (decision 0081): a collected document is paid on its payment date, and one
    // without a payment date on its issue date, as the journal and the statistics count it.
    const paidOn = d.status === 'EXECUTED' ? (d.payment?.paymentDate ?? d.issueDate) : null
    if (d.kind === 'INVOICE') {
      events.push(row(d, 'INVOICE', d.issueDate, d.totalAmount))
      if (paidOn) events.push(row(d, 'PAYMENT', paidOn, -d.totalAmount))
      if (d.settlement?.kind === 'PAID_OUTSIDE') {
        // What was open on the day it was paid: a credit note issued later is its own row then, not a smaller payment back then.
        const open = Math.max(0, d.totalAmount - creditedBy(d.id, d.settlement.date))
        events.push(row(d, 'PAID_OUTSIDE', d.settlement.date, -open, { text: d.settlement.note || d.name }))
      }
      // A cancelled charge owes nothing (replaced or stopped on purpose): voided on its own issue day, so
      // the row never moves when the document is touched later; a settled one is closed by its settlement.
      // Only what its credit notes did not take off: writing off an overdue invoice whose charge was still
      // open cancels that charge too, and the write-off's credit note already credits it.
      const voided = Math.max(0, d.totalAmount - (credited.get(d.id) ?? 0))
      if (d.status === 'CANCELED' && !d.settlement && voided > 0) events.push(row(d, 'CANCELLED', d.issueDate, -voided))
      continue
    }
    if (d.settlement?.kind === 'WRITTEN_OFF') {
      events.push(row(d, 'WRITE_OFF', d.issueDate, -d.totalAmount, { text: d.settlement.note || d.name }))
      continue
    }
    // A refund: the credit note takes the amount off what the member owes; the money paid back puts it on again.
    events.push(row(d, 'CREDIT_NOTE', d.issueDate, -d.totalAmount))
    if (paidOn) events.push(row(d, 'REFUND_PAID', paidOn, d.totalAmount))
  }
  for (const c of charges) {
    if (!failedStatuses.has(c.status) || !c.invoiceId) continue
    const d = byId.get(c.invoiceId)
    if (!d || d.kind !== 'INVOICE') continue
    events.push(
      row(d, 'CHARGE_FAILED', c.failedOn ?? dayOf(c.updatedAt), 0, { reason: c.failureReason ?? null, tie: `${d.invoiceNumber.padStart(12, '0')}:${c.id}` }),
    )
  }
  return events
}

const compare = (a: Event, b: Event): number =>
  a.date < b.date ? -1
  : a.date > b.date ? 1
  : rank[a.kind] - rank[b.kind] ||
    (a.tie < b.tie ? -1
    : a.tie > b.tie ? 1
    : 0)

/**
 * The statement of the period `from`–`to` (inclusive `YYYY-MM-DD`): what happened before `from`
 * is carried as one opening balance row dated `from`; what happens after `to` is left out.
 */
export function accountStatement(
  documents: readonly StatementDocument[],
  charges: readonly StatementCharge[],
  period: { from: string; to: string },
): AccountStatement {
  const events = statementEvents(documents, charges).sort(compare)
  let balance = 0
  const rows: StatementRow[] = []
  for (const e of events) {
    if (e.date > period.to) break
    balance += e.debit - e.credit
    if (e.date < period.from) continue
    const { tie: _tie, ...rest } = e
    rows.push({ ...rest, balance })
  }
  const totalDebit = rows.reduce((s, r) => s + r.debit, 0)
  const totalCredit = rows.reduce((s, r) => s + r.credit, 0)
  const openingBalance = balance - totalDebit + totalCredit
  const opening: StatementRow = {
    date: period.from,
    kind: 'OPENING_BALANCE',
    documentId: null,
    documentNumber: null,
    creditedNumber: null,
    text: '',
    reason: null,
    debit: 0,
    credit: 0,
    balance: openingBalance,
  }
  return { from: period.from, to: period.to, openingBalance, closingBalance: balance, totalDebit, totalCredit, rows: [opening, ...rows] }
}

/** The period of a calendar year. */
export const yearPeriod = (year: number): { from: string; to: string } => ({ from: `${year}-01-01`, to: `${year}-12-31` })

/** Has the year ended on `today` (`YYYY-MM-DD`, Copenhagen)? Only then is its yearly statement sent (decision 0081). */
export const yearEnded = (year: number, today: string): boolean => today > `${year}-12-31`

/**
 * The period a statement of `year` covers on `today` (decision 0081): 1 January to `through` when
 * given (an interim statement); else the whole year once it has ended, or the year up to today
 * while it runs, which is an interim statement too.
 */
export function statementPeriod(year: number, today: string, through?: string): { from: string; to: string; interim: boolean } {
  const whole = yearPeriod(year)
  const to =
    through ?
      through < whole.to ?
        through
      : whole.to
    : today < whole.to && today >= whole.from ? today
    : whole.to
  return { from: whole.from, to, interim: to < whole.to || !yearEnded(year, today) }
}
