import { describe, expect, it } from 'vitest'
import { backoffMs, nextAttemptAt } from './backoff'

describe('backoffMs', () => {
  it('doubles from the base and stops at the cap', () => {
    const b = { baseMs: 5000, maxMs: 3_600_000 }
    expect([0, 1, 2, 3].map((s) => backoffMs(s, b))).toEqual([5000, 10_000, 20_000, 40_000])
    expect(backoffMs(20, b)).toBe(3_600_000)
    expect(backoffMs(-1, b)).toBe(5000)
  })

  it('spreads retries with full or equal jitter', () => {
    const b = { baseMs: 250, maxMs: 8000 }
    expect(backoffMs(2, { ...b, jitter: 'full', random: () => 0 })).toBe(0)
    expect(backoffMs(2, { ...b, jitter: 'full', random: () => 0.5 })).toBe(500)
    expect(backoffMs(10, { ...b, jitter: 'full', random: () => 0.999 })).toBe(7992)
    expect(backoffMs(2, { ...b, jitter: 'equal', random: () => 0 })).toBe(500)
    expect(backoffMs(2, { ...b, jitter: 'equal', random: () => 1 })).toBe(1000)
  })

  it('gives the next attempt as an instant', () => {
    expect(nextAttemptAt(new Date('2026-11-23T09:00:00.000Z'), 1, { baseMs: 60_000, maxMs: Infinity })).toBe('2026-11-23T09:02:00.000Z')
  })
})
