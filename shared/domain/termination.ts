/**
 * Termination rules (spec §2 "Terminate", §4, §9), shared so the terminate dialog refuses what the
 * server would refuse, also offline. Dates are calendar dates `YYYY-MM-DD` in Europe/Copenhagen.
 */
import { messages } from '../i18n-messages'
import { DEFAULT_TERMINATION_DAYS, FINAL_PAYMENT_DAYS_BEFORE } from './agreement-parts'
import { plusDays } from './billing-period'
import { terminationHorizonProblem } from './agreement-dates'

/** Spec §9: the dialog proposes today + 30 days. */
export const defaultTerminationDate = (today: string): string => plusDays(today, DEFAULT_TERMINATION_DAYS)

/** Spec §9: the last payment is charged 3 days before the termination date. */
export const finalPaymentDue = (terminationDate: string): string => plusDays(terminationDate, -FINAL_PAYMENT_DAYS_BEFORE)

/**
 * The §5 message for a termination that cannot be made, or null. A last payment needs an accepted
 * agreement and a due date after today (Vipps needs at least a day to charge); the date lies at
 * most 5 years ahead (agreement-dates.ts).
 */
export function terminationProblem(input: { terminationDate: string; finalPaymentRequired: boolean }, today: string, status: string): { path: string; message: string } | null {
  if (input.terminationDate < today) return { path: 'terminationDate', message: messages.terminationDateInPast.id }
  const tooFar = terminationHorizonProblem(input.terminationDate, today)
  if (tooFar) return tooFar
  if (input.finalPaymentRequired && status !== 'ACCEPTED') return { path: 'finalPaymentRequired', message: messages.finalPaymentNeedsAccepted.id }
  if (input.finalPaymentRequired && finalPaymentDue(input.terminationDate) <= today) return { path: 'terminationDate', message: messages.finalPaymentTooSoon.id }
  return null
}
