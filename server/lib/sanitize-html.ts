import { createRequire } from 'node:module'
import type { DOMPurify } from 'dompurify'
import { ALLOWED_ATTR, ALLOWED_TAGS, ALLOWED_URI_REGEXP } from '../../shared/domain/html-policy'

// jsdom costs ~95 MB of memory, so it is loaded on the first sanitize, not at import: a process
// that never sanitizes (`npm run billing`, the billing benchmark) does without it.
const require = createRequire(import.meta.url)
let purify: DOMPurify | undefined
function purifier(): DOMPurify {
  if (purify) return purify
  const createDOMPurify = require('dompurify') as { default?: (w: unknown) => DOMPurify } & ((w: unknown) => DOMPurify)
  const { JSDOM } = require('jsdom') as typeof import('jsdom')
  purify = (createDOMPurify.default ?? createDOMPurify)(new JSDOM('').window)
  purify.addHook('afterSanitizeAttributes', (node) => {
    if (node.tagName === 'A' && node.getAttribute('href')?.match(/^https?:/i)) node.setAttribute('rel', 'noopener noreferrer')
  })
  return purify
}

/** Keeps only the allow-listed tags and attributes (shared/domain/html-policy.ts). */
export function sanitizeHtml(html: string): string {
  return purifier().sanitize(html, { ALLOWED_TAGS, ALLOWED_ATTR: [...ALLOWED_ATTR, 'rel'], ALLOWED_URI_REGEXP })
}

/** Escapes text for use inside sanitized HTML (values interpolated into a message). */
export const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!)
