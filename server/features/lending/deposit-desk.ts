import type { DepositState } from '../../../shared/contract/lending'
import type { LoanRow } from './lending.repository'

export type { LoanRow }

/**
 * What lending needs from billing for a loan's deposit (decision 0064): it is collected only through
 * the ONE_TIME charge path on the borrower's accepted agreement in the association, and given back
 * only through the refund path (or the charge is cancelled before it is collected). Never an amount
 * typed by hand above the deposit. Implemented by server/features/billing/loan-deposits.ts; every
 * call runs in the caller's transaction.
 */
export interface DepositDesk {
  /** Whether the borrower can pay a deposit in the association (an accepted agreement with Vipps). */
  canCollect(userId: string, companyId: string): Promise<boolean>
  /** The deposit's charge for a loan whose contract was just confirmed; its id is made from the loan's, so it is made once. */
  collect(loan: LoanRow, itemTitle: string): Promise<string>
  /**
   * Gives the deposit back in full: refunds a collected charge (at most what ordinary refunds left of
   * it; nothing when nothing is left), cancels one not collected yet. Answers the refund's id, if any.
   */
  release(loan: LoanRow, itemTitle: string): Promise<string | null>
  /**
   * The administration refunds `amountOre` (> 0, at most the deposit) of a deposit held for damage;
   * throws (422) unless its charge was collected; answers the refund's id, or null when ordinary
   * refunds left nothing of the charge.
   */
  refundPart(loan: LoanRow, amountOre: number, itemTitle: string): Promise<string | null>
  /** The deposits' states, read from the charge and credit-note rows, for a page of loans. */
  states(loans: readonly LoanRow[]): Promise<Map<string, DepositState>>
}
