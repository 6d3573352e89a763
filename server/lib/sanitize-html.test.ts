import { describe, expect, it } from 'vitest'
import { escapeHtml, sanitizeHtml } from './sanitize-html'

describe('sanitizeHtml', () => {
  it('keeps simple formatting and safe links', () => {
    expect(sanitizeHtml('<p>Hi <strong>Karen</strong>, see <a href="/agreements/1">this</a></p>')).toBe(
      '<p>Hi <strong>Karen</strong>, see <a href="/agreements/1">this</a></p>',
    )
    expect(sanitizeHtml('<a href="https://vipps.dk">x</a>')).toBe('<a href="https://vipps.dk" rel="noopener noreferrer">x</a>')
    expect(sanitizeHtml('<a href="mailto:bestyrelse@solgaarden.dk" title="Skriv">mail</a>')).toBe(
      '<a href="mailto:bestyrelse@solgaarden.dk" title="Skriv">mail</a>',
    )
    expect(sanitizeHtml('<ul><li><b>1</b></li><li><i>2</i> <em>3</em> <u>4</u> <code>5</code> <small>6</small> <span title="t">7</span></li></ul>')).toBe(
      '<ul><li><b>1</b></li><li><i>2</i> <em>3</em> <u>4</u> <code>5</code> <small>6</small> <span title="t">7</span></li></ul>',
    )
  })
  it('removes scripts, event handlers, javascript: links and unknown tags', () => {
    expect(sanitizeHtml('<img src=x onerror=alert(1)><script>alert(1)</script><b onclick="x()">ok</b>')).toBe('<b>ok</b>')
    expect(sanitizeHtml('<a href="javascript:alert(1)">x</a>')).toBe('<a>x</a>')
    expect(sanitizeHtml('<a href="//evil.example">x</a>')).toBe('<a>x</a>')
    expect(sanitizeHtml('<iframe src="https://x"></iframe><style>*{}</style>text')).toBe('text')
  })
  it('drops script in any spelling, with its content', () => {
    expect(sanitizeHtml('<SCRIPT>alert(1)</SCRIPT>a<script src="https://evil.example/x.js"></script>b')).toBe('ab')
    expect(sanitizeHtml('<<script>alert(1)//<</script>c')).toBe('&lt;c')
    expect(sanitizeHtml('<svg><script>alert(1)</script></svg><math><mi>x</mi></math>d')).toBe('d')
    expect(sanitizeHtml('<template><b>t</b></template><noscript><img src=x onerror=alert(1)></noscript>e')).toBe('e')
  })
  it('drops every on* attribute, style and any attribute not on the list', () => {
    expect(sanitizeHtml('<p onmouseover="alert(1)" ONCLICK="alert(2)" style="background:url(javascript:alert(3))" class="x" id="y">p</p>')).toBe('<p>p</p>')
    expect(sanitizeHtml('<a href="/ok" onfocus="alert(1)" target="_blank" rel="opener">a</a>')).toBe('<a href="/ok">a</a>')
    expect(sanitizeHtml('<span href="/x" title="t" data-x="1">s</span>')).toBe('<span title="t">s</span>')
  })
  it('keeps a link only to http(s), mailto or a path on this site, however the scheme is disguised', () => {
    for (const href of [
      'javascript:alert(1)',
      'JaVaScRiPt:alert(1)',
      ' javascript:alert(1)',
      'java\tscript:alert(1)',
      'java&#x09;script:alert(1)',
      '&#106;avascript:alert(1)',
      'vbscript:msgbox(1)',
      'data:text/html,<script>alert(1)</script>',
      '//evil.example',
      '/\\evil.example',
      'agreements/1',
      '#top',
    ])
      expect(sanitizeHtml(`<a href="${href}">x</a>`), href).toBe('<a>x</a>')
    expect(sanitizeHtml('<a href="HTTPS://Vipps.dk/a?b=1&amp;c=2">x</a>')).toBe('<a href="HTTPS://Vipps.dk/a?b=1&amp;c=2" rel="noopener noreferrer">x</a>')
  })
  it('removes frames, objects and forms with their content, and style sheets', () => {
    expect(sanitizeHtml('<iframe srcdoc="<script>alert(1)</script>">f</iframe><object data="x.swf">o</object><embed src="x.swf">a')).toBe('a')
    expect(sanitizeHtml('<form action="https://evil.example"><input name="p"><textarea>t</textarea><button>b</button></form>')).toBe('b')
    expect(sanitizeHtml('<style>@import url(https://evil.example/x.css)</style><link rel="stylesheet" href="https://evil.example/x.css">s')).toBe('s')
  })
  it('escapes text, closes what is left open and drops comments', () => {
    expect(sanitizeHtml('a < b & c > d')).toBe('a &lt; b &amp; c &gt; d')
    expect(sanitizeHtml('<b>open <i>nested')).toBe('<b>open <i>nested</i></b>')
    expect(sanitizeHtml('<!-- <script>alert(1)</script> -->t')).toBe('t')
    expect(sanitizeHtml('<p title="&quot; onmouseover=&quot;alert(1)">q</p>')).toBe('<p title="&quot; onmouseover=&quot;alert(1)">q</p>')
  })
  it('keeps escaped values inert', () => {
    expect(sanitizeHtml(`<p>${escapeHtml('<img src=x onerror=alert(1)> & "Karen"')}</p>`)).toBe('<p>&lt;img src=x onerror=alert(1)&gt; &amp; "Karen"</p>')
  })
})
