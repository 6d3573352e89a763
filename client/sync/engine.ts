/**
 * Runs the outbox drain and the pull for one signed-in user, and tells the shell how it goes.
 * Triggers (docs/OFFLINE.md "When it syncs"): start, after each enqueue, the `online` event, the
 * page becoming visible, the live stream's `changed` (live.ts, decision 0086), and a timer: every
 * 30 s without a live stream, every 5 minutes with one. Only one tab drains at a time (Web Locks),
 * so two tabs never send the same mutation at once; the server's idempotency covers whatever else could race.
 */
import { createStore, type Store } from '../lib/store'
import { drainOnce, type DrainDeps } from './drainer'
import { LocalDb, type Mutation } from './local-db'
import { enqueue, type NewMutation } from './outbox'
import { applyToCanonical } from './optimistic'
import { NotKeptError, contextOf } from './outcomes'
import { pullAll } from './pull'
import type { SyncTransport } from './transport'
import { LiveStream } from './live'

export interface SyncStatus {
  online: boolean
  syncing: boolean
  /** The server refused our token: the queue waits for the user to sign in again. */
  authPaused: boolean
  lastSyncedAt: number | null
  lastError: 'offline' | 'error' | null
}

const LOCK_NAME = 'boligkasse-outbox'
const TIMER_MS = 30_000
/** While the live stream is open it tells every change: the timer only pulls when nothing ran for this long. */
const LIVE_TIMER_MS = 5 * 60_000

export class SyncEngine {
  readonly status: Store<SyncStatus>
  private timer: ReturnType<typeof setInterval> | undefined
  private retryTimer: ReturnType<typeof setTimeout> | undefined
  private running: Promise<void> | undefined
  private again = false
  private stopped = false
  private readonly listeners: Array<() => void> = []
  private pullBefore: Promise<unknown> | undefined
  private readonly live: LiveStream | undefined
  private lastRunAt = 0

  constructor(
    readonly db: LocalDb,
    private readonly transport: SyncTransport,
    private readonly options: {
      /** Defaults to folding the confirmed change into the canonical rows (see applyToCanonical). */
      onConfirmed?: DrainDeps['onConfirmed']
      onAuthPaused?: () => void
      /** A pull already running on this database (early-pull.ts): the first run (drain, then pull) waits for it. */
      pullBefore?: Promise<unknown>
      /** Follow GET /api/live (live.ts); on by default in a browser. */
      live?: boolean
    } = {},
  ) {
    this.pullBefore = options.pullBefore
    if (options.live ?? (typeof window !== 'undefined' && typeof ReadableStream !== 'undefined'))
      this.live = new LiveStream({ transport, onChange: () => void this.kick() })
    // With a pull already storing rows, the engine is syncing from the start: the indicator must
    // not say "synced" while the session waits to start it (its first write queues behind the pull's).
    this.status = createStore<SyncStatus>({
      online: navigatorOnline(),
      syncing: options.pullBefore !== undefined,
      authPaused: false,
      lastSyncedAt: null,
      lastError: null,
    })
  }

  start(): void {
    const on = (target: EventTarget, event: string, fn: () => void) => {
      target.addEventListener(event, fn)
      this.listeners.push(() => target.removeEventListener(event, fn))
    }
    if (typeof window !== 'undefined') {
      on(window, 'online', () => {
        this.patch({ online: true })
        void this.syncNow()
      })
      on(window, 'offline', () => this.patch({ online: false }))
      on(document, 'visibilitychange', () => document.visibilityState === 'visible' && this.kick())
    }
    this.timer = setInterval(() => {
      if (!this.live?.connected || Date.now() - this.lastRunAt >= LIVE_TIMER_MS) void this.kick()
    }, TIMER_MS)
    void this.db.meta.get('lastSyncedAt').then((m) => this.patch({ lastSyncedAt: (m?.value as number) ?? null }))
    this.kick()
    this.live?.start()
  }

  /** Stops every trigger; resolves when a run in progress has finished (before closing the db). */
  stop(): Promise<void> {
    this.stopped = true
    clearInterval(this.timer)
    clearTimeout(this.retryTimer)
    for (const off of this.listeners.splice(0)) off()
    this.live?.stop()
    return this.running ?? Promise.resolve()
  }

  /**
   * Stores a change in the outbox and starts sending it. When it cannot be stored (the device's
   * storage is full or failing) it throws `NotKeptError`: the change is not kept and nothing is
   * sent, and the screen must say so (and keep what the user typed).
   */
  async mutate(m: NewMutation): Promise<Mutation> {
    // Noted with the change, so a refusal after access was lost can still name the company.
    const context = await contextOf(this.db, m).catch(() => undefined)
    let mutation: Mutation
    try {
      mutation = await enqueue(this.db, context ? ({ ...m, context } as NewMutation) : m)
    } catch (error) {
      throw new NotKeptError(error)
    }
    this.kick()
    return mutation
  }

  /** After the user signed in again: the queue may go on. */
  async resume(): Promise<void> {
    await this.db.meta.delete('authPaused')
    this.patch({ authPaused: false })
    this.kick()
    this.live?.restart()
  }

  /**
   * Sends now whatever waits for its backoff to end, then pulls: the user asked ("Sync now"), or
   * the connection just came back, so the reason for waiting is gone.
   */
  async syncNow(): Promise<void> {
    await releaseBackoff(this.db)
    await this.kick()
  }

  /** Drain then pull, now (or right after the run in progress). Resolves when done. */
  kick(): Promise<void> {
    if (this.stopped) return Promise.resolve()
    if (this.running) {
      this.again = true
      return this.running
    }
    this.running = this.run().finally(() => {
      this.running = undefined
      if (this.again && !this.stopped) {
        this.again = false
        void this.kick()
      }
    })
    return this.running
  }

  private async run(): Promise<void> {
    this.lastRunAt = Date.now()
    this.patch({ syncing: true })
    try {
      await this.runOnce()
    } catch (error) {
      // The database was closed under us (sign-out) or IndexedDB failed: report it in the status;
      // nothing is lost, the next trigger tries again.
      if (!this.stopped) {
        this.patch({ lastError: 'error' })
        console.error(error)
      }
    } finally {
      this.patch({ syncing: false })
    }
  }

  private async runOnce(): Promise<void> {
    const wasOffline = this.status.get().lastError === 'offline'
    const onConfirmed = this.options.onConfirmed ?? ((m: Mutation, answer: unknown) => applyToCanonical(this.db, m, answer))
    // A pull already running on this database (early-pull.ts) ends first: two pulls at once would
    // only race for the same pages, and its pages, asked for before the queue reached the server,
    // would land on rows the drain had just confirmed (a pull overwrites whatever it finds).
    await this.pullBefore
    this.pullBefore = undefined
    // Stopped while waiting (sign-out, another user): the database is about to close, or a new
    // session's engine pulls on a connection of its own.
    if (this.stopped) return
    const drained = await withOutboxLock(() => drainOnce({ db: this.db, transport: this.transport, onConfirmed }))
    if (drained?.paused === 'auth') return this.pauseForAuth()
    const pulled = await pullAll(this.db, this.transport)
    if (pulled.status === 'unauthorized') return this.pauseForAuth()
    // The server cannot be reached (no network, or it is down behind a proxy answering 502/503/504):
    // offline for the user, even when the browser has a connection.
    const unreachable = pulled.status === 'offline' || (pulled.status === 'error' && drained?.unreachable === true)
    this.patch({
      online: !unreachable && navigatorOnline(),
      lastError:
        pulled.status === 'ok' ? null
        : unreachable ? 'offline'
        : 'error',
      lastSyncedAt: pulled.status === 'ok' ? Date.now() : this.status.get().lastSyncedAt,
    })
    if (!drained?.waiting) return
    // The server answered the pull after a run that could not reach it: mutations backing off
    // from that outage need not wait any longer.
    if (pulled.status === 'ok' && wasOffline) {
      await releaseBackoff(this.db)
      this.again = true
    } else void this.scheduleRetry()
  }

  private pauseForAuth(): void {
    this.patch({ authPaused: true })
    this.options.onAuthPaused?.()
  }

  /** Wakes up when the first waiting mutation is due. */
  private async scheduleRetry(): Promise<void> {
    const next = await this.db.outbox.where('status').equals('queued').sortBy('nextAttemptAt')
    const due = next[0]?.nextAttemptAt
    if (due === undefined) return
    clearTimeout(this.retryTimer)
    this.retryTimer = setTimeout(() => this.kick(), Math.max(50, due - Date.now()))
  }

  private patch(p: Partial<SyncStatus>) {
    this.status.set({ ...this.status.get(), ...p })
  }
}

const navigatorOnline = () => (typeof navigator === 'undefined' ? true : navigator.onLine)

/**
 * Runs `fn` holding the cross-tab outbox lock, waiting while another tab drains; the queue is
 * read after the lock is taken, so the second tab never resends what the first just sent.
 * Without Web Locks (old browsers, tests) it simply runs.
 */
export async function withOutboxLock<T>(fn: () => Promise<T>): Promise<T> {
  const locks = typeof navigator !== 'undefined' ? navigator.locks : undefined
  if (!locks) return fn()
  return locks.request(LOCK_NAME, fn)
}

/** Makes every queued mutation due now (its attempts count stays, so the next failure waits longer). */
async function releaseBackoff(db: LocalDb): Promise<void> {
  const now = Date.now()
  await db.outbox
    .where('status')
    .equals('queued')
    .modify((m) => {
      if (m.nextAttemptAt > now) m.nextAttemptAt = now
    })
}

/** How long `whileOutboxIdle` keeps the lock for a reload that does not come. */
const RELOAD_WAIT_MS = 10_000

/**
 * Runs `reload` (e.g. activating a new service worker, which reloads the page) once no tab is
 * sending from the outbox, and keeps every tab from starting to send until the page has gone:
 * a change in flight is never cut off by the reload. Queued changes wait in IndexedDB.
 */
export function whileOutboxIdle(reload: () => Promise<void> | void): Promise<void> {
  return withOutboxLock(async () => {
    await reload()
    await new Promise((resolve) => setTimeout(resolve, RELOAD_WAIT_MS))
  })
}
