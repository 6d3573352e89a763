import { v7 } from 'uuid'
import type { TestApp } from '../../test/harness'

/** A 1×1 PNG. */
export const pngBytes = () =>
  new Uint8Array(Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64'))

/** `POST /api/market` as the given user; expects a 201 unless told otherwise. */
export async function createListing(t: TestApp, token: string | undefined, body: Record<string, unknown>) {
  return await t.call('POST', '/market', { token, body, headers: { 'Idempotency-Key': v7() } })
}

/** `PUT /api/market/{id}/photo` as multipart, like the browser sends it. */
export async function putPhoto(
  t: TestApp,
  token: string | undefined,
  id: string,
  file: { name: string; bytes: Uint8Array } | null = { name: 'cykel.png', bytes: pngBytes() },
  language: 'en' | 'da' = 'en',
) {
  const form = new FormData()
  if (file) form.set('file', new File([file.bytes as unknown as ArrayBuffer], file.name))
  const res = await t.app.request(`/api/market/${id}/photo`, {
    method: 'PUT',
    headers: { ...(token ? { Authorization: `Bearer ${token}` } : {}), 'Accept-Language': language },
    body: form,
  })
  const text = await res.text()
  return { status: res.status, json: text ? JSON.parse(text) : null }
}
