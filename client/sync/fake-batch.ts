/**
 * For tests with a fake server: answers `POST /api/sync/batch` by passing each item to the fake's
 * own handler, one after another, and collecting the answers as the real route does
 * (server/features/sync/batch.routes.ts), so a fake written for single requests also serves the
 * drainer's batches.
 */
type Handler = (url: string, init: RequestInit) => Response | Promise<Response>

const answeredHeaders = ['etag', 'location', 'idempotent-replayed', 'retry-after'] as const

export function answeringBatches(handle: Handler): (url: string, init: RequestInit) => Promise<Response> {
  return async (url, init) => {
    if (!url.endsWith('/api/sync/batch') || init.method !== 'POST') return handle(url, init)
    const { items } = JSON.parse(init.body as string) as { items: Array<{ method: string; path: string; headers: Record<string, string>; body?: unknown }> }
    const answers = []
    for (const item of items) {
      // A plain object, as `send` gives its requests (fakes read headers['Idempotency-Key']).
      const { 'Content-Type': _json, ...batchHeaders } = init.headers as Record<string, string>
      const headers: Record<string, string> = { ...batchHeaders, ...item.headers }
      if (item.body !== undefined) headers['Content-Type'] = 'application/json'
      const res = await handle(item.path, { method: item.method, headers, body: item.body === undefined ? undefined : JSON.stringify(item.body) })
      const text = await res.text()
      const answered: Record<string, string> = {}
      for (const h of answeredHeaders) {
        const v = res.headers.get(h)
        if (v !== null) answered[h] = v
      }
      answers.push({ status: res.status, headers: answered, body: text ? JSON.parse(text) : null })
    }
    return new Response(JSON.stringify({ answers }), { status: 200, headers: { 'Content-Type': 'application/json' } })
  }
}
