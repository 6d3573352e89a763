import { describe, expect, it } from 'vitest'
import { formatBytes, localizeByteValues } from './storage'

const NBSP = '\u00a0'

describe('formatBytes', () => {
  it('writes sizes in decimal units, per locale, with a no-break space', () => {
    expect(formatBytes(312_000_000, 'en')).toBe(`312${NBSP}MB`)
    expect(formatBytes(312_000_000, 'da')).toBe(`312${NBSP}MB`)
    expect(formatBytes(1_000_000_000, 'en')).toBe(`1${NBSP}GB`)
    expect(formatBytes(1_500_000_000, 'en')).toBe(`1.5${NBSP}GB`)
    expect(formatBytes(1_500_000_000, 'da')).toBe(`1,5${NBSP}GB`)
    expect(formatBytes(12_345_678, 'da')).toBe(`12,3${NBSP}MB`)
    expect(formatBytes(2_500, 'en')).toBe(`2.5${NBSP}kB`)
    expect(formatBytes(999, 'en')).toBe(`999${NBSP}bytes`)
    expect(formatBytes(0, 'da')).toBe(`0${NBSP}byte`)
  })

  it('formats the sizes among a message’s values and leaves the others', () => {
    expect(localizeByteValues({ used: { bytes: 1_500_000_000 }, name: 'x', n: 3 }, 'da')).toEqual({ used: `1,5${NBSP}GB`, name: 'x', n: 3 })
    expect(localizeByteValues(undefined, 'en')).toBeUndefined()
  })
})
