import { describe, expect, it } from 'vitest'
import { slashDate, statusBadge } from './agreement-format'

describe('agreement list formatting', () => {
  it('writes dates as DD / MM / YYYY and a missing one as -', () => {
    expect(slashDate('2026-12-01')).toBe('01 / 12 / 2026')
    expect(slashDate(null)).toBe('-')
    expect(slashDate('')).toBe('-')
  })

  it('colours statuses as docs/PRODUCT.md §4 says, overdue always red', () => {
    expect(statusBadge('CREATED', false)).toBe('success')
    expect(statusBadge('ACCEPTED', false)).toBe('success')
    expect(statusBadge('PENDING', false)).toBe('warning')
    for (const s of ['REJECTED', 'CANCELED', 'CLOSED', 'EXPIRED'] as const) expect(statusBadge(s, false)).toBe('error')
    expect(statusBadge('ACCEPTED', true)).toBe('error')
  })
})
