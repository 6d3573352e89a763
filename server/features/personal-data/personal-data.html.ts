import type { MessageDescriptor } from '@lingui/core'
import { translate, type Locale } from '../../i18n/i18n'
import { escapeHtml } from '../../lib/sanitize-html'
import type { PersonalDataExport, PersonalDataSection } from '../../../shared/contract/personal-data'

/**
 * The human-readable download (decision 0069): the same content as the JSON, rendered on the
 * server as one self-contained, printable page in the user's language. Every value is escaped
 * (names, message bodies and forum posts are the user's own text); no script, no external asset.
 */
const headings: Record<PersonalDataSection, MessageDescriptor> = {
  user: /*i18n*/ { id: 'Your account' },
  signInMethods: /*i18n*/ { id: 'Sign-in methods' },
  sessions: /*i18n*/ { id: 'Sessions (signed-in devices)' },
  memberships: /*i18n*/ { id: 'Roles in associations' },
  agreements: /*i18n*/ { id: 'Agreements' },
  agreementParts: /*i18n*/ { id: 'Parts of agreements' },
  charges: /*i18n*/ { id: 'Charges' },
  invoices: /*i18n*/ { id: 'Invoices and credit notes' },
  invoiceLines: /*i18n*/ { id: 'Invoice lines' },
  notifications: /*i18n*/ { id: 'Notifications' },
  messagesSent: /*i18n*/ { id: 'Messages you sent' },
  messagesReceived: /*i18n*/ { id: 'Messages you received' },
  forumThreads: /*i18n*/ { id: 'Forum threads' },
  forumPosts: /*i18n*/ { id: 'Forum posts' },
  marketListings: /*i18n*/ { id: 'Market listings' },
  lendingItems: /*i18n*/ { id: 'Things you lend' },
  loans: /*i18n*/ { id: 'Loans' },
  assemblyProposals: /*i18n*/ { id: 'Proposals for general assemblies' },
  documentsUploaded: /*i18n*/ { id: 'Documents you uploaded' },
  articlesWritten: /*i18n*/ { id: 'Articles you wrote' },
  pushDevices: /*i18n*/ { id: 'Devices that get push notifications' },
  homes: /*i18n*/ { id: 'Households you lived in' },
}
const title: MessageDescriptor = /*i18n*/ { id: 'Your personal data in Boligkasse' }
const intro: MessageDescriptor = /*i18n*/ {
  id: 'Everything Boligkasse holds about you on {date}. The same data is in the JSON download, for other programs.',
}
const none: MessageDescriptor = /*i18n*/ { id: 'Nothing.' }

const cell = (value: unknown): string =>
  value === null || value === undefined ? ''
  : typeof value === 'object' ? escapeHtml(JSON.stringify(value))
  : escapeHtml(String(value))

function table(rows: Record<string, unknown>[], caption: string): string {
  const keys = [...new Set(rows.flatMap((r) => Object.keys(r)))]
  const head = keys.map((k) => `<th scope="col">${escapeHtml(k)}</th>`).join('')
  const body = rows.map((r) => `<tr>${keys.map((k) => `<td>${cell(r[k])}</td>`).join('')}</tr>`).join('\n')
  return `<table><caption class="sr-only">${escapeHtml(caption)}</caption><thead><tr>${head}</tr></thead><tbody>\n${body}\n</tbody></table>`
}

function keyValues(row: Record<string, unknown>): string {
  return `<dl>${Object.entries(row)
    .map(([k, v]) => `<dt>${escapeHtml(k)}</dt><dd>${cell(v)}</dd>`)
    .join('')}</dl>`
}

export function personalDataHtml(data: PersonalDataExport, locale: Locale): string {
  const t = (m: MessageDescriptor, values?: Record<string, unknown>) => translate(locale, m, values)
  const sections = (Object.keys(headings) as PersonalDataSection[]).map((key) => {
    const heading = t(headings[key])
    const value = data[key]
    const content =
      Array.isArray(value) ?
        value.length ?
          table(value, heading)
        : `<p>${escapeHtml(t(none))}</p>`
      : keyValues(value)
    return `<section><h2>${escapeHtml(heading)}</h2>\n${content}</section>`
  })
  return `<!doctype html>
<html lang="${locale}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(t(title))}</title>
<style>
body{font-family:system-ui,sans-serif;margin:1.5rem;color:#111;line-height:1.4}
table{border-collapse:collapse;margin:.5rem 0 1.5rem;font-size:.85rem}
th,td{border:1px solid #bbb;padding:.25rem .4rem;text-align:left;vertical-align:top;overflow-wrap:anywhere}
dl{display:grid;grid-template-columns:max-content 1fr;gap:.2rem 1rem}dt{font-weight:600}dd{margin:0;overflow-wrap:anywhere}
section{overflow-x:auto}.sr-only{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)}
@media print{section{break-inside:auto;overflow:visible}}
</style>
</head>
<body>
<main>
<h1>${escapeHtml(t(title))}</h1>
<p>${escapeHtml(t(intro, { date: data.exportedAt.slice(0, 10) }))}</p>
${sections.join('\n')}
</main>
</body>
</html>
`
}
