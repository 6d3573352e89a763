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

/** The Danish sample sheet (one definition, shared/domain/household-import.test-fixtures.ts). */
export { DANISH } from '../../../shared/domain/household-import.test-fixtures'
