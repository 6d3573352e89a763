/** Words and pure rules of the market's screens (decision 0063). */
import { msg } from '@lingui/core/macro'
import type { MessageDescriptor } from '@lingui/core'
import { daysLeft, isExpired, type Listing, type ListingKind, type ListingStatus } from '../../../shared/contract/market'

export const kindLabels: Record<ListingKind, MessageDescriptor> = {
  BUY: msg`Buy and sell`,
  SHARE: msg`Share`,
  SWAP: msg`Swap`,
}

export const statusLabels: Record<ListingStatus, MessageDescriptor> = {
  AVAILABLE: msg`Available`,
  RESERVED: msg`Reserved`,
  GONE: msg`Gone`,
}

export const statusVariant = { AVAILABLE: 'success', RESERVED: 'warning', GONE: 'neutral' } as const

/** The route of a kind's list. */
export const kindPath = { BUY: '/markets/buy', SHARE: '/markets/share', SWAP: '/markets/swap' } as const

type Shown = Pick<Listing, 'kind' | 'status' | 'expiresAt'> & { seller?: { id: string | null } | null }

/**
 * Which listings a list shows the user (the same rule as the server's list): this kind, not
 * expired, unless it is the user's own (they renew it). Sorted newest first by the caller.
 */
export function shownInList<T extends Partial<Shown>>(rows: readonly T[], kind: ListingKind, userId: string | undefined, now: Date = new Date()): T[] {
  return rows.filter(
    (r) => r.kind === kind && (!r.expiresAt || !r.status || !isExpired({ expiresAt: r.expiresAt, status: r.status }, now) || r.seller?.id === userId),
  )
}

/** What a card says about time: expired, or the whole days left. Gone listings say nothing. */
export function expiryOf(row: Partial<Shown>, now: Date = new Date()): { expired: true } | { expired: false; days: number } | null {
  if (!row.expiresAt || !row.status || row.status === 'GONE') return null
  if (isExpired({ expiresAt: row.expiresAt, status: row.status }, now)) return { expired: true }
  return { expired: false, days: daysLeft(row.expiresAt, now) }
}

/**
 * The associations whose market the user takes part in: the company they work for, else those
 * where they hold a living agreement (as the server's residency: not rejected, expired or closed).
 */
export function marketCompanyIds(
  currentCompanyId: string | undefined,
  agreements: readonly { companyId?: unknown; status?: unknown; member?: { userId?: unknown } | null }[],
  userId: string | undefined,
): string[] {
  if (currentCompanyId) return [currentCompanyId]
  const ended = new Set(['REJECTED', 'EXPIRED', 'CLOSED'])
  return [
    ...new Set(
      agreements
        .filter((a) => a.member?.userId === userId && typeof a.status === 'string' && !ended.has(a.status) && typeof a.companyId === 'string')
        .map((a) => a.companyId as string),
    ),
  ]
}
