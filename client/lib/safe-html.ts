/**
 * HTML from the server (notification and message text) is sanitized there on write and again
 * here before it is rendered, with the same allow-list: a row that reached the local database some
 * other way, or an older server, can never put script into the page. As on the server
 * (server/lib/sanitize-html.ts), a link to another site gets `rel="noopener noreferrer"`, so the
 * page it opens learns neither this window nor the address it came from; `rel` written by anyone
 * else is dropped by the allow-list.
 */
import DOMPurify from 'dompurify'
import { ALLOWED_ATTR, ALLOWED_TAGS, ALLOWED_URI_REGEXP } from '../../shared/domain/html-policy'

type Purifier = Pick<typeof DOMPurify, 'sanitize' | 'addHook'>

const OUTSIDE = /^https?:/i
const hooked = new WeakSet<Purifier>()

function addOutsideLinkRel(purifier: Purifier): void {
  if (hooked.has(purifier)) return
  hooked.add(purifier)
  purifier.addHook('afterSanitizeAttributes', (node) => {
    if (node.nodeName === 'A' && OUTSIDE.test(node.getAttribute('href') ?? '')) node.setAttribute('rel', 'noopener noreferrer')
  })
}

export function sanitizeHtml(html: string, purifier: Purifier = DOMPurify): string {
  addOutsideLinkRel(purifier)
  return purifier.sanitize(html, { ALLOWED_TAGS, ALLOWED_ATTR, ALLOWED_URI_REGEXP }) as string
}
