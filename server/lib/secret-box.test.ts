import { describe, expect, it } from 'vitest'
import { createSecretBox, maskSecret } from './secret-box'

describe('secret box', () => {
  it('round-trips and never stores the plain text', () => {
    const box = createSecretBox('app-secret')
    const sealed = box.seal('sk_live_abcdef1234')
    expect(sealed).not.toContain('abcdef')
    expect(box.open(sealed)).toBe('sk_live_abcdef1234')
    expect(box.seal('x')).not.toBe(box.seal('x'))
  })
  it('refuses another key or a tampered value', () => {
    const sealed = createSecretBox('a').seal('secret')
    expect(() => createSecretBox('b').open(sealed)).toThrow()
    const [v, iv, tag, data] = sealed.split('.')
    expect(() => createSecretBox('a').open([v, iv, tag, data!.slice(0, -2) + 'AA'].join('.'))).toThrow()
  })
  it('masks all but the last four characters', () => {
    expect(maskSecret('abcdef1234')).toBe('••••1234')
  })
})
