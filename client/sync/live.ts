/**
 * The live stream (GET /api/live, decision 0086): while signed in and online, the server tells
 * this tab that something the user may see has changed, and the tab pulls at once, so a
 * colleague's change shows within a second or two instead of at the next 30 s poll
 * (docs/OFFLINE.md "When it syncs"). The stream carries no data: the pull reads it, as always.
 *
 * Bearer tokens cannot be sent by `EventSource`, and a token never goes into a URL, so the stream
 * is read with `fetch` and parsed with `eventsource-parser`. It reconnects with backoff (from the
 * server's `retry:`), and gives up for a while when the server refuses room (503, or `replaced`
 * when the user has more tabs and devices open than the server keeps streams for): the engine's
 * timer polls meanwhile. A stream that has sent nothing, not even its heartbeat, for a minute is
 * taken for dead (a laptop that slept) and opened again.
 */
import { createParser } from 'eventsource-parser'
import { backoffMs } from '../../shared/domain/backoff'
import { LIVE_EVENTS, LIVE_PATH, LIVE_RETRY_MS } from '../../shared/contract/live'
import type { SyncTransport } from './transport'

export interface LiveDeps {
  transport: SyncTransport
  /** Something may have changed: pull now (also once each time the stream opens). */
  onChange: () => void
  /** The stream opened or closed: the engine polls less often while it is open. */
  onConnected?: (connected: boolean) => void
  /** A random number in [0, 1) for the backoff's jitter; tests pass a fixed one. */
  random?: () => number
}

/** Longest wait between attempts after failures. */
export const LIVE_MAX_BACKOFF_MS = 60_000
/** Wait after the server closed this stream for a newer one of the same user, or had no room. */
export const LIVE_REFUSED_WAIT_MS = 5 * 60_000
/** Nothing read for this long (the heartbeat comes every 25 s): the connection is dead. */
export const LIVE_SILENCE_MS = 60_000

type Outcome = { wait: 'backoff' } | { wait: 'fixed'; ms: number } | { wait: 'sign-in' } | { wait: 'none' }

export class LiveStream {
  private running = false
  private abort: AbortController | undefined
  private timer: ReturnType<typeof setTimeout> | undefined
  private failures = 0
  private retryMs = LIVE_RETRY_MS
  private connectedNow = false
  private readonly off: Array<() => void> = []

  constructor(private readonly deps: LiveDeps) {}

  /** Whether the stream is open now. */
  get connected(): boolean {
    return this.connectedNow
  }

  start(): void {
    if (this.running) return
    this.running = true
    if (typeof window !== 'undefined') {
      const on = (event: string, fn: () => void) => {
        window.addEventListener(event, fn)
        this.off.push(() => window.removeEventListener(event, fn))
      }
      on('online', () => this.restart())
      on('offline', () => this.disconnect())
    }
    this.connect()
  }

  stop(): void {
    this.running = false
    for (const off of this.off.splice(0)) off()
    this.disconnect()
  }

  /** Opens the stream again now, forgetting earlier failures (the network came back, the user signed in again). */
  restart(): void {
    if (!this.running) return
    this.disconnect()
    this.failures = 0
    this.connect()
  }

  private disconnect(): void {
    clearTimeout(this.timer)
    this.timer = undefined
    this.abort?.abort()
    this.abort = undefined
    this.setConnected(false)
  }

  private connect(): void {
    if (!this.running || this.abort) return
    if (typeof navigator !== 'undefined' && navigator.onLine === false) return // the `online` event restarts it
    const token = this.deps.transport.getToken()
    if (!token) return
    const abort = new AbortController()
    this.abort = abort
    void this.read(token, abort.signal)
      .catch((): Outcome => ({ wait: 'backoff' }))
      .then((outcome) => {
        if (this.abort !== abort) return // stopped or restarted meanwhile
        this.abort = undefined
        this.setConnected(false)
        this.schedule(outcome)
      })
  }

  private schedule(outcome: Outcome): void {
    if (!this.running || outcome.wait === 'sign-in') return // `restart` when the user has signed in again
    const ms =
      outcome.wait === 'fixed' ? outcome.ms
      : outcome.wait === 'none' ? 0
      : backoffMs(this.failures++, { baseMs: this.retryMs, maxMs: LIVE_MAX_BACKOFF_MS, jitter: 'equal', random: this.deps.random })
    this.timer = setTimeout(() => {
      this.timer = undefined
      this.connect()
    }, ms)
  }

  /** Reads one stream to its end; answers how long to wait before the next. */
  private async read(token: string, signal: AbortSignal): Promise<Outcome> {
    const { transport } = this.deps
    const res = await transport.fetch(`/api${LIVE_PATH}`, {
      headers: { Accept: 'text/event-stream', Authorization: `Bearer ${token}`, 'Accept-Language': transport.getLocale() },
      signal,
    })
    if (res.status === 401) return { wait: 'sign-in' }
    if (res.status === 503 || res.status === 429) {
      const seconds = Number(res.headers.get('Retry-After'))
      return { wait: 'fixed', ms: Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : LIVE_REFUSED_WAIT_MS }
    }
    if (!res.ok || !res.body || !res.headers.get('Content-Type')?.includes('text/event-stream')) return { wait: 'backoff' }

    let outcome: Outcome = { wait: 'backoff' }
    const parser = createParser({
      onRetry: (ms) => (this.retryMs = ms),
      onEvent: (event) => {
        if (event.event === LIVE_EVENTS.ready) {
          this.failures = 0
          this.setConnected(true)
          // What changed while no stream was open was told to nobody: pull once now.
          this.deps.onChange()
        } else if (event.event === LIVE_EVENTS.changed) this.deps.onChange()
        else if (event.event === LIVE_EVENTS.closed) outcome = closedOutcome(event.data)
      },
    })
    const reader = res.body.getReader()
    const decoder = new TextDecoder()
    let silence: ReturnType<typeof setTimeout> | undefined
    const watch = () => {
      clearTimeout(silence)
      silence = setTimeout(() => void reader.cancel().catch(() => undefined), LIVE_SILENCE_MS)
    }
    watch()
    try {
      for (;;) {
        const { done, value } = await reader.read()
        if (done) break
        watch()
        parser.feed(decoder.decode(value, { stream: true }))
      }
    } finally {
      clearTimeout(silence)
    }
    return outcome
  }

  private setConnected(connected: boolean): void {
    if (this.connectedNow === connected) return
    this.connectedNow = connected
    this.deps.onConnected?.(connected)
  }
}

function closedOutcome(data: string): Outcome {
  let reason: unknown
  try {
    reason = (JSON.parse(data) as { reason?: unknown }).reason
  } catch {
    reason = undefined
  }
  if (reason === 'replaced') return { wait: 'fixed', ms: LIVE_REFUSED_WAIT_MS }
  if (reason === 'signed-out') return { wait: 'sign-in' }
  return { wait: 'backoff' }
}
