import { v7 } from 'uuid'
import type { TestApp } from '../../test/harness'

/** `POST /api/articles` as the given user. */
export async function createArticle(t: TestApp, token: string | undefined, body: Record<string, unknown>, headers: Record<string, string> = {}) {
  return await t.call('POST', '/articles', { token, body, headers: { 'Idempotency-Key': v7(), ...headers } })
}

/** The titles `GET /api/articles?q=…` answers (status 200 expected). */
export async function searchTitles(t: TestApp, token: string, q: string, extra = ''): Promise<string[]> {
  const res = await t.call('GET', `/articles?q=${encodeURIComponent(q)}${extra}`, { token })
  if (res.status !== 200) throw new Error(`search ${q}: ${res.status} ${JSON.stringify(res.json)}`)
  return (res.json as { title: string }[]).map((a) => a.title)
}

/** `POST /api/articles/{id}/attachments` as multipart, like the browser sends it. */
export async function attachFile(t: TestApp, token: string | undefined, id: string, file: { name: string; bytes: Uint8Array } | null, lang = 'en') {
  const form = new FormData()
  if (file) form.set('file', new File([file.bytes as unknown as ArrayBuffer], file.name))
  const res = await t.app.request(`/api/articles/${id}/attachments`, {
    method: 'POST',
    headers: { ...(token ? { Authorization: `Bearer ${token}` } : {}), 'Accept-Language': lang, 'Idempotency-Key': v7() },
    body: form,
  })
  const text = await res.text()
  return { status: res.status, json: text ? JSON.parse(text) : null }
}

export const laundryArticle = {
  language: 'da',
  title: 'Vaskeriet og gården',
  body: '<p>Affaldssortering i gården: <b>storskrald</b> stilles ved containeren den første mandag.</p><script>alert(1)</script><p>Tøjet hentes senest kl. 20.</p>',
  tags: ['Vaskeri', ' Affald '],
}
