import { monthOf, monthRange, planOf, type AccountPlan } from '../../../shared/domain/bookkeeping'
import type { ClosedMonthRow } from './bookkeeping.repository'

/**
 * Which account plan a date of the journal is posted with (decision 0079, docs/BOOKKEEPING.md
 * "Closed months"): a month in the closed period with the plan kept on the close that closed it —
 * of the closed months the same or later, the one closed first (closing a month closes every month
 * before it) — and any other month with `open` (today's plan, or an export's own).
 *
 * `asOf` (an export's time): only the closes made by then count, so an export's file is written
 * the same way whenever it is downloaded, even after a later close.
 */
export interface PlansByMonth {
  /** The plan of the month of this date (`YYYY-MM-DD` or `YYYY-MM`). */
  of(date: string): AccountPlan
  /** A period cut where the plan changes (whole months), each piece with its plan, in order. */
  pieces(from: string, to: string): { from: string; to: string; plan: AccountPlan }[]
}

export function plansByMonth(closes: readonly ClosedMonthRow[], open: AccountPlan, asOf?: string): PlansByMonth {
  const counted = closes
    .filter((c) => asOf === undefined || c.closed_at <= asOf)
    .map((c) => ({ month: c.month, closedAt: c.closed_at, plan: planOf(c.account_plan ? JSON.parse(c.account_plan) : null) }))
  const closeOf = (month: string) => {
    let first: (typeof counted)[number] | undefined
    for (const c of counted)
      if (c.month >= month && (!first || c.closedAt < first.closedAt || (c.closedAt === first.closedAt && c.month < first.month))) first = c
    return first
  }
  const of = (date: string) => closeOf(monthOf(date))?.plan ?? open
  return {
    of,
    pieces(from, to) {
      const pieces: { from: string; to: string; plan: AccountPlan; key: string | undefined }[] = []
      for (let month = monthOf(from); month <= monthOf(to); month = nextMonth(month)) {
        const range = monthRange(month)
        const piece = { from: range.from < from ? from : range.from, to: range.to > to ? to : range.to }
        const key = closeOf(month)?.month
        const last = pieces.at(-1)
        if (last && last.key === key) last.to = piece.to
        else pieces.push({ ...piece, plan: of(month), key })
      }
      return pieces.map(({ key: _, ...p }) => p)
    },
  }
}

const nextMonth = (month: string): string => {
  const [y, m] = month.split('-').map(Number) as [number, number]
  return m === 12 ? `${y + 1}-01` : `${y}-${String(m + 1).padStart(2, '0')}`
}
