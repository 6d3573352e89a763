import { describe, expect, it } from 'vitest'
import { formatSize } from './labels'

describe('formatSize', () => {
  it('says bytes in words in English (in the plural), B in Danish, and larger sizes short', () => {
    expect(formatSize(1, 'en')).toBe('1 byte')
    expect(formatSize(44, 'en')).toBe('44 bytes')
    expect(formatSize(44, 'da')).toBe('44 B')
    expect(formatSize(820 * 1024, 'en')).toBe('820 kB')
    expect(formatSize(3.4 * 1024 * 1024, 'da')).toBe('3,4 MB')
  })
})
