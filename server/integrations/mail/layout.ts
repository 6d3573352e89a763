import { translate, type Locale } from '../../i18n/i18n'
import { escapeHtml } from '../../lib/sanitize-html'

export interface EmailContent {
  subject: string
  /** Paragraphs of plain text, already translated. */
  paragraphs: string[]
  action?: { label: string; url: string }
}

/**
 * The plain-text and HTML bodies of an e-mail in the product's simple layout. Paragraphs are
 * text (a name such as `<b>Bo</b>` in them stays text): the HTML part escapes them.
 */
export function renderEmail(locale: Locale, content: EmailContent): { subject: string; text: string; html: string } {
  const footer = translate(locale, /*i18n*/ { id: 'Boligkasse – payments and administration for housing associations' })
  const text = [...content.paragraphs, ...(content.action ? [`${content.action.label}: ${content.action.url}`] : []), '', '--', footer].join('\n\n')
  const html = `<!doctype html><html lang="${locale}"><body style="font-family:system-ui,sans-serif;color:#1f2937;max-width:560px;margin:auto">
${content.paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join('\n')}
${content.action ? `<p><a href="${escapeHtml(content.action.url)}" style="background:#1d4ed8;color:#fff;padding:10px 16px;border-radius:6px;text-decoration:none">${escapeHtml(content.action.label)}</a></p><p style="font-size:12px;color:#6b7280">${escapeHtml(content.action.url)}</p>` : ''}
<hr><p style="font-size:12px;color:#6b7280">${escapeHtml(footer)}</p></body></html>`
  return { subject: content.subject, text, html }
}
