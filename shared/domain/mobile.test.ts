import { describe, expect, it } from 'vitest'
import { mobileKey } from './mobile'

describe('mobileKey', () => {
  it('gives a Danish number one form however it is written', () => {
    for (const n of ['+45 20 11 22 33', '20112233', '20 11 22 33', '004520112233', '4520112233']) expect(mobileKey(n)).toBe('4520112233')
  })
  it('keeps other countries apart from Danish numbers', () => {
    expect(mobileKey('+47 912 34 567')).toBe('4791234567')
    expect(mobileKey('+47 912 34 567')).not.toBe(mobileKey('91234567'))
  })
})
