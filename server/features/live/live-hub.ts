import type { Logger } from 'pino'
import { LIVE_EVENTS, LIVE_RETRY_MS, type LiveCloseReason } from '../../../shared/contract/live'
import type { ChangeAudience } from '../sync'
import type { ChangeFeed } from './change-feed'

/** The bounds of the live streams (decision 0086). */
export interface LiveLimits {
  /** Streams one user may hold (tabs and devices); a new one beyond it closes their oldest. */
  perUser: number
  /** Streams of this instance in all; a new one beyond it is refused (503, the client polls). */
  total: number
  /** A comment line this often keeps proxies from closing an idle stream, and re-reads who may see what. */
  heartbeatMs: number
}

export const LIVE_LIMITS: LiveLimits = { perUser: 5, total: 2000, heartbeatMs: 25_000 }

/** What decides which changes a stream is told of: the columns `visibleLog` (sync.service.ts) reads. */
export interface Viewer {
  userId: string
  superAdmin: boolean
  /** Companies the user is staff of. */
  staffOf: ReadonlySet<string>
  /** Associations the user lives in (sees the members' rows of). */
  residentIn: ReadonlySet<string>
}

/** One open stream, as the route hands it over. */
export interface LiveClient {
  viewer: Viewer
  /** Writes to the stream; resolves when the client took it (a stalled client never does). */
  write(text: string): Promise<unknown>
  /** Ends the stream. */
  end(): void
  /** Who the stream's session is now; undefined once it has ended (sign-out, expiry). */
  revalidate(): Promise<Viewer | undefined>
}

/** Whether a change for `a` may be visible to `v`: when unsure, yes (the pull decides, per row). */
export function mayConcern(v: Viewer, a: ChangeAudience): boolean {
  if (a.userId === v.userId) return true
  if (!a.companyId) return !a.userId
  return v.superAdmin || v.staffOf.has(a.companyId) || (a.members && v.residentIn.has(a.companyId))
}

const event = (name: string, data: object) => `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`

interface Open {
  client: LiveClient
  viewer: Viewer
  /** A write the client has not taken yet. */
  writing: boolean
  /** A `changed` to send once it has. */
  owed: boolean
  /** Heartbeats met while a write was still not taken. */
  stalled: number
  timer: ReturnType<typeof setInterval>
  done: () => void
}

export type LiveHub = ReturnType<typeof createLiveHub>

/**
 * The live streams of this instance (decision 0086): per user and in all, bounded; each told
 * `changed` when a change it may see has committed (the feed), never what changed; a heartbeat
 * comment every `heartbeatMs`, at which the stream's session is checked again (a stream whose
 * session ended is closed) and who may see what re-read. The feed runs while a stream is open.
 */
export function createLiveHub(deps: { feed: ChangeFeed; log: Logger; limits?: Partial<LiveLimits> }) {
  const limits = { ...LIVE_LIMITS, ...deps.limits }
  const open = new Set<Open>()
  let stopping = false
  /** The feed's start, while any stream is open; its stop, after the last has closed. */
  let feedStarted: Promise<void> | undefined
  let feedStopped: Promise<void> = Promise.resolve()
  /** Streams between `ready` and `add`: the feed must not stop under them. */
  let coming = 0

  function send(o: Open, text: string, change: boolean): void {
    if (o.writing) {
      // Told once the client takes what it has: one `changed` stands for any number.
      if (change) o.owed = true
      return
    }
    o.writing = true
    void o.client.write(text).finally(() => {
      o.writing = false
      o.stalled = 0
      if (o.owed && open.has(o)) {
        o.owed = false
        send(o, event(LIVE_EVENTS.changed, {}), true)
      }
    })
  }

  function close(o: Open, reason?: LiveCloseReason): void {
    if (!open.delete(o)) return
    clearInterval(o.timer)
    if (reason) void o.client.write(event(LIVE_EVENTS.closed, { reason })).catch(() => undefined)
    o.client.end()
    o.done()
    if (!open.size && !coming && feedStarted) {
      const started = feedStarted
      feedStarted = undefined
      feedStopped = started.then(deps.feed.stop, deps.feed.stop).catch((err: unknown) => deps.log.warn({ err }, 'live: stopping the feed failed'))
    }
  }

  function changed(audiences: ChangeAudience[]): void {
    for (const o of open) if (audiences.some((a) => mayConcern(o.viewer, a))) send(o, event(LIVE_EVENTS.changed, {}), true)
  }

  async function heartbeat(o: Open): Promise<void> {
    // A client that has not taken a write for two heartbeats is gone without saying so.
    if (o.writing && ++o.stalled >= 2) return close(o)
    send(o, ': ping\n\n', false)
    try {
      const viewer = await o.client.revalidate()
      if (!viewer) return close(o, 'signed-out')
      o.viewer = viewer
    } catch (err) {
      deps.log.warn({ err }, 'live: checking a stream’s session failed')
    }
  }

  return {
    limits,
    /** Whether a new stream would be refused (the instance holds `total`, or it is stopping). */
    full: () => stopping || open.size >= limits.total,
    /**
     * Starts the feed if no stream runs yet: once this resolves, whatever commits is told to the
     * streams added after it (the route waits for it before it answers, so a change made between
     * the client's pull at `ready` and the stream's start is not lost).
     */
    async ready(): Promise<void> {
      coming++
      try {
        feedStarted ??= feedStopped.then(() => deps.feed.start(changed))
        await feedStarted
      } catch (err) {
        feedStarted = undefined
        throw err
      } finally {
        coming--
      }
    },
    /**
     * Adds a stream: says `retry:` and `ready`, closes the user's oldest beyond `perUser`.
     * Resolves when the stream has ended, whoever ended it.
     */
    add(client: LiveClient): Promise<void> {
      return new Promise<void>((done) => {
        const o: Open = { client, viewer: client.viewer, writing: false, owed: false, stalled: 0, timer: undefined as never, done }
        o.timer = setInterval(() => void heartbeat(o), limits.heartbeatMs)
        o.timer.unref?.()
        open.add(o)
        send(o, `retry: ${LIVE_RETRY_MS}\n${event(LIVE_EVENTS.ready, {})}`, false)
        const mine = [...open].filter((x) => x.viewer.userId === client.viewer.userId)
        for (const oldest of mine.slice(0, Math.max(0, mine.length - limits.perUser))) close(oldest, 'replaced')
      })
    },
    /** Ends the stream of `client` (it went away). */
    remove(client: LiveClient): void {
      for (const o of open) if (o.client === client) close(o)
    },
    /** Streams open now (per user when `userId` is given). */
    count: (userId?: string) => [...open].filter((o) => !userId || o.viewer.userId === userId).length,
    /** Server shutdown: every stream is told and closed, new ones are refused, the feed stops. */
    async stop(): Promise<void> {
      stopping = true
      for (const o of [...open]) close(o, 'stopping')
      await feedStopped
    },
  }
}
