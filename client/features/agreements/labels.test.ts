import { describe, expect, it } from 'vitest'
import { addressLine } from './labels'

describe('addressLine', () => {
  const base = { street: 'Havrevænget', number: '11', zip: '2400', city: 'København NV', country: 'Denmark' }
  it("writes docs/PRODUCT.md §2's 'street number, floor. sal side, zip city, country' with Danish floor names", () => {
    expect(addressLine({ ...base, floor: '1', side: 'th' })).toBe('Havrevænget 11, 1. sal th, 2400 København NV, Denmark')
    expect(addressLine({ ...base, floor: 'st', side: 'tv' })).toBe('Havrevænget 11, st. tv, 2400 København NV, Denmark')
    expect(addressLine({ ...base, floor: 'kl.', side: null })).toBe('Havrevænget 11, kl., 2400 København NV, Denmark')
    expect(addressLine({ ...base, floor: null, side: null })).toBe('Havrevænget 11, 2400 København NV, Denmark')
  })
})
