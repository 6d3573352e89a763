import type { Context } from 'hono'
import { validation } from '../errors'
import type { AppEnv } from './app-env'

/**
 * Files in and out of the API (message attachments, documents, market photos): one place for the
 * multipart field and for the headers a stored file is answered with.
 */

/**
 * The uploaded `file` of a parsed multipart body, as bytes; 400 on `file` with `missing` when there
 * is none — after the route's scope, so a caller without access hears 404 or 403 (docs/API.md "Refusals").
 */
export async function uploadedFile(c: Context<AppEnv>, form: Record<string, unknown>, missing: string): Promise<{ name: string; bytes: Uint8Array }> {
  const file = form.file
  if (!(file instanceof File)) {
    await c.var.accessProbe?.()
    throw validation([{ path: 'file', message: missing }])
  }
  return { name: file.name, bytes: new Uint8Array(await file.arrayBuffer()) }
}

/**
 * A stored file as the answer: its type, `Content-Disposition: attachment` with its name when it has
 * one (a photo shown in a page has none), an ETag when given, and a sandboxing CSP — never a page of
 * our origin: no scripts, forms or plugins even if a browser renders it (docs/decisions/0026-attachments-on-disk.md).
 */
export function storedFileAnswer(c: Context, file: { contentType: string; bytes: Uint8Array; name?: string; etag?: string }): Response {
  c.header('Content-Type', file.contentType)
  if (file.name !== undefined) c.header('Content-Disposition', `attachment; filename*=UTF-8''${encodeURIComponent(file.name)}`)
  if (file.etag !== undefined) c.header('ETag', `"${file.etag}"`)
  c.header('Content-Security-Policy', "default-src 'none'; frame-ancestors 'none'; sandbox")
  return c.body(new Uint8Array(file.bytes), 200)
}
