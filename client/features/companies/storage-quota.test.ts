import { describe, expect, it } from 'vitest'
import { quotaBytesFrom } from './StorageSection'

describe('the storage quota typed in MB', () => {
  it('is a whole number of megabytes from 1 MB to 1 TB, in bytes', () => {
    expect(quotaBytesFrom('1')).toBe(1024 ** 2)
    expect(quotaBytesFrom(' 2048 ')).toBe(2 * 1024 ** 3)
    expect(quotaBytesFrom('1048576')).toBe(1024 ** 4)
  })

  it('is refused as anything else: nothing, zero, a fraction, a sign, past 1 TB', () => {
    for (const text of ['', '0', '2,5', '2.5', '-1', '+5', '1e3', '1048577', '10000000', 'abc']) expect(quotaBytesFrom(text)).toBeNull()
  })
})
