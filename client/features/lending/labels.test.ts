import { describe, expect, it } from 'vitest'
import {
  availability,
  bookingOn,
  bookingsOf,
  calendarLoans,
  changedFields,
  depositFailedBeforeHandover,
  isFree,
  kronerInput,
  todayInCopenhagen,
} from './labels'

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

  it('the calendar shows a returned loan until the day it came back (early or late), in Copenhagen', () => {
    const early = {
      id: 'e',
      status: 'RETURNED' as const,
      fromDate: '2026-12-01',
      toDate: '2026-12-10',
      handedOverAt: '2026-11-30T17:00:00Z',
      returnedAt: '2026-12-03T23:30:00Z',
    }
    const late = {
      id: 'l',
      status: 'RETURNED' as const,
      fromDate: '2026-12-01',
      toDate: '2026-12-02',
      handedOverAt: '2026-12-01T08:00:00Z',
      returnedAt: '2026-12-05T10:00:00Z',
    }
    const shown = calendarLoans([...loans, early, late])
    expect(shown.map((l) => l.id)).toEqual(['a', 'c', 'd', 'e', 'l'])
    // Handed over the evening before, back at 00:30 on 4 December in Copenhagen.
    expect(shown.find((l) => l.id === 'e')).toMatchObject({ fromDate: '2026-11-30', toDate: '2026-12-04' })
    expect(
      bookingOn(
        '2026-12-05',
        shown.filter((l) => l.id === 'e'),
      ),
    ).toBeUndefined()
    expect(shown.find((l) => l.id === 'l')).toMatchObject({ fromDate: '2026-12-01', toDate: '2026-12-05' })
    // Without the times (an older copy) the agreed days stay.
    expect(shown.find((l) => l.id === 'd')).toMatchObject({ fromDate: '2026-11-01', toDate: '2026-11-02' })
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

describe('lending edits', () => {
  it('sends only the fields that changed, and nothing when none did', () => {
    const opened = { id: 'x', title: 'Drill', rules: '', depositOre: null }
    expect(changedFields(opened, { title: 'Drill', rules: 'Clean it', depositOre: null })).toEqual({ rules: 'Clean it' })
    expect(changedFields(opened, { title: 'Drill', rules: '', depositOre: null })).toBeNull()
    expect(changedFields(opened, { depositOre: 20000 })).toEqual({ depositOre: 20000 })
    expect(changedFields({ ...opened, depositOre: 20000 }, { depositOre: null })).toEqual({ depositOre: null })
    expect(changedFields({ fromDate: '2026-12-01' }, { fromDate: '2026-12-01', conditionOut: undefined })).toBeNull()
  })

  it('shows a deposit as kroner to edit in the user language', () => {
    expect(kronerInput(null, 'da')).toBe('')
    expect(kronerInput(20000, 'en')).toBe('200')
    expect(kronerInput(12550, 'da')).toBe('125,50')
    expect(kronerInput(12550, 'en')).toBe('125.50')
  })
})
