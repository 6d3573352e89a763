import { v7 } from 'uuid'
import type { TestApp } from '../../test/harness'
import { pngBytes } from '../market/test-helpers'

/** `POST /api/lending` as the given user. */
export async function createItem(t: TestApp, token: string | undefined, body: Record<string, unknown>, headers: Record<string, string> = {}) {
  return await t.call('POST', '/lending', { token, body, headers: { 'Idempotency-Key': v7(), ...headers } })
}

/** `POST /api/lending/{id}/loans` as the given user. */
export async function requestLoan(t: TestApp, token: string | undefined, itemId: string, body: Record<string, unknown>, headers: Record<string, string> = {}) {
  return await t.call('POST', `/lending/${itemId}/loans`, { token, body, headers: { 'Idempotency-Key': v7(), ...headers } })
}

/** A step of a loan (`accept`, `confirm`, …) as the given user. */
export async function loanStep(
  t: TestApp,
  token: string | undefined,
  loanId: string,
  step: string,
  body?: Record<string, unknown>,
  headers: Record<string, string> = {},
) {
  return await t.call('POST', `/loans/${loanId}/${step}`, { token, body, headers: { 'Idempotency-Key': v7(), ...headers } })
}

/** `PUT /api/lending/{id}/photo` as multipart, like the browser sends it. */
export async function putItemPhoto(
  t: TestApp,
  token: string | undefined,
  id: string,
  file: { name: string; bytes: Uint8Array } = { name: 'bor.png', bytes: pngBytes() },
) {
  const form = new FormData()
  form.set('file', new File([file.bytes as unknown as ArrayBuffer], file.name))
  const res = await t.app.request(`/api/lending/${id}/photo`, {
    method: 'PUT',
    headers: { ...(token ? { Authorization: `Bearer ${token}` } : {}), 'Accept-Language': 'en' },
    body: form,
  })
  const text = await res.text()
  return { status: res.status, json: text ? JSON.parse(text) : null }
}
