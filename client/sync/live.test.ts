import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { LIVE_MAX_BACKOFF_MS, LIVE_REFUSED_WAIT_MS, LIVE_SILENCE_MS, LiveStream } from './live'
import type { SyncTransport } from './transport'

/** A fake server for GET /api/live: each request gets the next answer; a stream's events are pushed by the test. */
function fakeServer() {
  const requests: Array<{ url: string; headers: Record<string, string>; signal: AbortSignal }> = []
  const streams: Array<{ push: (text: string) => void; end: () => void; cancelled: boolean }> = []
  const answers: Array<() => Response> = []
  const stream = () => {
    let controller!: ReadableStreamDefaultController<Uint8Array>
    const entry = { push: (text: string) => controller.enqueue(new TextEncoder().encode(text)), end: () => controller.close(), cancelled: false }
    const body = new ReadableStream<Uint8Array>({
      start: (c) => void (controller = c),
      cancel: () => void (entry.cancelled = true),
    })
    streams.push(entry)
    return new Response(body, { status: 200, headers: { 'Content-Type': 'text/event-stream' } })
  }
  let token: string | null = 'token-1'
  const transport: SyncTransport = {
    getToken: () => token,
    getLocale: () => 'da',
    fetch: ((url: string, init: RequestInit) => {
      requests.push({ url, headers: init.headers as Record<string, string>, signal: init.signal! })
      return Promise.resolve((answers.shift() ?? stream)())
    }) as typeof fetch,
  }
  return { requests, streams, answers, transport, setToken: (t: string | null) => (token = t), stream }
}

const flush = () => vi.advanceTimersByTimeAsync(0)

describe('the live stream', () => {
  let live: LiveStream | undefined
  beforeEach(() => vi.useFakeTimers())
  afterEach(() => {
    live?.stop()
    vi.useRealTimers()
  })

  function follow(server: ReturnType<typeof fakeServer>) {
    const onChange = vi.fn()
    const connected: boolean[] = []
    live = new LiveStream({ transport: server.transport, onChange, onConnected: (c) => connected.push(c), random: () => 0 })
    live.start()
    return { onChange, connected }
  }

  it('asks with the bearer token in a header (never in the URL), pulls once when open and at each `changed`', async () => {
    const server = fakeServer()
    const { onChange, connected } = follow(server)
    await flush()
    expect(server.requests).toHaveLength(1)
    expect(server.requests[0]!.url).toBe('/api/live')
    expect(server.requests[0]!.headers).toMatchObject({ Authorization: 'Bearer token-1', 'Accept-Language': 'da', Accept: 'text/event-stream' })
    server.streams[0]!.push('retry: 5000\nevent: ready\ndata: {}\n\n')
    await flush()
    expect(onChange).toHaveBeenCalledTimes(1)
    expect(connected).toEqual([true])
    expect(live!.connected).toBe(true)
    server.streams[0]!.push(': ping\n\nevent: changed\ndata: {}\n\n')
    await flush()
    expect(onChange).toHaveBeenCalledTimes(2)
  })

  it('reconnects after the stream ends, waiting longer after each failure, up to a minute', async () => {
    const server = fakeServer()
    const { connected } = follow(server)
    await flush()
    server.streams[0]!.push('event: ready\ndata: {}\n\n')
    await flush()
    server.streams[0]!.end()
    await flush()
    expect(connected).toEqual([true, false])
    // Equal jitter with random 0: half the ceiling, 5 s · 2^step.
    await vi.advanceTimersByTimeAsync(2499)
    expect(server.requests).toHaveLength(1)
    await vi.advanceTimersByTimeAsync(1)
    expect(server.requests).toHaveLength(2)
    // A stream that never said `ready`, then answers that are no stream, are failures: 5 s, 10 s …
    server.answers.push(
      () => new Response('nope', { status: 502 }),
      () => new Response('nope', { status: 502 }),
    )
    server.streams[1]!.end()
    await vi.advanceTimersByTimeAsync(4999)
    expect(server.requests).toHaveLength(2)
    await vi.advanceTimersByTimeAsync(1)
    expect(server.requests).toHaveLength(3)
    await vi.advanceTimersByTimeAsync(9999)
    expect(server.requests).toHaveLength(3)
    await vi.advanceTimersByTimeAsync(1)
    expect(server.requests).toHaveLength(4)
    expect(LIVE_MAX_BACKOFF_MS).toBe(60_000)
  })

  it('waits for the user to sign in again after 401 or `signed-out`, then opens at once', async () => {
    const server = fakeServer()
    server.answers.push(() => new Response('{}', { status: 401 }))
    follow(server)
    await flush()
    await vi.advanceTimersByTimeAsync(10 * LIVE_MAX_BACKOFF_MS)
    const before = server.requests.length
    expect(before).toBe(1)
    server.setToken('token-2')
    live!.restart()
    await flush()
    expect(server.requests).toHaveLength(before + 1)
    expect(server.requests.at(-1)!.headers.Authorization).toBe('Bearer token-2')
    server.streams.at(-1)!.push('event: closed\ndata: {"reason":"signed-out"}\n\n')
    server.streams.at(-1)!.end()
    await vi.advanceTimersByTimeAsync(10 * LIVE_MAX_BACKOFF_MS)
    expect(server.requests).toHaveLength(before + 1)
  })

  it('leaves the server alone for long when it has no room (503 Retry-After) or closed this stream for a newer one', async () => {
    const server = fakeServer()
    server.answers.push(() => new Response('{}', { status: 503, headers: { 'Retry-After': '60' } }))
    follow(server)
    await flush()
    await vi.advanceTimersByTimeAsync(59_999)
    expect(server.requests).toHaveLength(1)
    await vi.advanceTimersByTimeAsync(1)
    expect(server.requests).toHaveLength(2)
    server.streams[0]!.push('event: ready\ndata: {}\n\nevent: closed\ndata: {"reason":"replaced"}\n\n')
    server.streams[0]!.end()
    await vi.advanceTimersByTimeAsync(LIVE_REFUSED_WAIT_MS - 1)
    expect(server.requests).toHaveLength(2)
    await vi.advanceTimersByTimeAsync(1)
    expect(server.requests).toHaveLength(3)
  })

  it('takes a stream silent for a minute (no heartbeat) for dead and opens another', async () => {
    const server = fakeServer()
    follow(server)
    await flush()
    server.streams[0]!.push('event: ready\ndata: {}\n\n')
    await vi.advanceTimersByTimeAsync(LIVE_SILENCE_MS - 1)
    expect(server.streams[0]!.cancelled).toBe(false)
    await vi.advanceTimersByTimeAsync(1)
    expect(server.streams[0]!.cancelled).toBe(true)
    await vi.advanceTimersByTimeAsync(5000)
    expect(server.requests).toHaveLength(2)
  })

  it('stops: the request is aborted and nothing reconnects', async () => {
    const server = fakeServer()
    const { onChange } = follow(server)
    await flush()
    live!.stop()
    expect(server.requests[0]!.signal.aborted).toBe(true)
    await vi.advanceTimersByTimeAsync(10 * LIVE_MAX_BACKOFF_MS)
    expect(server.requests).toHaveLength(1)
    expect(onChange).not.toHaveBeenCalled()
  })

  it('opens nothing without a token', async () => {
    const server = fakeServer()
    server.setToken(null)
    follow(server)
    await vi.advanceTimersByTimeAsync(10 * LIVE_MAX_BACKOFF_MS)
    expect(server.requests).toHaveLength(0)
  })
})
