import { describe, expect, it } from 'vitest'
import { browserLocale, storedLocale } from './stored-locale'
import { LOCALE_KEY } from '../lib/storage-keys'

const storage = (value: string | null) => ({ getItem: (key: string) => (key === LOCALE_KEY ? value : null) })

describe('the locale to start with', () => {
  it('follows a Danish browser on the first visit', () => {
    expect(storedLocale(storage(null), { languages: ['da-DK', 'en-US'] })).toBe('da')
    expect(storedLocale(storage(null), { languages: ['nb-NO', 'da', 'en'] })).toBe('da')
  })

  it('speaks English to a browser whose languages the interface does not speak', () => {
    expect(browserLocale({ languages: ['sv-SE', 'nb-NO'] })).toBe('en')
    expect(browserLocale({ languages: [] })).toBe('en')
    expect(browserLocale({ language: 'DA' })).toBe('da')
  })

  it('keeps the choice made on this device over the browser', () => {
    expect(storedLocale(storage('en'), { languages: ['da-DK'] })).toBe('en')
    expect(storedLocale(storage('da'), { languages: ['en-GB'] })).toBe('da')
    expect(storedLocale(storage('fr'), { languages: ['da-DK'] })).toBe('da')
  })

  it('falls back to the browser when storage cannot be read', () => {
    const broken = {
      getItem: () => {
        throw new Error('denied')
      },
    }
    expect(storedLocale(broken, { languages: ['da-DK'] })).toBe('da')
  })
})
