import { describe, expect, it } from 'vitest'
import { copenhagenLocalToInstant, daysBefore, instantToCopenhagenLocal, nextReading, plannedSendouts, proposalsOpen, readingDueIn } from './assembly'

describe('general assembly times', () => {
  it('reads and writes Copenhagen wall times, summer and winter, and refuses a date that is not one', () => {
    expect(copenhagenLocalToInstant('2027-03-12T19:00')).toBe('2027-03-12T18:00:00.000Z')
    expect(copenhagenLocalToInstant('2027-07-01T08:00')).toBe('2027-07-01T06:00:00.000Z')
    expect(copenhagenLocalToInstant('2027-02-30T19:00')).toBeUndefined()
    expect(copenhagenLocalToInstant('2027-13-01T19:00')).toBeUndefined()
    expect(copenhagenLocalToInstant('2027-03-12 19:00')).toBeUndefined()
    expect(instantToCopenhagenLocal('2027-03-12T18:00:00.000Z')).toBe('2027-03-12T19:00')
    expect(instantToCopenhagenLocal('2027-07-01T06:00:00.000Z')).toBe('2027-07-01T08:00')
  })

  it('refuses a wall time that does not exist in Copenhagen (the hour skipped in spring) instead of moving it', () => {
    // Summer time begins 28 March 2027 at 02:00, which becomes 03:00: 02:00–02:59 never happen.
    expect(copenhagenLocalToInstant('2027-03-28T02:30')).toBeUndefined()
    expect(copenhagenLocalToInstant('2027-03-28T02:00')).toBeUndefined()
    expect(copenhagenLocalToInstant('2027-03-28T01:59')).toBe('2027-03-28T00:59:00.000Z')
    expect(copenhagenLocalToInstant('2027-03-28T03:00')).toBe('2027-03-28T01:00:00.000Z')
    // The hour repeated in October exists (twice): it is accepted, and reads back the same.
    const twice = copenhagenLocalToInstant('2027-10-31T02:30')
    expect(twice).toBeDefined()
    expect(instantToCopenhagenLocal(twice!)).toBe('2027-10-31T02:30')
  })

  it('puts a reminder at the same wall time N days before, across the change to summer time', () => {
    // Friday 2 April 2027 19:00 (summer time) → 19 March 19:00 (winter time).
    expect(daysBefore('2027-04-02T17:00:00.000Z', 14)).toBe('2027-03-19T18:00:00.000Z')
    expect(daysBefore('2027-04-02T17:00:00.000Z', 2)).toBe('2027-03-31T17:00:00.000Z')
  })

  it('plans the notice and only the reminders after it, before the meeting and still ahead', () => {
    const a = { id: 'a', heldAt: '2027-03-12T18:00:00.000Z', noticeAt: '2027-03-01T08:00:00.000Z', reminderDays: [2, 14, 2, 30] }
    expect(plannedSendouts(a, '2026-11-23T09:00:00.000Z').map((s) => [s.key, s.dueAt])).toEqual([
      ['assembly:a:notice', '2027-03-01T08:00:00.000Z'],
      ['assembly:a:reminder:2', '2027-03-10T18:00:00.000Z'],
    ])
    expect(plannedSendouts({ ...a, noticeAt: '2027-01-01T08:00:00.000Z' }, '2027-02-27T00:00:00.000Z').map((s) => s.days)).toEqual([null, 2])
  })

  it('takes proposals while planned and before the deadline', () => {
    expect(proposalsOpen({ status: 'PLANNED', proposalDeadline: '2027-03-01T11:00:00.000Z' }, '2027-03-01T10:59:59.999Z')).toBe(true)
    expect(proposalsOpen({ status: 'PLANNED', proposalDeadline: '2027-03-01T11:00:00.000Z' }, '2027-03-01T11:00:00.000Z')).toBe(false)
    expect(proposalsOpen({ status: 'CANCELLED', proposalDeadline: '2027-03-01T11:00:00.000Z' }, '2027-01-01T00:00:00.000Z')).toBe(false)
  })

  it('finds the next reading day at 08:00 Copenhagen, this year or later; 29.02 waits for a leap year', () => {
    expect(nextReading('READING_START', '01.06', new Date('2026-11-23T09:00:00Z'))).toEqual({
      key: 'reading:start:2027',
      dueAt: '2027-06-01T06:00:00.000Z',
      year: 2027,
    })
    expect(nextReading('READING_END', '24.12', new Date('2026-11-23T09:00:00Z'))!.key).toBe('reading:end:2026')
    // On the day, before and after 08:00.
    expect(nextReading('READING_END', '24.12', new Date('2026-12-24T06:59:00Z'))!.key).toBe('reading:end:2026')
    expect(nextReading('READING_END', '24.12', new Date('2026-12-24T07:00:00Z'))!.key).toBe('reading:end:2027')
    expect(nextReading('READING_END', '29.02', new Date('2026-11-23T09:00:00Z'))!.dueAt).toBe('2028-02-29T07:00:00.000Z')
    expect(nextReading('READING_END', '31.13', new Date('2026-11-23T09:00:00Z'))).toBeUndefined()
    expect(readingDueIn('29.02', 2027)).toBeUndefined()
  })
})
