/**
 * How the sync code reaches the server. It does not use lib/api.ts on purpose: a 401 here must
 * pause the queue and keep everything (OFFLINE.md), not clear the session on its own.
 */
export interface SyncTransport {
  getToken: () => string | null
  getLocale: () => string
  fetch: typeof fetch
}

export interface SyncAnswer {
  status: number
  body: unknown
  retryAfterMs?: number
}

/** Sends one request; a network failure is status 0. */
export async function send(t: SyncTransport, method: string, path: string, opts: { body?: unknown; headers?: Record<string, string> } = {}): Promise<SyncAnswer> {
  const headers: Record<string, string> = { Accept: 'application/json', 'Accept-Language': t.getLocale(), ...opts.headers }
  const token = t.getToken()
  if (token) headers.Authorization = `Bearer ${token}`
  let body: string | undefined
  if (opts.body !== undefined) {
    body = JSON.stringify(opts.body)
    headers['Content-Type'] = 'application/json'
  }
  let res: Response
  try {
    res = await t.fetch(`/api${path}`, { method, headers, body })
  } catch {
    return { status: 0, body: undefined }
  }
  const text = await res.text().catch(() => '')
  let parsed: unknown = undefined
  try {
    parsed = text ? JSON.parse(text) : undefined
  } catch {
    parsed = undefined
  }
  const retryAfter = Number(res.headers.get('Retry-After'))
  return { status: res.status, body: parsed, retryAfterMs: Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter * 1000 : undefined }
}
