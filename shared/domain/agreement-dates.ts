/**
 * Dates an agreement may be given (docs/decisions/0034-input-the-server-refuses.md). Calendar dates `YYYY-MM-DD` in
 * Europe/Copenhagen; `today` is the server's clock (or the device's, offline) in Copenhagen.
 *
 * - The start payment date is today or later: the billing engine catches up only periods missed
 *   while the agreement could be billed (downtime), never periods before it existed, so a start in
 *   the past would silently lose them. Agreements from an earlier system need their own import
 *   path (decision 0034), not a backdated start.
 * - A changed next payment date is today or later, for the same reason.
 * - Start, next payment and termination dates lie at most `DATE_HORIZON_YEARS` ahead: a year typed
 *   wrong (2062 for 2026) is caught instead of leaving an agreement that never charges.
 */
import { messages } from '../i18n-messages'

export const DATE_HORIZON_YEARS = 5

/** The latest date allowed: the same day `DATE_HORIZON_YEARS` later (29 February → 28 February). */
export function latestAgreementDate(today: string): string {
  const year = Number(today.slice(0, 4)) + DATE_HORIZON_YEARS
  const monthDay = today.slice(5)
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0
  return `${year}-${monthDay === '02-29' && !leap ? '02-28' : monthDay}`
}

export interface DateProblem {
  path: string
  message: string
}

const tooFar = (path: string, date: string, today: string): DateProblem | null =>
  date > latestAgreementDate(today) ? { path, message: messages.dateTooFarAhead.id } : null

/** The problem with a new agreement's start payment date, or null. */
export function startPaymentDateProblem(startPaymentDate: string, today: string): DateProblem | null {
  if (startPaymentDate < today) return { path: 'startPaymentDate', message: messages.startPaymentDateInPast.id }
  return tooFar('startPaymentDate', startPaymentDate, today)
}

/** The problem with an edited next payment date, or null. An unchanged date is always accepted. */
export function nextPaymentDateProblem(next: string, current: string | null, today: string): DateProblem | null {
  if (next === current) return null
  if (next < today) return { path: 'nextRegularPaymentDate', message: messages.nextPaymentDateInPast.id }
  return tooFar('nextRegularPaymentDate', next, today)
}

/** The problem with a termination date beyond the horizon, or null (termination.ts checks the rest). */
export const terminationHorizonProblem = (terminationDate: string, today: string): DateProblem | null => tooFar('terminationDate', terminationDate, today)

/** The first day of the month after `today` (`YYYY-MM-DD`): the household import's default first payment date (docs/decisions/0093). */
export function firstOfNextMonth(today: string): string {
  const year = Number(today.slice(0, 4))
  const month = Number(today.slice(5, 7))
  return month === 12 ? `${year + 1}-01-01` : `${year}-${String(month + 1).padStart(2, '0')}-01`
}
