import { describe, expect, it } from 'vitest'
import { htmlText } from './articles'

describe('articles contract', () => {
  it('reads numeric character references, and one that names no character as U+FFFD (never a RangeError)', () => {
    expect(htmlText('<p>R&#248;d &#xE6;ble &amp; p&aelig;re</p>')).toBe('Rød æble & p&aelig;re')
    for (const entity of ['&#99999999;', '&#x110000;', '&#xD800;', '&#55296;', '&#xDFFF;', '&#0;', '&#99999999999999999999999;'])
      expect(htmlText(`a${entity}b`), entity).toBe('a\uFFFDb')
    expect(htmlText('&#x10FFFF;')).toBe('\u{10FFFF}')
  })
})
