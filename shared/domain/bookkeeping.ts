/**
 * Bookkeeping (docs/BOOKKEEPING.md, decision 0067): the account plan, the journal
 * built from invoices and credit notes, and the months. Pure: the server builds journal entries
 * here from the rows it reads, so the rules live in one place.
 *
 * Rules:
 * - The journal is on a cash basis: money that moved. A collected charge (an INVOICE with status
 *   EXECUTED) on its payment date; a refund (a CREDIT_NOTE with status EXECUTED) on its payment
 *   date; an invoice marked PAID_OUTSIDE on its settlement date, against its own contra account
 *   (the member paid the association's bank directly). A write-off moves no money and posts
 *   nothing (the uncollected invoice was never posted either).
 * - One entry per voucher, event, account and VAT code: an invoice's lines summed exactly in øre.
 * - Amounts are debit-positive on the entry's account (the convention of e-conomic's and Dinero's
 *   journals): money collected credits an income account, so it is negative; a refund debits it,
 *   so it is positive. The contra account takes the opposite side.
 * - The VAT code of an account applies to lines with VAT (25 %); VAT-free lines have none.
 */
import { partTypes, type PartType } from './agreement-parts'

export interface PartAccount {
  account: string
  /** The VAT code for lines with VAT (e.g. "U25"); VAT-free lines post without one. */
  vatCode: string
}

export interface AccountPlan {
  parts: Record<PartType, PartAccount>
  /** Refunds (credit notes): '' posts each refund line back on its part's own account. */
  refundAccount: string
  /** Vipps MobilePay's fees, if known (the fees are settled by Vipps MobilePay and are not in the journal). */
  feeAccount: string
  /** Where Vipps MobilePay pays out: the contra account of collected charges and refunds. */
  clearingAccount: string
  /** The contra account of invoices paid outside Vipps MobilePay (the association's bank). */
  outsideAccount: string
}

/** e-conomic-style standard numbers for an association's income (1000s), fees (3000s) and bank (5800s). */
export const defaultAccountPlan = (): AccountPlan => ({
  parts: {
    COMMON_EXPENSES: { account: '1010', vatCode: 'U25' },
    HEAT: { account: '1020', vatCode: 'U25' },
    HOT_AND_COLD_WATER: { account: '1030', vatCode: 'U25' },
    HOT_WATER: { account: '1031', vatCode: 'U25' },
    COLD_WATER: { account: '1032', vatCode: 'U25' },
    FEE: { account: '1040', vatCode: 'U25' },
    ADDITION: { account: '1050', vatCode: 'U25' },
    OTHER: { account: '1090', vatCode: 'U25' },
  },
  refundAccount: '',
  feeAccount: '3620',
  clearingAccount: '5820',
  outsideAccount: '5810',
})

export const ACCOUNT_PATTERN = /^\d{1,10}$/
export const VAT_CODE_PATTERN = /^[A-Za-z0-9]{0,10}$/

/** A stored plan read back: any part type or field it lacks (a plan stored before it existed) takes the default. */
export function planOf(stored: unknown): AccountPlan {
  const d = defaultAccountPlan()
  if (!stored || typeof stored !== 'object') return d
  const s = stored as Partial<AccountPlan>
  const text = (v: unknown, fallback: string) => (typeof v === 'string' ? v : fallback)
  const parts = {} as Record<PartType, PartAccount>
  for (const t of partTypes) {
    const p = s.parts?.[t]
    parts[t] = { account: text(p?.account, d.parts[t].account), vatCode: text(p?.vatCode, d.parts[t].vatCode) }
  }
  return {
    parts,
    refundAccount: text(s.refundAccount, d.refundAccount),
    feeAccount: text(s.feeAccount, d.feeAccount),
    clearingAccount: text(s.clearingAccount, d.clearingAccount),
    outsideAccount: text(s.outsideAccount, d.outsideAccount),
  }
}

export const journalEvents = ['COLLECTED', 'REFUNDED', 'PAID_OUTSIDE'] as const
export type JournalEvent = (typeof journalEvents)[number]

/** A voucher's money on one event, per part type and VAT rate (what the server reads). */
export interface VoucherLines {
  invoiceId: string
  number: number
  event: JournalEvent
  /** The Copenhagen date of the event. */
  date: string
  memberName: string
  address: string | null
  description: string
  /** When an earlier export first included this event; null when never. */
  exportedAt: string | null
  /** Gross øre (incl. VAT), positive on both kinds. */
  lines: readonly { type: PartType; vatRate: number; amount: number }[]
}

export interface JournalEntry {
  date: string
  voucher: number
  invoiceId: string
  event: JournalEvent
  account: string
  contraAccount: string
  vatCode: string
  /** øre, debit-positive on `account`. */
  amount: number
  text: string
  exportedAt: string | null
}

/** The account and VAT code a line posts to on an event. */
export function accountOf(plan: AccountPlan, event: JournalEvent, type: PartType, vatRate: number): { account: string; vatCode: string } {
  const part = plan.parts[type]
  const account = event === 'REFUNDED' && plan.refundAccount ? plan.refundAccount : part.account
  return { account, vatCode: vatRate > 0 ? part.vatCode : '' }
}

export const contraOf = (plan: AccountPlan, event: JournalEvent): string => (event === 'PAID_OUTSIDE' ? plan.outsideAccount : plan.clearingAccount)

/** Debit-positive sign of an event's lines on the income side: collected money credits (−), a refund debits (+). */
export const signOfEvent = (event: JournalEvent): 1 | -1 => (event === 'REFUNDED' ? 1 : -1)

/** The entry's text: member, address, description (one line, at most 250 characters). */
export const entryText = (v: Pick<VoucherLines, 'memberName' | 'address' | 'description'>): string =>
  [v.memberName, v.address, v.description]
    .filter((x): x is string => !!x && x.trim() !== '')
    .join(', ')
    .replace(/\s+/g, ' ')
    .slice(0, 250)

/**
 * The entries of vouchers, in the vouchers' order: one per account and VAT code of each voucher's
 * event, summed exactly in øre, in the order the accounts first appear on its lines. Lines netting
 * to 0 on an account leave no entry.
 */
export function journalOf(plan: AccountPlan, vouchers: Iterable<VoucherLines>): JournalEntry[] {
  const out: JournalEntry[] = []
  for (const v of vouchers) {
    const sums = new Map<string, { account: string; vatCode: string; amount: number }>()
    for (const l of v.lines) {
      const a = accountOf(plan, v.event, l.type, l.vatRate)
      const key = `${a.account}\u0000${a.vatCode}`
      const s = sums.get(key)
      if (s) s.amount += l.amount
      else sums.set(key, { ...a, amount: l.amount })
    }
    const text = entryText(v)
    const sign = signOfEvent(v.event)
    for (const s of sums.values()) {
      if (s.amount === 0) continue
      out.push({
        date: v.date,
        voucher: v.number,
        invoiceId: v.invoiceId,
        event: v.event,
        account: s.account,
        contraAccount: contraOf(plan, v.event),
        vatCode: s.vatCode,
        amount: sign * s.amount,
        text,
        exportedAt: v.exportedAt,
      })
    }
  }
  return out
}

export interface AccountTotal {
  account: string
  /** øre, debit-positive. */
  amount: number
}

/** Totals per account (income accounts and contra accounts both), in account number order. */
export function totalsOf(entries: Iterable<Pick<JournalEntry, 'account' | 'contraAccount' | 'amount'>>): AccountTotal[] {
  const totals = new Map<string, number>()
  const add = (account: string, amount: number) => totals.set(account, (totals.get(account) ?? 0) + amount)
  for (const e of entries) {
    add(e.account, e.amount)
    add(e.contraAccount, -e.amount)
  }
  return [...totals]
    .map(([account, amount]) => ({ account, amount }))
    .sort(
      (a, b) =>
        a.account.length - b.account.length ||
        (a.account < b.account ? -1
        : a.account > b.account ? 1
        : 0),
    )
}

/** `YYYY-MM` of a date. */
export const monthOf = (date: string): string => date.slice(0, 7)
export const MONTH_PATTERN = /^\d{4}-(0[1-9]|1[0-2])$/

/** The first and last day of a month `YYYY-MM`. */
export function monthRange(month: string): { from: string; to: string } {
  const [y, m] = month.split('-').map(Number) as [number, number]
  const last = new Date(Date.UTC(y, m, 0)).getUTCDate()
  return { from: `${month}-01`, to: `${month}-${String(last).padStart(2, '0')}` }
}

/** Whether a month has ended on `today` (a Copenhagen date): only such a month can be closed. */
export const monthHasEnded = (month: string, today: string): boolean => month < monthOf(today)

/** The month before `today`'s (the default of the screen's period). */
export function previousMonth(today: string): string {
  const [y, m] = monthOf(today).split('-').map(Number) as [number, number]
  return m === 1 ? `${y - 1}-12` : `${y}-${String(m - 1).padStart(2, '0')}`
}
