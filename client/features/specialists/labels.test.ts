import { describe, expect, it } from 'vitest'
import { isWebLink, shownWebsite } from './labels'

describe('specialists labels', () => {
  it('links only http(s) addresses', () => {
    expect(isWebLink('https://vvs.example.dk/')).toBe(true)
    expect(isWebLink('HTTP://vvs.example.dk')).toBe(true)
    for (const url of ['javascript:alert(1)', 'JavaScript:alert(1)', 'data:text/html,x', ' https://x.dk', 'vvs.example.dk', 'https:x'])
      expect(isWebLink(url), url).toBe(false)
    expect(shownWebsite('https://vvs.example.dk/')).toBe('vvs.example.dk')
  })
})
