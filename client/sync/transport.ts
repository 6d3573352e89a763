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
  /** `onResponse`: the answer's status and headers, as soon as they come (before the body). */
  opts: { body?: unknown; headers?: Record<string, string>; timeoutMs?: number; onResponse?: (res: Response) => void } = {},
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
    opts.onResponse?.(res)
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
  return { status: res.status, body: parsed, retryAfterMs: retryAfterMsOf(res.headers.get('Retry-After')) }
}

const retryAfterMsOf = (value: string | null | undefined): number | undefined => {
  const seconds = Number(value)
  return value && Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : undefined
}

/** One request of a batch, as `send` would send it alone (path under /api, without the prefix). */
export interface BatchRequest {
  method: string
  path: string
  body?: unknown
  headers: { 'Idempotency-Key': string; 'If-Match'?: string }
}

/**
 * What `POST /api/sync/batch` gave: an answer per request in order; `unsupported` when the server
 * has no batch route (an older server: 404/405, or an answer that is not one per request), so the
 * caller sends them alone; or the batch's own answer when it was not run (no server, 401, 5xx, 400…).
 */
export type BatchResult = { kind: 'answers'; answers: SyncAnswer[] } | { kind: 'unsupported' } | { kind: 'failed'; answer: SyncAnswer }

interface BatchAnswerBody {
  status?: unknown
  headers?: Record<string, string | undefined>
  body?: unknown
}

/** Sends up to SYNC_BATCH_MAX_ITEMS requests in one round trip (docs/API.md "Batch"). */
export async function sendBatch(t: SyncTransport, requests: BatchRequest[]): Promise<BatchResult> {
  const items = requests.map((r) => ({ method: r.method, path: `/api${r.path}`, headers: r.headers, ...(r.body === undefined ? {} : { body: r.body }) }))
  const answer = await send(t, 'POST', '/sync/batch', { body: { items } })
  if (answer.status === 404 || answer.status === 405) return { kind: 'unsupported' }
  if (answer.status !== 200) return { kind: 'failed', answer }
  const answers = (answer.body as { answers?: BatchAnswerBody[] } | undefined)?.answers
  if (!Array.isArray(answers) || answers.length !== requests.length || !answers.every((a) => typeof a?.status === 'number')) return { kind: 'unsupported' }
  return {
    kind: 'answers',
    // As `send` reads a single answer: an empty body is undefined, Retry-After in milliseconds.
    answers: answers.map((a) => ({ status: a.status as number, body: a.body ?? undefined, retryAfterMs: retryAfterMsOf(a.headers?.['retry-after']) })),
  }
}
