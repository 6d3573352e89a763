/**
 * Termination rules (docs/PRODUCT.md §2 "Terminate", §4, §9), shared so the terminate dialog refuses what the
 * server would refuse, also offline. Dates are calendar dates `YYYY-MM-DD` in Europe/Copenhagen.
 *
 * Periods are paid in advance: the regular charge due on a payment date pays for the days from
 * that date up to the next payment date. The termination date is the first day the agreement no
 * longer covers. With "Make last payment" (docs/decisions/0035-the-last-payment-of-a-termination-charges-each-day-once.md), the last payment takes
 * the place of the regular charge of the agreement's last period — the period in which the day
 * before the termination date falls — so no day is charged twice: it is that period's full price
 * when the termination date is the period's end, else the share of its days up to the termination
 * date. Days already charged before the termination was entered are never charged again; when
 * everything up to the termination date is charged there is no last payment to make.
 */
import { messages } from '../i18n-messages'
import { DEFAULT_TERMINATION_DAYS, FINAL_PAYMENT_DAYS_BEFORE, type PaymentPeriod } from './agreement-parts'
import { anchorDayOf, daysBetween, nextPaymentDate, plusDays } from './billing-period'
import { terminationHorizonProblem } from './agreement-dates'

/** docs/PRODUCT.md §9: the dialog proposes today + 30 days. */
export const defaultTerminationDate = (today: string): string => plusDays(today, DEFAULT_TERMINATION_DAYS)

/** docs/PRODUCT.md §9: the last payment is charged 3 days before the termination date. */
export const finalPaymentDue = (terminationDate: string): string => plusDays(terminationDate, -FINAL_PAYMENT_DAYS_BEFORE)

/** What the last payment needs to know of the agreement's schedule. */
export interface PaymentSchedule {
  /** The agreement's price per period, øre. */
  price: number
  paymentPeriod: PaymentPeriod
  startPaymentDate: string
  /** The first payment date not yet charged. */
  nextRegularPaymentDate: string | null
}

/**
 * Whether the regular charge of the period from `periodStart` up to `periodEnd` is made. Without
 * a termination, always; terminated without a last payment, for periods starting before the
 * termination date; with a last payment, only for periods that end before the termination date
 * and start before the last payment is due — the rest belongs to the last payment.
 */
export function regularChargeAllowed(
  periodStart: string,
  periodEnd: string,
  termination: { terminationDate: string | null; finalPaymentRequired: boolean },
): boolean {
  const t = termination.terminationDate
  if (!t) return true
  if (!termination.finalPaymentRequired) return periodStart < t
  return periodStart < finalPaymentDue(t) && periodEnd < t
}

/** The last payment of a termination: which days it pays for, how much, and when it is due. */
export interface LastPayment {
  /** The first day it pays for. */
  from: string
  /** The last day it pays for (the day before the termination date). */
  through: string
  /** Due 3 days before the termination date. */
  due: string
  /** øre */
  amount: number
}

/**
 * The last payment when terminating on `terminationDate` with "Make last payment", or null when
 * everything up to that date is already charged. Whole periods count their price; a period the
 * termination date cuts counts its share of days (days up to the termination date / days of the
 * period), rounded half up to whole øre.
 */
export function lastPaymentOf(schedule: PaymentSchedule, terminationDate: string): LastPayment | null {
  const first = schedule.nextRegularPaymentDate
  if (!first || first >= terminationDate) return null
  const anchor = anchorDayOf(schedule.startPaymentDate, first)
  const termination = { terminationDate, finalPaymentRequired: true }
  let from = first
  // The regular charges still to come: whole periods before the last one (and before the last payment is due).
  for (
    let end = nextPaymentDate(from, schedule.paymentPeriod, anchor);
    regularChargeAllowed(from, end, termination);
    end = nextPaymentDate(from, schedule.paymentPeriod, anchor)
  )
    from = end
  let amount = 0
  for (let start = from; start < terminationDate;) {
    const end = nextPaymentDate(start, schedule.paymentPeriod, anchor)
    amount += end <= terminationDate ? schedule.price : Math.round((schedule.price * daysBetween(start, terminationDate)) / daysBetween(start, end))
    start = end
  }
  if (amount <= 0) return null
  return { from, through: plusDays(terminationDate, -1), due: finalPaymentDue(terminationDate), amount }
}

/**
 * The next payment the member will be charged, or null when none will come: the next regular
 * charge, or, once the regular ones have ended, the last payment of a termination. A CANCELED,
 * CLOSED, REJECTED or EXPIRED agreement has none (decision 0035: no next payment after the end).
 */
export function upcomingPayment(a: {
  status: string
  nextRegularPaymentDate: string | null
  terminationDate: string | null
  finalPaymentRequired: boolean
  paymentPeriod: PaymentPeriod
  startPaymentDate: string
}): { date: string; kind: 'REGULAR' | 'FINAL' } | null {
  if (a.status !== 'CREATED' && a.status !== 'PENDING' && a.status !== 'ACCEPTED') return null
  const next = a.nextRegularPaymentDate
  const lastPayment =
    a.status === 'ACCEPTED' && a.terminationDate && a.finalPaymentRequired ? { date: finalPaymentDue(a.terminationDate), kind: 'FINAL' as const } : null
  if (!next) return lastPayment
  const end = nextPaymentDate(next, a.paymentPeriod, anchorDayOf(a.startPaymentDate, next))
  if (regularChargeAllowed(next, end, a)) return { date: next, kind: 'REGULAR' }
  return lastPayment
}

/**
 * The docs/PRODUCT.md §5 message for a termination that cannot be made, or null. A last payment needs an accepted
 * agreement, a due date after today (Vipps needs at least a day to charge) and something left to
 * charge (when the agreement's schedule is given); the date lies at most 5 years ahead
 * (agreement-dates.ts).
 */
export function terminationProblem(
  input: { terminationDate: string; finalPaymentRequired: boolean },
  today: string,
  status: string,
  schedule?: PaymentSchedule,
): { path: string; message: string } | null {
  if (input.terminationDate < today) return { path: 'terminationDate', message: messages.terminationDateInPast.id }
  const tooFar = terminationHorizonProblem(input.terminationDate, today)
  if (tooFar) return tooFar
  if (input.finalPaymentRequired && status !== 'ACCEPTED') return { path: 'finalPaymentRequired', message: messages.finalPaymentNeedsAccepted.id }
  if (input.finalPaymentRequired && finalPaymentDue(input.terminationDate) <= today)
    return { path: 'terminationDate', message: messages.finalPaymentTooSoon.id }
  if (input.finalPaymentRequired && schedule && !lastPaymentOf(schedule, input.terminationDate))
    return { path: 'finalPaymentRequired', message: messages.finalPaymentNothingLeft.id }
  return null
}
