import type { Db } from '../../db/client'
import { conflict } from '../../errors'
import { monthOf } from '../../../shared/domain/bookkeeping'
import { messages as m } from '../../../shared/i18n-messages'
import { bookkeepingRepository as repo } from './bookkeeping.repository'

/**
 * Closed months (decision 0067) as billing checks them: before a service changes an invoice or
 * credit note, the months of its payment and settlement dates (and a new settlement date) must
 * be open. The database's triggers refuse the same change should a path forget to ask.
 */
const monthsOf = (dates: readonly (string | null | undefined)[]) => dates.filter((d): d is string => !!d).map(monthOf)

/** The first closed month among these dates' months, if any. */
export const closedMonthOf = (db: Db, companyId: string, dates: readonly (string | null | undefined)[]): Promise<string | undefined> =>
  repo.closedOf(db, companyId, monthsOf(dates))

/** 409 in the caller's language when any of these dates is in a closed month of the company. */
export async function assertMonthsOpen(db: Db, companyId: string, dates: readonly (string | null | undefined)[]): Promise<void> {
  if (await closedMonthOf(db, companyId, dates)) throw conflict(m.bookkeepingMonthClosed.id)
}
