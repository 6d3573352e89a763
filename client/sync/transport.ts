/**
 * How the sync code reaches the server. It does not use lib/api.ts on purpose: a 401 here must
 * pause the queue and keep everything (docs/OFFLINE.md), not clear the session on its own.
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

/**
 * How long a request may take before it counts as a network failure. A request that never ends
 * (a dead connection, a captive portal) would otherwise stall the queue, and the cross-tab lock
 * with it; a resend after the timeout is safe (same Idempotency-Key).
 */
export const REQUEST_TIMEOUT_MS = 30_000

/**
 * Whether an answer means the server could not be reached: no answer (status 0: network error,
 * timeout) or 502/503/504 from what stands in front of it. The drainer and the pull both report
 * such an answer as unreachable, so the indicator says offline whichever of them met it.
 */
export const isUnreachable = (status: number): boolean => status === 0 || status === 502 || status === 503 || status === 504

/** Sends one request; a network failure or a timeout is status 0. */
export async function send(
  t: SyncTransport,
  method: string,
  path: string,
  opts: { body?: unknown; headers?: Record<string, string>; timeoutMs?: number } = {},
): Promise<SyncAnswer> {
  const headers: Record<string, string> = { Accept: 'application/json', 'Accept-Language': t.getLocale(), ...opts.headers }
  const token = t.getToken()
  if (token) headers.Authorization = `Bearer ${token}`
  let body: string | undefined
  if (opts.body !== undefined) {
    body = JSON.stringify(opts.body)
    headers['Content-Type'] = 'application/json'
  }
  const abort = new AbortController()
  const timer = setTimeout(() => abort.abort(), opts.timeoutMs ?? REQUEST_TIMEOUT_MS)
  let res: Response
  let text: string
  try {
    res = await t.fetch(`/api${path}`, { method, headers, body, signal: abort.signal })
    text = await res.text()
  } catch {
    return { status: 0, body: undefined }
  } finally {
    clearTimeout(timer)
  }
  let parsed: unknown
  try {
    parsed = text ? JSON.parse(text) : undefined
  } catch {
    parsed = undefined
  }
  const retryAfter = Number(res.headers.get('Retry-After'))
  return { status: res.status, body: parsed, retryAfterMs: Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter * 1000 : undefined }
}
