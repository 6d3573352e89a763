import pg from 'pg'
import type { Logger } from 'pino'
import type { Database_ } from '../../db/client'
import type { WriteLock } from '../../lib/write-lock'
import { backoffMs } from '../../../shared/domain/backoff'
import { audiencesSince, CHANGE_LOG_CHANNEL, latestSeq, watchChangeLog, type ChangeAudience } from '../sync'

/**
 * Tells the live streams who may see what was just committed (decision 0086). It is woken after a
 * change-log row is written, then reads the rows committed since it last looked, by audience only
 * (company, user, members): what was changed is never read here. Woken
 * - on SQLite, in process: the change log calls it from inside the writing transaction, and it
 *   reads under the write lock, which it gets only after that transaction has committed (or
 *   rolled back: then there is nothing new and nobody is woken);
 * - on PostgreSQL, by NOTIFY: every transaction that logs changes notifies at its COMMIT
 *   (server/features/sync/change-log.ts), so a write on any instance wakes the streams on all of
 *   them. One connection of its own per instance LISTENs, reconnecting with backoff; after each
 *   (re)connect it reads once, so what committed while it was away is told too.
 * Wakings that come while a read runs are folded into one more read.
 */
export interface ChangeFeed {
  /** Starts (the newest seq read now: what commits later is told); resolves when listening. */
  start(onChange: (audiences: ChangeAudience[]) => void): Promise<void>
  stop(): Promise<void>
}

/** The pause before LISTEN's connection is made again: 0.5 s doubling up to 30 s, with jitter. */
const RECONNECT = { baseMs: 500, maxMs: 30_000, jitter: 'equal' } as const

export function changeFeed(deps: { database: Database_; lock: WriteLock; log: Logger }): ChangeFeed {
  const { database, lock, log } = deps
  const db = database.db
  let seq = 0
  let onChange: ((audiences: ChangeAudience[]) => void) | undefined
  let reading: Promise<void> | undefined
  let again = false
  let stopListening: (() => Promise<void>) | undefined

  async function readNew(): Promise<void> {
    do {
      again = false
      // Under the write lock on SQLite: after the transaction that woke us has ended.
      const found = await lock.run(() => audiencesSince(db, seq))
      if (found && onChange) {
        seq = Math.max(seq, found.seq)
        onChange(found.audiences)
      }
    } while (again && onChange)
  }

  function wake(): void {
    if (!onChange) return
    if (reading) {
      again = true
      return
    }
    reading = readNew()
      .catch((err: unknown) => log.warn({ err }, 'live: reading the change log failed'))
      .finally(() => (reading = undefined))
  }

  return {
    async start(listener) {
      seq = await lock.run(() => latestSeq(db))
      onChange = listener
      if (database.engine === 'sqlite' || !database.url) {
        // A PostgreSQL database without a connection string of its own has only this instance's writes to tell.
        const unwatch = watchChangeLog(db, wake)
        stopListening = () => Promise.resolve(unwatch())
        return
      }
      const listening = pgListener(database.url, wake, log)
      stopListening = listening.stop
      await listening.ready
    },
    async stop() {
      onChange = undefined
      const stop = stopListening
      stopListening = undefined
      await stop?.()
      await reading
    },
  }
}

/**
 * A connection of its own that LISTENs on the change log's channel and calls `wake` for each
 * notification and after each (re)connect. `ready` resolves after the first attempt, listening or not.
 */
function pgListener(url: string, wake: () => void, log: Logger): { ready: Promise<void>; stop: () => Promise<void> } {
  let stopped = false
  let client: pg.Client | undefined
  let timer: ReturnType<typeof setTimeout> | undefined
  let failures = 0

  async function connect(): Promise<void> {
    const next = new pg.Client({ connectionString: url, keepAlive: true, application_name: 'boligkasse-live' })
    client = next
    let lost = false
    const reconnect = () => {
      if (lost) return
      lost = true
      if (client === next) client = undefined
      void next.end().catch(() => undefined)
      if (stopped) return
      timer = setTimeout(() => void connect(), backoffMs(failures++, RECONNECT))
      timer.unref()
    }
    next.on('error', (err) => {
      log.warn({ err }, 'live: the LISTEN connection failed; connecting again')
      reconnect()
    })
    next.on('end', reconnect)
    next.on('notification', (message) => {
      if (message.channel === CHANGE_LOG_CHANNEL) wake()
    })
    try {
      await next.connect()
      await next.query(`LISTEN ${CHANGE_LOG_CHANNEL}`)
      failures = 0
      if (stopped) return void next.end().catch(() => undefined)
      wake()
    } catch (err) {
      log.warn({ err }, 'live: could not LISTEN; connecting again')
      reconnect()
    }
  }

  return {
    ready: connect(),
    stop: async () => {
      stopped = true
      clearTimeout(timer)
      const last = client
      client = undefined
      await last?.end().catch(() => undefined)
    },
  }
}
