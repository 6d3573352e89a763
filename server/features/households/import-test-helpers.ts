import { v7 } from 'uuid'
import type { TestApp } from '../../test/harness'

/** A CSV file of the given rows, separated by `;`, with a BOM as Danish Excel saves it. */
export const csvOf = (rows: string[][], delimiter = ';', bom = true) =>
  new TextEncoder().encode(
    (bom ? '\uFEFF' : '') + rows.map((r) => r.map((c) => (/[;,"\n]/.test(c) ? `"${c.replace(/"/g, '""')}"` : c)).join(delimiter)).join('\r\n'),
  )

/** `POST /api/companies/{id}/import` with the file as multipart, like the browser sends it. */
export async function importFile(
  t: TestApp,
  token: string | undefined,
  companyId: string,
  bytes: Uint8Array,
  query = '',
  opts: { locale?: 'en' | 'da'; key?: string; name?: string } = {},
) {
  const form = new FormData()
  form.set('file', new File([bytes as unknown as ArrayBuffer], opts.name ?? 'husstande.csv'))
  const res = await t.app.request(`/api/companies/${companyId}/import${query}`, {
    method: 'POST',
    headers: { ...(token ? { Authorization: `Bearer ${token}` } : {}), 'Accept-Language': opts.locale ?? 'en', 'Idempotency-Key': opts.key ?? v7() },
    body: form,
  })
  const text = await res.text()
  return { status: res.status, json: text ? JSON.parse(text) : null }
}

/**
 * Danish headers and three rows: a household of two residents and one of one, at addresses the
 * builtin register knows; each payer's row has the monthly amounts the import makes an agreement
 * of (docs/decisions/0093): 4,250.00 + 600.00 + 250.00 kr. and 3,900.50 + 175.00 kr.
 */
export const DANISH = [
  [
    'Eksternt nr.',
    'Adresse',
    'Nummer',
    'Etage',
    'Side',
    'Postnr',
    'By',
    'Type',
    'Areal m²',
    'Fordelingstal',
    'Beboer',
    'E-mail',
    'Indflytning',
    'Ejer/lejer',
    'Betaler',
    'Boligafgift',
    'Aconto varme',
    'Aconto vand',
  ],
  [
    'A-1',
    'Dronningensgade',
    '70',
    '1',
    'tv',
    '2620',
    'Albertslund',
    'Lejlighed',
    '74,5',
    '1,25',
    'Karen Holm',
    'karen.holm@example.dk',
    '01-02-2024',
    'Ejer',
    'Ja',
    '4.250,00',
    '600,00',
    '250',
  ],
  ['A-1', 'Dronningensgade', '70', '1', 'tv', '2620', 'Albertslund', '', '', '', 'Jens Holm', 'jens.holm@example.dk', '01.02.2024', 'Ejer', 'Nej', '', '', ''],
  [
    'A-2',
    'Lærkevej',
    '78',
    '3',
    'tv',
    '2620',
    'Albertslund',
    'Lejlighed',
    '1.102,50',
    '0,875',
    'Mette Lund',
    'mette.lund@example.dk',
    '2023-08-15',
    'Lejer',
    'ja',
    '3900,5',
    '',
    '175,00',
  ],
]
