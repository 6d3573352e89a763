import { describe, expect, it } from 'vitest'
import { formatBytes, localizeByteValues } from './storage'

const MB = 1024 * 1024

describe('formatBytes', () => {
  it('writes sizes in steps of 1024, per locale', () => {
    expect(formatBytes(312 * MB, 'en')).toBe('312 MB')
    expect(formatBytes(44, 'da')).toBe('44 B')
    expect(formatBytes(312 * MB, 'da')).toBe('312 MB')
    expect(formatBytes(1024 * MB, 'en')).toBe('1 GB')
    expect(formatBytes(1536 * MB, 'en')).toBe('1.5 GB')
    expect(formatBytes(1536 * MB, 'da')).toBe('1,5 GB')
    expect(formatBytes(3.4 * MB, 'da')).toBe('3,4 MB')
    expect(formatBytes(820 * 1024, 'en')).toBe('820 kB')
    expect(formatBytes(44, 'en')).toBe('44 bytes')
    expect(formatBytes(1, 'en')).toBe('1 byte')
  })

  it('formats the sizes among a message’s values and leaves the others', () => {
    expect(localizeByteValues({ used: { bytes: 1536 * MB }, name: 'x', n: 3 }, 'da')).toEqual({ used: '1,5 GB', name: 'x', n: 3 })
    expect(localizeByteValues(undefined, 'en')).toBeUndefined()
  })
})
