import { describe, expect, it } from 'vitest'
import { isValidCvr } from './cvr'

describe('isValidCvr', () => {
  it('accepts a number whose weighted sum is divisible by 11', () => {
    expect(isValidCvr('10150817')).toBe(true)
  })
  it('refuses a wrong check digit, wrong length and non-digits', () => {
    expect(isValidCvr('10150818')).toBe(false)
    expect(isValidCvr('1015081')).toBe(false)
    expect(isValidCvr('1015081a')).toBe(false)
  })
})
