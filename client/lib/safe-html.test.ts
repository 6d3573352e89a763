import { describe, expect, it } from 'vitest'
import { JSDOM } from 'jsdom'
import createDOMPurify from 'dompurify'
import { sanitizeHtml } from './safe-html'

const purifier = createDOMPurify(new JSDOM('').window as unknown as Window & typeof globalThis)

describe('sanitizeHtml', () => {
  it('keeps the allowed formatting and links', () => {
    const html = '<p>The method <strong>x@y.dk</strong> was added. <a href="/user" title="Profile">Open</a> <a href="mailto:a@b.dk">mail</a></p>'
    expect(sanitizeHtml(html, purifier)).toBe(html)
  })

  it('drops scripts, event handlers, styles and javascript: links', () => {
    const out = sanitizeHtml(
      '<img src=x onerror=alert(1)><script>alert(2)</script><a href="javascript:alert(3)" onclick="x()">go</a><span style="color:red">s</span><iframe></iframe>',
      purifier,
    )
    expect(out).toBe('<a>go</a><span>s</span>')
  })

  it('gives a link to another site rel="noopener noreferrer", as the server does, and drops any other rel', () => {
    expect(sanitizeHtml('<a href="https://vipps.dk" rel="opener">x</a> <a href="/user" rel="opener">y</a>', purifier)).toBe(
      '<a href="https://vipps.dk" rel="noopener noreferrer">x</a> <a href="/user">y</a>',
    )
  })

  it('refuses protocol-relative links, which would leave the site', () => {
    expect(sanitizeHtml('<a href="//evil.example/x">x</a>', purifier)).toBe('<a>x</a>')
  })
})
