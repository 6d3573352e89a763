import { describe, expect, it } from 'vitest'
import { isScheduleAhead } from './schedule'

describe("a message's sending time", () => {
  // 10:00 in Copenhagen on Monday 23 November 2026 (UTC+1).
  const now = Date.parse('2026-11-23T09:00:00.000Z')

  it("counts in Danish time, whatever the device's zone", () => {
    expect(isScheduleAhead('2026-11-23T10:01', now)).toBe(true)
    expect(isScheduleAhead('2026-11-23T10:00', now)).toBe(false)
    expect(isScheduleAhead('2026-11-23T09:30', now)).toBe(false)
    expect(isScheduleAhead('2025-12-01T08:00', now)).toBe(false)
  })

  it('follows summer time and refuses what is not a time', () => {
    expect(isScheduleAhead('2027-06-01T12:00', now)).toBe(true)
    expect(isScheduleAhead('', now)).toBe(false)
    expect(isScheduleAhead('2026-02-30T12:00', now)).toBe(false)
  })
})
