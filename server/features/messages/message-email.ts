import { renderEmail } from '../../integrations/mail/layout'
import { translate, type Locale } from '../../i18n/i18n'
import type { MessageDescriptor } from '@lingui/core'

const BODY = '\u0000MESSAGE-BODY\u0000'

/** Plain text of sanitized message HTML (for the text part of the e-mail). */
export function htmlToText(html: string): string {
  return html
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<\/(p|li|ul|ol)>/gi, '\n')
    .replace(/<li>/gi, '• ')
    .replace(/<[^>]+>/g, '')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\n{3,}/g, '\n\n')
    .trim()
}

/**
 * A message as an e-mail in the recipient's language: greeting, who sent it, the message itself
 * (its sanitized HTML in the HTML part, its text in the text part) and a link to open it.
 */
export function renderMessageEmail(
  locale: Locale,
  input: { recipientName: string; title: MessageDescriptor; intro: MessageDescriptor; values: Record<string, string>; body: string; url: string },
) {
  const mail = renderEmail(locale, {
    subject: translate(locale, input.title, input.values),
    paragraphs: [translate(locale, /*i18n*/ { id: 'Hello {name},' }, { name: input.recipientName }), translate(locale, input.intro, input.values), BODY],
    action: { label: translate(locale, /*i18n*/ { id: 'Open message' }), url: input.url },
  })
  return {
    subject: mail.subject,
    // Replacement functions, not strings: a `$` in the body is text, not a replacement pattern.
    text: mail.text.replace(BODY, () => htmlToText(input.body)),
    // The body was sanitized when it was saved (shared/domain/html-policy.ts).
    html: mail.html.replace(`<p>${BODY}</p>`, () => `<div style="white-space:pre-wrap;border-left:3px solid #d1d5db;padding-left:12px">${input.body}</div>`),
  }
}
