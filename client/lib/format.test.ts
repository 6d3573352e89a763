import { describe, expect, it } from 'vitest'
import { formatDate, formatDateTime, formatMoney, formatNumber, formatRecent } from './format'

/** Intl puts no-break spaces between amount and currency; compare with plain spaces. */
const plain = (s: string) => s.replace(/[\u00a0\u202f]/g, ' ')

describe('formatMoney', () => {
  it('formats øre as Danish kroner in Danish, as da-DK writes them', () => {
    expect(plain(formatMoney(495050, 'da'))).toBe('4.950,50 kr.')
  })
  it('formats øre with the DKK code in English', () => {
    expect(plain(formatMoney(495050, 'en'))).toBe('DKK 4,950.50')
  })
  it('keeps the øre of small and negative amounts', () => {
    expect(plain(formatMoney(5, 'da'))).toBe('0,05 kr.')
    expect(plain(formatMoney(-100, 'da'))).toBe('-1,00 kr.')
    expect(plain(formatMoney(-100, 'en'))).toBe('-DKK 1.00')
  })
})

describe('formatNumber', () => {
  it('groups thousands per locale', () => {
    expect(plain(formatNumber(1234567, 'da'))).toBe('1.234.567')
    expect(formatNumber(1234567, 'en')).toBe('1,234,567')
  })
})

describe('formatDate', () => {
  it('shows a calendar date on its own day whatever the time zone', () => {
    expect(formatDate('2025-01-31', 'da', 'long')).toBe('31. januar 2025')
    expect(formatDate('2025-01-31', 'en', 'long')).toBe('31 January 2025')
  })
  it('shows an instant as the date in Copenhagen', () => {
    // 23:30 UTC on 31 December is already 1 January in Copenhagen.
    expect(formatDate('2024-12-31T23:30:00.000Z', 'en', 'short')).toBe('01/01/2025')
  })
})

describe('formatDateTime', () => {
  it('shows Copenhagen time', () => {
    // The separator between date and time differs between ICU versions; check the parts.
    const en = formatDateTime('2025-06-01T10:15:30.000Z', 'en')
    expect(en).toContain('01/06/2025')
    expect(en).toContain('12:15:30')
    const da = formatDateTime('2025-06-01T10:15:30.000Z', 'da')
    expect(da).toContain('01.06.2025')
    expect(da).toContain('12.15.30')
  })
})

describe('formatRecent', () => {
  const now = new Date('2025-06-10T12:00:00.000Z')
  it('shows only the Copenhagen time for an instant of today', () => {
    expect(formatRecent('2025-06-10T08:05:00.000Z', 'da', now)).toBe('10.05')
    expect(formatRecent('2025-06-10T08:05:00.000Z', 'en', now)).toBe('10:05')
  })
  it('adds the date for an earlier day', () => {
    const shown = formatRecent('2025-06-09T08:05:00.000Z', 'en', now)
    expect(shown).toContain('09/06/2025')
    expect(shown).toContain('10:05')
  })
})
