import { describe, expect, it } from 'vitest'
import { keyBytes } from './push-api'

describe('the VAPID key for pushManager.subscribe', () => {
  it('is the base64url text as bytes, padded or not', () => {
    const bytes = Uint8Array.from({ length: 65 }, (_, i) => (i * 37 + 4) % 256)
    const text = btoa(String.fromCharCode(...bytes))
      .replace(/\+/g, '-')
      .replace(/\//g, '_')
      .replace(/=+$/, '')
    expect(Array.from(keyBytes(text))).toEqual(Array.from(bytes))
    expect(Array.from(keyBytes('AQID'))).toEqual([1, 2, 3])
    expect(Array.from(keyBytes('_-8'))).toEqual([255, 239])
  })
})
