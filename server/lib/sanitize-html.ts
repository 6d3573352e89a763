import createDOMPurify from 'dompurify'
import { JSDOM } from 'jsdom'
import { ALLOWED_ATTR, ALLOWED_TAGS, ALLOWED_URI_REGEXP } from '../../shared/domain/html-policy'

const purify = createDOMPurify(new JSDOM('').window as unknown as Window & typeof globalThis)
purify.addHook('afterSanitizeAttributes', (node) => {
  if (node.tagName === 'A' && node.getAttribute('href')?.match(/^https?:/i)) node.setAttribute('rel', 'noopener noreferrer')
})

/** Keeps only the allow-listed tags and attributes (shared/domain/html-policy.ts). */
export function sanitizeHtml(html: string): string {
  return purify.sanitize(html, { ALLOWED_TAGS, ALLOWED_ATTR: [...ALLOWED_ATTR, 'rel'], ALLOWED_URI_REGEXP })
}

/** Escapes text for use inside sanitized HTML (values interpolated into a message). */
export const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!)
