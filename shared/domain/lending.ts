/**
 * Lending (docs/PRODUCT.md "Lending", docs/decisions/0064-lending.md): the loan's life
 * cycle, which dates overlap, and when the return reminders go out. Pure, so the server's rules and
 * the client's buttons agree.
 */
import { TZDate } from '@date-fns/tz'
import { COPENHAGEN, copenhagenDateOf } from './copenhagen'

export const loanStatuses = ['REQUESTED', 'ACCEPTED', 'DECLINED', 'CANCELLED', 'CONFIRMED', 'HANDED_OVER', 'RETURNED'] as const
export type LoanStatus = (typeof loanStatuses)[number]

/** What one of the two parties does to a loan. `terms` changes the contract (dates, condition). */
export const loanActions = ['accept', 'decline', 'cancel', 'terms', 'confirm', 'handover', 'return'] as const
export type LoanAction = (typeof loanActions)[number]
export type LoanParty = 'lender' | 'borrower'

/** A loan in these states holds its dates: a request overlapping one is refused. */
export const bookedStatuses: readonly LoanStatus[] = ['ACCEPTED', 'CONFIRMED', 'HANDED_OVER']
/** A loan in these states is over. */
export const closedStatuses: readonly LoanStatus[] = ['DECLINED', 'CANCELLED', 'RETURNED']

/** A loan is at most this many days long (both ends counted). */
export const MAX_LOAN_DAYS = 60
/** A request starts at most this many days ahead. */
export const MAX_DAYS_AHEAD = 365
/** Reminders go out at this Copenhagen hour. */
export const REMINDER_HOUR = 8

const rules: Record<LoanAction, { from: readonly LoanStatus[]; by: readonly LoanParty[] }> = {
  accept: { from: ['REQUESTED'], by: ['lender'] },
  decline: { from: ['REQUESTED', 'ACCEPTED'], by: ['lender'] },
  cancel: { from: ['REQUESTED', 'ACCEPTED', 'CONFIRMED'], by: ['borrower'] },
  terms: { from: ['ACCEPTED'], by: ['lender'] },
  confirm: { from: ['ACCEPTED'], by: ['lender', 'borrower'] },
  handover: { from: ['CONFIRMED'], by: ['lender'] },
  return: { from: ['HANDED_OVER'], by: ['lender'] },
}

/** The parties who may ever take `action` (a step by anyone else is not theirs to take: 403). */
export const partiesFor = (action: LoanAction): readonly LoanParty[] => rules[action].by

export interface LoanState {
  status: LoanStatus
  lenderConfirmedAt: string | null
  borrowerConfirmedAt: string | null
}

/** Whether `party` may take `action` now (a party who already confirmed may not confirm again). */
export function mayTake(loan: LoanState, action: LoanAction, party: LoanParty): boolean {
  const rule = rules[action]
  if (!rule.from.includes(loan.status) || !rule.by.includes(party)) return false
  if (action === 'confirm') return (party === 'lender' ? loan.lenderConfirmedAt : loan.borrowerConfirmedAt) === null
  return true
}

/**
 * The loan after `party` took `action` at `at` (undefined when it may not). Changing the terms
 * clears both confirmations; the second confirmation makes the contract CONFIRMED.
 */
export function take(loan: LoanState, action: LoanAction, party: LoanParty, at: string): LoanState | undefined {
  if (!mayTake(loan, action, party)) return undefined
  switch (action) {
    case 'accept':
      return { ...loan, status: 'ACCEPTED' }
    case 'decline':
      return { ...loan, status: 'DECLINED' }
    case 'cancel':
      return { ...loan, status: 'CANCELLED' }
    case 'terms':
      return { ...loan, lenderConfirmedAt: null, borrowerConfirmedAt: null }
    case 'confirm': {
      const next = { ...loan, [party === 'lender' ? 'lenderConfirmedAt' : 'borrowerConfirmedAt']: at }
      return next.lenderConfirmedAt && next.borrowerConfirmedAt ? { ...next, status: 'CONFIRMED' } : next
    }
    case 'handover':
      return { ...loan, status: 'HANDED_OVER' }
    case 'return':
      return { ...loan, status: 'RETURNED' }
  }
}

export interface Span {
  fromDate: string
  toDate: string
}

/** The date `days` after (or before) a `YYYY-MM-DD` date. */
export const addDays = (date: string, days: number): string => new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10)

/** The handover can be recorded from the day before the loan's first day (Copenhagen), not earlier. */
export const handoverFrom = (fromDate: string): string => addDays(fromDate, -1)

/**
 * The days a loan holds its item in the calendar: the agreed days, except that a returned loan ends
 * on the day it came back (early or late) and starts no later than its handover.
 */
export function heldSpan(loan: Span & { status?: LoanStatus; handedOverAt?: string | null; returnedAt?: string | null }): Span {
  if (loan.status !== 'RETURNED' || !loan.returnedAt) return { fromDate: loan.fromDate, toDate: loan.toDate }
  const back = copenhagenDateOf(new Date(loan.returnedAt))
  const out = loan.handedOverAt ? copenhagenDateOf(new Date(loan.handedOverAt)) : loan.fromDate
  const fromDate = out < loan.fromDate ? out : loan.fromDate
  return { fromDate: fromDate <= back ? fromDate : back, toDate: back }
}

/** Two inclusive date spans (`YYYY-MM-DD`) share at least one day. */
export const overlaps = (a: Span, b: Span): boolean => a.fromDate <= b.toDate && b.fromDate <= a.toDate

/** Days of a span, both ends counted. */
export const spanDays = (s: Span): number => Math.round((Date.parse(`${s.toDate}T00:00:00Z`) - Date.parse(`${s.fromDate}T00:00:00Z`)) / 86_400_000) + 1

export type SpanProblem = 'fromInPast' | 'toBeforeFrom' | 'tooLong' | 'tooFarAhead'

/** What is wrong with a requested span on `today` (Copenhagen), or undefined. */
export function spanProblem(s: Span, today: string): SpanProblem | undefined {
  if (s.toDate < s.fromDate) return 'toBeforeFrom'
  if (s.fromDate < today) return 'fromInPast'
  if (spanDays(s) > MAX_LOAN_DAYS) return 'tooLong'
  if (spanDays({ fromDate: today, toDate: s.fromDate }) - 1 > MAX_DAYS_AHEAD) return 'tooFarAhead'
  return undefined
}

export const reminderKinds = ['DAY_BEFORE', 'RETURN_DAY', 'OVERDUE'] as const
export type ReminderKind = (typeof reminderKinds)[number]

const at8 = (date: string, plus: number): string => {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number]
  return new Date(new TZDate(y, m - 1, d + plus, REMINDER_HOUR, 0, COPENHAGEN).getTime()).toISOString()
}

/**
 * When the reminders of a loan returned on `toDate` go out (08:00 Copenhagen): to the borrower the
 * day before and on the day, to the lender the day after when it is not back (overdue).
 */
export const reminderTimes = (toDate: string): Record<ReminderKind, string> => ({
  DAY_BEFORE: at8(toDate, -1),
  RETURN_DAY: at8(toDate, 0),
  OVERDUE: at8(toDate, 1),
})

/** A handed-over loan is overdue from the day after its return date. */
export const isOverdue = (loan: { status: LoanStatus; toDate: string }, today: string): boolean => loan.status === 'HANDED_OVER' && loan.toDate < today

/** The days of a month (`YYYY-MM`) as `YYYY-MM-DD`, for the calendar. */
export function daysOfMonth(month: string): string[] {
  const [y, m] = month.split('-').map(Number) as [number, number]
  const n = new Date(Date.UTC(y, m, 0)).getUTCDate()
  return Array.from({ length: n }, (_, i) => `${month}-${String(i + 1).padStart(2, '0')}`)
}

/** Monday-first weeks of a month for a calendar grid: each week 7 cells, a day or null. */
export function weeksOfMonth(month: string): (string | null)[][] {
  const days = daysOfMonth(month)
  const first = new Date(`${days[0]}T00:00:00Z`).getUTCDay()
  const cells: (string | null)[] = [...Array<null>((first + 6) % 7).fill(null), ...days]
  while (cells.length % 7) cells.push(null)
  return Array.from({ length: cells.length / 7 }, (_, i) => cells.slice(i * 7, i * 7 + 7))
}

/** The month before or after `YYYY-MM`. */
export function shiftMonth(month: string, by: number): string {
  const [y, m] = month.split('-').map(Number) as [number, number]
  const d = new Date(Date.UTC(y, m - 1 + by, 1))
  return `${d.getUTCFullYear()}-${String(d.getUTCMonth() + 1).padStart(2, '0')}`
}
