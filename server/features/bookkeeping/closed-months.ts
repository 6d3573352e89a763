import type { Db } from '../../db/client'
import { conflict, DomainError } from '../../errors'
import { monthOf } from '../../../shared/domain/bookkeeping'
import { messages as m } from '../../../shared/i18n-messages'
import { bookkeepingRepository as repo } from './bookkeeping.repository'

/**
 * Closed months (decisions 0067 and 0079) as billing checks them. The closed period is every month
 * up to and including the company's latest closed month (closing a month closes every month before
 * it). Before a service changes an invoice or credit note, the months of its payment and settlement
 * dates (and a new money date) must be after it. The database's triggers refuse the same change
 * should a path forget to ask.
 */
const monthsOf = (dates: readonly (string | null | undefined)[]) => dates.filter((d): d is string => !!d).map(monthOf)

/** The first month among these dates' months that is in the closed period, if any. */
export const closedMonthOf = (db: Db, companyId: string, dates: readonly (string | null | undefined)[]): Promise<string | undefined> =>
  repo.closedOf(db, companyId, monthsOf(dates))

/** 409 in the caller's language when any of these dates is in the company's closed period. */
export async function assertMonthsOpen(db: Db, companyId: string, dates: readonly (string | null | undefined)[]): Promise<void> {
  if (await closedMonthOf(db, companyId, dates)) throw conflict(m.bookkeepingMonthClosed.id)
}

/**
 * A money date that settles a voucher (paid on, a write-off's or settlement's day; docs/BOOKKEEPING.md
 * "Closed months"): never before the voucher was issued (422, the issue date named in the caller's
 * language), and, with the voucher's own payment and settlement dates, never in the closed period (409).
 */
export async function assertMoneyDate(
  db: Db,
  voucher: { companyId: string; issueDate: string; paymentDate: string | null; settledOn: string | null },
  date: string,
  path?: string,
): Promise<void> {
  if (date < voucher.issueDate)
    throw new DomainError('BUSINESS_RULE', m.bookkeepingPaidBeforeIssue.id, {
      values: { issueDate: voucher.issueDate },
      ...(path ? { issues: [{ path, message: m.bookkeepingPaidBeforeIssue.id, values: { issueDate: voucher.issueDate } }] } : {}),
    })
  await assertMonthsOpen(db, voucher.companyId, [voucher.paymentDate, voucher.settledOn, date])
}
