import sanitize from 'sanitize-html'
import { ALLOWED_ATTR, ALLOWED_TAGS, ALLOWED_URI_REGEXP } from '../../shared/domain/html-policy'

/**
 * Characters a browser ignores inside a URL's scheme (`java\tscript:`), removed before the
 * allow-list test as DOMPurify does on the client.
 */
// eslint-disable-next-line no-control-regex -- the control characters are what is being matched
const URL_WHITESPACE = /[\u0000-\u0020\u00A0\u1680\u180E\u2000-\u2029\u205F\u3000]/g

/** Elements removed together with their content: anything else not allowed keeps its text. */
const DROPPED_WITH_CONTENT = [
  'script',
  'style',
  'textarea',
  'option',
  'noscript',
  'iframe',
  'noembed',
  'noframes',
  'template',
  'xmp',
  'title',
  'object',
  'svg',
  'math',
]

/**
 * The allow-list of shared/domain/html-policy.ts for `sanitize-html` (htmlparser2, no DOM: the
 * server needs neither jsdom nor DOMPurify, docs/decisions/0050). The client applies the same
 * list with DOMPurify on render. A link keeps its `href` only when the shared URL pattern allows
 * it (http(s), mailto or a path on this site), and an outside link gets `rel="noopener noreferrer"`.
 */
const options: sanitize.IOptions = {
  allowedTags: ALLOWED_TAGS,
  allowedAttributes: { '*': ALLOWED_ATTR.filter((a) => a !== 'href'), a: [...ALLOWED_ATTR, 'rel'] },
  // A second guard under the shared pattern below: no other scheme and no `//host` link.
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesByTag: {},
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
  nonTextTags: DROPPED_WITH_CONTENT,
  allowVulnerableTags: false,
  parser: { lowerCaseTags: true, lowerCaseAttributeNames: true },
  transformTags: {
    a: (tagName, attribs) => {
      const href = attribs.href
      const allowed = href !== undefined && ALLOWED_URI_REGEXP.test(href.replace(URL_WHITESPACE, ''))
      // In the order written; `rel` is ours alone.
      const attributes = Object.fromEntries(Object.entries(attribs).filter(([name]) => name === 'title' || (name === 'href' && allowed)))
      if (allowed && /^https?:/i.test(href)) attributes.rel = 'noopener noreferrer'
      return { tagName, attribs: attributes }
    },
  },
}

/** Keeps only the allow-listed tags and attributes (shared/domain/html-policy.ts). */
export function sanitizeHtml(html: string): string {
  return sanitize(html, options)
}

/** Escapes text for use inside sanitized HTML (values interpolated into a message). */
export const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!)
