import { describe, expect, it } from 'vitest'
import {
  addDays,
  handoverFrom,
  heldSpan,
  isOverdue,
  mayTake,
  partiesFor,
  overlaps,
  reminderTimes,
  shiftMonth,
  spanProblem,
  take,
  weeksOfMonth,
  type LoanState,
} from './lending'

const requested: LoanState = { status: 'REQUESTED', lenderConfirmedAt: null, borrowerConfirmedAt: null }
const at = '2026-11-25T10:00:00.000Z'

describe('loan life cycle', () => {
  it('goes request → accepted → both confirm → handed over → returned', () => {
    const accepted = take(requested, 'accept', 'lender', at)!
    expect(accepted.status).toBe('ACCEPTED')
    const half = take(accepted, 'confirm', 'borrower', at)!
    expect(half).toMatchObject({ status: 'ACCEPTED', borrowerConfirmedAt: at, lenderConfirmedAt: null })
    expect(take(half, 'confirm', 'borrower', at)).toBeUndefined()
    const confirmed = take(half, 'confirm', 'lender', at)!
    expect(confirmed.status).toBe('CONFIRMED')
    const out = take(confirmed, 'handover', 'lender', at)!
    expect(out.status).toBe('HANDED_OVER')
    expect(take(out, 'return', 'borrower', at)).toBeUndefined()
    expect(take(out, 'return', 'lender', at)!.status).toBe('RETURNED')
  })

  it('a change of terms clears both confirmations; only the lender accepts, hands over and records the return', () => {
    const half = take(take(requested, 'accept', 'lender', at)!, 'confirm', 'borrower', at)!
    expect(take(half, 'terms', 'lender', at)).toMatchObject({ status: 'ACCEPTED', borrowerConfirmedAt: null, lenderConfirmedAt: null })
    expect(mayTake(requested, 'accept', 'borrower')).toBe(false)
    expect(mayTake(requested, 'handover', 'lender')).toBe(false)
    expect(mayTake({ ...requested, status: 'CONFIRMED' }, 'terms', 'lender')).toBe(false)
  })

  it('the borrower cancels before handover, not after; closed loans take nothing', () => {
    for (const status of ['REQUESTED', 'ACCEPTED', 'CONFIRMED'] as const)
      expect(take({ ...requested, status }, 'cancel', 'borrower', at)!.status).toBe('CANCELLED')
    expect(mayTake({ ...requested, status: 'HANDED_OVER' }, 'cancel', 'borrower')).toBe(false)
    for (const status of ['DECLINED', 'CANCELLED', 'RETURNED'] as const)
      for (const action of ['accept', 'decline', 'cancel', 'terms', 'confirm', 'handover', 'return'] as const)
        for (const party of ['lender', 'borrower'] as const) expect(mayTake({ ...requested, status }, action, party)).toBe(false)
  })
})

describe('dates', () => {
  it('overlap counts both ends', () => {
    expect(overlaps({ fromDate: '2026-12-01', toDate: '2026-12-03' }, { fromDate: '2026-12-03', toDate: '2026-12-05' })).toBe(true)
    expect(overlaps({ fromDate: '2026-12-01', toDate: '2026-12-02' }, { fromDate: '2026-12-03', toDate: '2026-12-05' })).toBe(false)
    expect(overlaps({ fromDate: '2026-12-01', toDate: '2026-12-31' }, { fromDate: '2026-12-10', toDate: '2026-12-11' })).toBe(true)
  })

  it('refuses a span in the past, backwards, too long or too far ahead', () => {
    const today = '2026-11-25'
    expect(spanProblem({ fromDate: '2026-11-25', toDate: '2026-11-25' }, today)).toBeUndefined()
    expect(spanProblem({ fromDate: '2026-11-24', toDate: '2026-11-26' }, today)).toBe('fromInPast')
    expect(spanProblem({ fromDate: '2026-11-27', toDate: '2026-11-26' }, today)).toBe('toBeforeFrom')
    expect(spanProblem({ fromDate: '2026-11-25', toDate: '2027-01-23' }, today)).toBeUndefined()
    expect(spanProblem({ fromDate: '2026-11-25', toDate: '2027-01-24' }, today)).toBe('tooLong')
    expect(spanProblem({ fromDate: '2027-11-26', toDate: '2027-11-27' }, today)).toBe('tooFarAhead')
  })

  it('reminders at 08:00 Copenhagen: the day before, on the day, the day after (winter and summer time)', () => {
    expect(reminderTimes('2026-12-01')).toEqual({
      DAY_BEFORE: '2026-11-30T07:00:00.000Z',
      RETURN_DAY: '2026-12-01T07:00:00.000Z',
      OVERDUE: '2026-12-02T07:00:00.000Z',
    })
    expect(reminderTimes('2027-07-01').DAY_BEFORE).toBe('2027-06-30T06:00:00.000Z')
    expect(reminderTimes('2027-03-01').DAY_BEFORE).toBe('2027-02-28T07:00:00.000Z')
  })

  it('overdue only when handed over and past the return date', () => {
    expect(isOverdue({ status: 'HANDED_OVER', toDate: '2026-11-24' }, '2026-11-25')).toBe(true)
    expect(isOverdue({ status: 'HANDED_OVER', toDate: '2026-11-25' }, '2026-11-25')).toBe(false)
    expect(isOverdue({ status: 'RETURNED', toDate: '2026-11-24' }, '2026-11-25')).toBe(false)
  })

  it('a month as Monday-first weeks, and the months around it', () => {
    const weeks = weeksOfMonth('2026-12')
    expect(weeks[0]).toEqual([null, '2026-12-01', '2026-12-02', '2026-12-03', '2026-12-04', '2026-12-05', '2026-12-06'])
    expect(weeks.flat().filter(Boolean)).toHaveLength(31)
    expect(weeks.every((w) => w.length === 7)).toBe(true)
    expect(shiftMonth('2026-12', 1)).toBe('2027-01')
    expect(shiftMonth('2026-01', -1)).toBe('2025-12')
  })
})

describe('after the outside test', () => {
  it('the handover is recorded from the day before the first day, across months and years', () => {
    expect(handoverFrom('2026-12-10')).toBe('2026-12-09')
    expect(handoverFrom('2027-01-01')).toBe('2026-12-31')
    expect(addDays('2026-03-28', 2)).toBe('2026-03-30')
  })

  it('says whose step each is', () => {
    expect(partiesFor('accept')).toEqual(['lender'])
    expect(partiesFor('cancel')).toEqual(['borrower'])
    expect(partiesFor('confirm')).toEqual(['lender', 'borrower'])
  })

  it('a returned loan holds the days from its handover to its return (Copenhagen dates); others their agreed days', () => {
    const span = { fromDate: '2026-12-01', toDate: '2026-12-10' }
    expect(heldSpan({ ...span, status: 'HANDED_OVER', handedOverAt: '2026-12-01T08:00:00Z' })).toEqual(span)
    expect(heldSpan({ ...span, status: 'RETURNED', handedOverAt: '2026-12-01T08:00:00Z', returnedAt: '2026-12-02T23:30:00Z' })).toEqual({
      fromDate: '2026-12-01',
      toDate: '2026-12-03',
    })
    // Handed over the day before and back the same evening: one day, never an empty span.
    expect(heldSpan({ ...span, status: 'RETURNED', handedOverAt: '2026-11-30T10:00:00Z', returnedAt: '2026-11-30T18:00:00Z' })).toEqual({
      fromDate: '2026-11-30',
      toDate: '2026-11-30',
    })
  })
})
