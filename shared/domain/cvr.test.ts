import { describe, expect, it } from 'vitest'
import { isPlaceholderCvr, isValidCvr } from './cvr'

describe('isValidCvr', () => {
  it('accepts a number whose weighted sum is divisible by 11', () => {
    expect(isValidCvr('10150817')).toBe(true)
  })
  it('refuses a wrong check digit, wrong length and non-digits', () => {
    expect(isValidCvr('10150818')).toBe(false)
    expect(isValidCvr('1015081')).toBe(false)
    expect(isValidCvr('1015081a')).toBe(false)
  })
  it("refuses 00000000, whose weighted sum passes the check but which is nobody's number", () => {
    expect(isValidCvr('00000000')).toBe(false)
    expect(isPlaceholderCvr('00000000')).toBe(true)
    expect(isPlaceholderCvr('10150817')).toBe(false)
  })
})
