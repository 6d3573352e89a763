import { describe, expect, it } from 'vitest'
import { isoDay, oneOf, recordId, searchOf, text, wholeNumber } from './search-params'

describe('route search parameters', () => {
  const search = searchOf({ status: oneOf(['SENT', 'READ']), q: text(5), year: wholeNumber(2000, 2100), id: recordId })

  it('keeps values of their kind', () => {
    expect(search({ status: 'READ', q: 'vand', year: 2026, id: '0b9e1c2a-4f1d-4c1e-9a51-2f7d8c9e0a1b' })).toEqual({
      status: 'READ',
      q: 'vand',
      year: 2026,
      id: '0b9e1c2a-4f1d-4c1e-9a51-2f7d8c9e0a1b',
    })
    expect(search({ year: '2025' }).year).toBe(2025)
  })

  it('reads anything else as missing, never throws', () => {
    expect(search({ status: 'read', q: 'too long', year: 1999, id: 'not-an-id', other: 1 })).toEqual({
      status: undefined,
      q: undefined,
      year: undefined,
      id: undefined,
    })
    expect(search({ status: 7, q: ['a'], year: 2026.5, id: null })).toEqual({ status: undefined, q: undefined, year: undefined, id: undefined })
    expect(search({ year: '20x6' }).year).toBeUndefined()
    expect(search({}).status).toBeUndefined()
  })

  it('reads a calendar day as YYYY-MM-DD only (an interim statement’s last day)', () => {
    expect(isoDay('2026-12-02')).toBe('2026-12-02')
    for (const bad of ['2026-13-01', '2026-12-2', '2026-12-02T10:00', 20261202, null]) expect(isoDay(bad)).toBeUndefined()
  })
})
