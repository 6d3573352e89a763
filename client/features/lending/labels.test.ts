import { describe, expect, it } from 'vitest'
import { availability, bookingOn, bookingsOf, depositFailedBeforeHandover, isFree, todayInCopenhagen } from './labels'

const loans = [
  { id: 'a', status: 'HANDED_OVER' as const, fromDate: '2026-12-01', toDate: '2026-12-03' },
  { id: 'b', status: 'REQUESTED' as const, fromDate: '2026-12-02', toDate: '2026-12-02' },
  { id: 'c', status: 'CONFIRMED' as const, fromDate: '2026-12-10', toDate: '2026-12-12' },
  { id: 'd', status: 'RETURNED' as const, fromDate: '2026-11-01', toDate: '2026-11-02' },
]

describe('lending labels', () => {
  it('only accepted, confirmed and lent-out loans hold days', () => {
    expect(bookingsOf(loans).map((l) => l.id)).toEqual(['a', 'c'])
    expect(bookingOn('2026-12-03', bookingsOf(loans))?.id).toBe('a')
    expect(bookingOn('2026-12-04', bookingsOf(loans))).toBeUndefined()
  })

  it('says whether dates are free and what is next', () => {
    const booked = bookingsOf(loans)
    expect(isFree({ fromDate: '2026-12-04', toDate: '2026-12-09' }, booked)).toBe(true)
    expect(isFree({ fromDate: '2026-12-03', toDate: '2026-12-04' }, booked)).toBe(false)
    expect(availability(booked, '2026-12-02')).toMatchObject({ now: { id: 'a' }, next: { id: 'c' } })
    expect(availability(booked, '2026-12-05')).toEqual({ now: undefined, next: expect.objectContaining({ id: 'c' }) })
  })

  it('today in Copenhagen, across midnight UTC', () => {
    expect(todayInCopenhagen(new Date('2026-11-30T23:30:00Z'))).toBe('2026-12-01')
    expect(todayInCopenhagen(new Date('2026-07-01T21:59:00Z'))).toBe('2026-07-01')
  })

  it('warns the lender before the handover when the deposit failed, nobody else and not later', () => {
    expect(depositFailedBeforeHandover({ mine: 'lender', deposit: 'FAILED', status: 'CONFIRMED' })).toBe(true)
    expect(depositFailedBeforeHandover({ mine: 'borrower', deposit: 'FAILED', status: 'CONFIRMED' })).toBe(false)
    expect(depositFailedBeforeHandover({ mine: 'lender', deposit: 'QUEUED', status: 'CONFIRMED' })).toBe(false)
    expect(depositFailedBeforeHandover({ mine: 'lender', deposit: 'FAILED', status: 'HANDED_OVER' })).toBe(false)
  })
})
