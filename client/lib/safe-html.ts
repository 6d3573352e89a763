/**
 * HTML from the server (notification and message text) is sanitized there on write and again
 * here before it is rendered, with the same allow-list: a row that reached the local database some
 * other way, or an older server, can never put script into the page.
 */
import DOMPurify from 'dompurify'
import { ALLOWED_ATTR, ALLOWED_TAGS, ALLOWED_URI_REGEXP } from '../../shared/domain/html-policy'

type Purifier = Pick<typeof DOMPurify, 'sanitize'>

export function sanitizeHtml(html: string, purifier: Purifier = DOMPurify): string {
  return purifier.sanitize(html, { ALLOWED_TAGS, ALLOWED_ATTR, ALLOWED_URI_REGEXP }) as string
}
