import { describe, expect, it } from 'vitest'
import { sanitizeHtml } from './sanitize-html'

describe('sanitizeHtml', () => {
  it('keeps simple formatting and safe links', () => {
    expect(sanitizeHtml('<p>Hi <strong>Karen</strong>, see <a href="/agreements/1">this</a></p>')).toBe(
      '<p>Hi <strong>Karen</strong>, see <a href="/agreements/1">this</a></p>',
    )
    expect(sanitizeHtml('<a href="https://vipps.dk">x</a>')).toBe('<a href="https://vipps.dk" rel="noopener noreferrer">x</a>')
  })
  it('removes scripts, event handlers, javascript: links and unknown tags', () => {
    expect(sanitizeHtml('<img src=x onerror=alert(1)><script>alert(1)</script><b onclick="x()">ok</b>')).toBe('<b>ok</b>')
    expect(sanitizeHtml('<a href="javascript:alert(1)">x</a>')).toBe('<a>x</a>')
    expect(sanitizeHtml('<a href="//evil.example">x</a>')).toBe('<a>x</a>')
    expect(sanitizeHtml('<iframe src="https://x"></iframe><style>*{}</style>text')).toBe('text')
  })
})
