/** Words and pure rules of lending's screens (decision 0064). */
import { msg } from '@lingui/core/macro'
import type { MessageDescriptor } from '@lingui/core'
import type { DepositState, Loan, LoanStatus } from '../../../shared/contract/lending'
import { bookedStatuses, heldSpan, overlaps } from '../../../shared/domain/lending'

export const loanStatusLabels: Record<LoanStatus, MessageDescriptor> = {
  REQUESTED: msg`Requested`,
  ACCEPTED: msg`Accepted`,
  DECLINED: msg`Declined`,
  CANCELLED: msg`Cancelled`,
  CONFIRMED: msg`Contract confirmed`,
  HANDED_OVER: msg`Lent out`,
  RETURNED: msg`Returned`,
}

export const loanStatusVariant = {
  REQUESTED: 'info',
  ACCEPTED: 'warning',
  DECLINED: 'neutral',
  CANCELLED: 'neutral',
  CONFIRMED: 'success',
  HANDED_OVER: 'warning',
  RETURNED: 'neutral',
} as const

export const depositLabels: Record<DepositState, MessageDescriptor> = {
  NONE: msg`No deposit`,
  PENDING: msg`Collected when both have confirmed`,
  QUEUED: msg`Queued for Vipps MobilePay`,
  CANCELLING: msg`Cancellation queued`,
  COLLECTED: msg`Collected`,
  FAILED: msg`Payment failed`,
  CANCELLED: msg`Called off`,
  HELD: msg`Held: the administration settles it`,
  KEPT: msg`Kept by the association`,
  REFUNDING: msg`Refund queued`,
  REFUNDED: msg`Refunded`,
}

type Booking = Partial<Pick<Loan, 'id' | 'status' | 'fromDate' | 'toDate' | 'borrower'>>

/** The loans that hold an item's days (accepted, confirmed, lent out). */
export const bookingsOf = <T extends Booking>(loans: readonly T[]): T[] =>
  loans.filter((l) => l.status && bookedStatuses.includes(l.status) && l.fromDate && l.toDate)

/**
 * What the item's calendar shows: the bookings, and the loans already returned over the days they
 * really held the item (until the day it came back, not the agreed last day).
 */
export const calendarLoans = <T extends Booking & Partial<Pick<Loan, 'handedOverAt' | 'returnedAt'>>>(loans: readonly T[]): T[] => [
  ...bookingsOf(loans),
  ...loans
    .filter((l) => l.status === 'RETURNED' && l.fromDate && l.toDate)
    .map((l) => ({ ...l, ...heldSpan({ ...l, fromDate: l.fromDate!, toDate: l.toDate! }) })),
]

/** The booking holding `day`, if any. */
export const bookingOn = <T extends Booking>(day: string, bookings: readonly T[]): T | undefined => bookings.find((b) => b.fromDate! <= day && day <= b.toDate!)

/** Whether `from`–`to` is free of the bookings (what the server's overlap rule will say). */
export const isFree = (span: { fromDate: string; toDate: string }, bookings: readonly Booking[]): boolean =>
  !bookings.some((b) => overlaps(span, { fromDate: b.fromDate!, toDate: b.toDate! }))

/** Now or next: the booking holding today, else the next one to start, for the list's availability. */
export function availability<T extends Booking>(bookings: readonly T[], today: string): { now?: T; next?: T } {
  const now = bookingOn(today, bookings)
  const next = bookings.filter((b) => b.fromDate! > today).sort((a, b) => a.fromDate!.localeCompare(b.fromDate!))[0]
  return { now, next }
}

/** Today in Copenhagen as `YYYY-MM-DD`. */
export const todayInCopenhagen = (now: Date = new Date()): string => new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Copenhagen' }).format(now)

/**
 * Whether the lender should be warned before the handover that the deposit is not secured (its
 * charge failed): the handover is not blocked, the lender decides.
 */
export const depositFailedBeforeHandover = (row: Partial<Pick<Loan, 'deposit' | 'status' | 'mine'>>): boolean =>
  row.mine === 'lender' && row.deposit === 'FAILED' && row.status === 'CONFIRMED'

/**
 * The fields of `values` that differ from the row the form opened on (what a PATCH or the contract's
 * `terms` step sends); null when nothing changed, so nothing is queued.
 */
export function changedFields<T extends Record<string, unknown>>(opened: Record<string, unknown>, values: T): Partial<T> | null {
  const changed = Object.fromEntries(Object.entries(values).filter(([k, v]) => v !== undefined && (opened[k] ?? null) !== v)) as Partial<T>
  return Object.keys(changed).length ? changed : null
}

/** An amount in øre as the kroner a form shows for editing ("150", "150,50" in Danish, "150.50" in English); empty for none. */
export const kronerInput = (ore: number | null | undefined, locale: string): string =>
  typeof ore !== 'number' ? ''
  : ore % 100 === 0 ? String(ore / 100)
  : (ore / 100).toFixed(2).replace('.', locale === 'da' ? ',' : '.')
