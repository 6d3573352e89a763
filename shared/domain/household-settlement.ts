/**
 * The final settlement of a payer who moves out (docs/DOMAIN.md "Moves and the final settlement",
 * docs/decisions/0090). The move date is the first day the leaving payer no longer lives in the
 * household, and it is the termination date of their agreement, so the existing termination rules
 * apply unchanged (shared/domain/termination.ts, docs/decisions/0035):
 *
 * - **still to charge**: the regular charges of whole periods that end before the move (billing
 *   makes them as usual) and the last payment — the share of the days of the period the move cuts,
 *   or that period's full price when the move falls on its end;
 * - **paid ahead**: a regular charge already collected for days on or after the move date is
 *   refunded for those days (docs/decisions/0044, a refund of its invoice's lines): the whole
 *   charge when its period starts on or after the move date, else the charge less the share of the
 *   days before the move, rounded the way the last payment rounds, so the days kept and the days
 *   refunded add up to the charge exactly;
 * - **open balance**: what is owed on earlier invoices (shared/domain/invoice.ts `openBalance`).
 *
 * Every amount is in whole øre; the total is what the leaving payer still owes (negative: what
 * they get back).
 */
import type { ChargeStatus } from './agreement-status'
import { anchorDayOf, daysBetween, nextPaymentDate, plusDays } from './billing-period'
import { lastPaymentOf, regularChargeAllowed, type LastPayment, type PaymentSchedule } from './termination'

/** A charge of the leaving payer's agreement, as the settlement reads it. */
export interface SettledCharge {
  id: string
  kind: 'REGULAR' | 'ONE_TIME' | 'FINAL'
  due: string
  /** øre */
  amount: number
  status: ChargeStatus
  /** øre collected, and refunded or asked to refund so far. */
  captured: number
  refunded: number
}

/** A refund of days paid ahead. */
export interface PaidAhead {
  chargeId: string
  /** The first and last day refunded. */
  from: string
  through: string
  /** øre */
  amount: number
}

export interface Settlement {
  moveDate: string
  /** The regular charges of whole periods before the move still to come, øre. */
  regularToCome: number
  /** The last payment (a FINAL charge), or null when nothing is left to charge before the move. */
  lastPayment: LastPayment | null
  paidAhead: PaidAhead[]
  /** øre owed on earlier invoices. */
  openBalance: number
  /** regularToCome + lastPayment + openBalance − paidAhead, øre. */
  total: number
}

/** The regular charges of whole periods from the next payment date that billing still makes before the move. */
function regularChargesToCome(schedule: PaymentSchedule, moveDate: string): number {
  let sum = 0
  const first = schedule.nextRegularPaymentDate
  if (!first || first >= moveDate) return 0
  const anchor = anchorDayOf(schedule.startPaymentDate, first)
  const termination = { terminationDate: moveDate, finalPaymentRequired: true }
  for (let from = first, end = nextPaymentDate(from, schedule.paymentPeriod, anchor); regularChargeAllowed(from, end, termination);) {
    sum += schedule.price
    from = end
    end = nextPaymentDate(from, schedule.paymentPeriod, anchor)
  }
  return sum
}

/**
 * What of a collected regular charge due on `due` was paid for days on or after `moveDate`: the
 * charge less the share of the days before (rounded half up, as `lastPaymentOf` rounds a share),
 * at most what is left to refund of it; null when none of its days are after the move.
 */
export function paidAheadOf(charge: SettledCharge, schedule: Pick<PaymentSchedule, 'paymentPeriod' | 'startPaymentDate'>, moveDate: string): PaidAhead | null {
  if (charge.kind !== 'REGULAR' || charge.status !== 'EXECUTED') return null
  const end = nextPaymentDate(charge.due, schedule.paymentPeriod, anchorDayOf(schedule.startPaymentDate, charge.due))
  if (end <= moveDate) return null
  const from = charge.due > moveDate ? charge.due : moveDate
  const kept = from === charge.due ? 0 : Math.round((charge.amount * daysBetween(charge.due, moveDate)) / daysBetween(charge.due, end))
  const amount = Math.min(charge.amount - kept, Math.max(0, charge.captured - charge.refunded))
  return amount > 0 ? { chargeId: charge.id, from, through: plusDays(end, -1), amount } : null
}

/** The final settlement of the agreement `schedule` when its payer moves out on `moveDate`. */
export function settlementOf(input: { schedule: PaymentSchedule; moveDate: string; charges: readonly SettledCharge[]; openBalance: number }): Settlement {
  const { schedule, moveDate } = input
  const regularToCome = regularChargesToCome(schedule, moveDate)
  const lastPayment = lastPaymentOf(schedule, moveDate)
  const paidAhead = input.charges
    .map((c) => paidAheadOf(c, schedule, moveDate))
    .filter((p): p is PaidAhead => p !== null)
    .sort((a, b) => (a.from < b.from ? -1 : 1))
  const back = paidAhead.reduce((s, p) => s + p.amount, 0)
  return {
    moveDate,
    regularToCome,
    lastPayment,
    paidAhead,
    openBalance: input.openBalance,
    total: regularToCome + (lastPayment?.amount ?? 0) + input.openBalance - back,
  }
}
