import type { Context, MiddlewareHandler, Next } from 'hono'
import { DomainError, validation } from '../errors'
import type { Clock } from '../lib/clock'
import { createHmac } from 'node:crypto'
import type { WriteLock } from '../lib/write-lock'
import { inReadScope } from '../db/read-scope'
import type { AppEnv, DataAccess } from './app-env'
import { afterSerializationFailure, engineOf, hasErrorCode, isSerializationFailure, SERIALIZATION_ATTEMPTS, transaction, type Db } from '../db/client'
import { statement } from '../db/statement'

interface StoredAnswer {
  request_hash: string
  status: number
  headers: string
  body: string
}

/** Answers worth replaying: success and errors that a retry of the same request would get again. */
const isReplayable = (status: number) => status < 400 || status === 400 || status === 403 || status === 404 || status === 422

const replayedHeaders = ['content-type', 'etag', 'location']

const find = statement<[string, string], StoredAnswer>('SELECT request_hash, status, headers, body FROM idempotency_keys WHERE scope = ? AND key = ?')
const store = statement<[string, string, string, number, string, string, string], never>(
  'INSERT INTO idempotency_keys (scope, key, request_hash, status, headers, body, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
)

/** A unique constraint refused a row (PostgreSQL 23505; SQLite's constraint codes), wrapped by drizzle or not. */
const isDuplicateKey = (err: unknown): boolean => hasErrorCode(err, ['23505', 'SQLITE_CONSTRAINT_PRIMARYKEY', 'SQLITE_CONSTRAINT_UNIQUE'])

/** Which run of the request this is, when a write is run again after a serialization failure (at most `SERIALIZATION_ATTEMPTS`). */
const ATTEMPT_HEADER = 'x-boligkasse-attempt'

/** The run a request says it is (1 if it says nothing sensible), so a client can only shorten its own reruns. */
const attemptOf = (header: string | undefined): number => {
  const n = Number(header ?? 1)
  return Number.isInteger(n) && n >= 1 ? Math.min(n, SERIALIZATION_ATTEMPTS) : 1
}

/** Thrown inside the request's transaction to roll a failed request's effects back (not an error). */
const rolledBack = Symbol('rolled back')

/**
 * The text of each JSON answer a keyed write made (by response object), so storing the answer
 * needs no `c.res.clone()`: cloning turns @hono/node-server's lightweight response into a full
 * web Response with streams, which then also has to be streamed to the client instead of written
 * as one string (together a tenth of a write's time). A response this does not know
 * (not from `c.json`, or replaced later) is read from a clone as before.
 */
const jsonTexts = new WeakMap<Response, string>()

function rememberJsonTexts(c: Context<AppEnv>) {
  const json = c.json as (object: unknown, ...rest: unknown[]) => Response
  c.json = ((object: unknown, ...rest: unknown[]) => {
    const res = json(object, ...rest)
    // The same text `c.json` put in the response (it is JSON.stringify of the same object).
    const text = JSON.stringify(object) as string | undefined
    if (text !== undefined) jsonTexts.set(res, text)
    return res
  }) as typeof c.json
}

/**
 * How routes touch the database, chosen by each route's rules (server/http/route.ts):
 *
 * `write` runs the request as one database transaction under the write lock
 * (`transaction(db, fn)`: SQLite's `BEGIN IMMEDIATE`, or a PostgreSQL transaction on one pooled
 * connection), and implements Idempotency-Key (docs/API.md "Writes"):
 * - the stored answer is written in the same transaction as the effect, so after a crash either
 *   both exist or neither does, and a retry after a lost response replays the answer;
 * - the same key with another method, path or body → 422 IDEMPOTENCY_KEY_REUSED;
 * - the same key while the first request still runs → 409 IDEMPOTENCY_IN_PROGRESS, Retry-After 1.
 * Keys are scoped to the signed-in user; requests without a user (sign-in, password reset) are
 * naturally safe to retry and are not keyed.
 * Any error rolls the whole effect back; a replayable 4xx answer is then stored on its own.
 *
 * `read` runs the request in a read scope (server/db/read-scope.ts, decision 0049): the app's
 * `db` handle sends its queries to the read-only connection of a file database, which sees only
 * committed rows, so it never takes the lock. A `:memory:` database has one connection: there
 * reads wait for the lock, and the scope only refuses writes, as the real reader would.
 */
export interface DataAccessDeps {
  /** The app's handle (the writer's outside a read scope). */
  db: Db
  /**
   * Whether reads have their own connection (`Database_.reader`). Without one (`:memory:` test
   * databases) a read shares the writer and so waits for the lock: otherwise it would see a
   * write's uncommitted rows, and a sync cursor could point at a change-log seq that a rollback
   * hands out again.
   */
  readsApart: boolean
  clock: Clock
  lock: WriteLock
  /**
   * Keys the stored request fingerprint (HMAC-SHA256), so a copy of the database does not let
   * anyone test guesses of a password sent in a body (e.g. `currentPassword`) against it.
   */
  fingerprintKey: string
  /**
   * Runs a request through the app again (`app.fetch`): a write PostgreSQL gave up on to keep
   * transactions serializable (another instance wrote the same rows) runs once more, whole.
   */
  rerun?: (request: Request, env: unknown) => Response | Promise<Response>
}

export function dataAccess(deps: DataAccessDeps): DataAccess {
  /** The Idempotency-Keys (by user) whose request is running now. */
  const inFlight = new Set<string>()
  /**
   * The keys this instance answered lately (oldest first, at most `RECENT_KEYS`): a retry of one of
   * them is looked up before it runs, on PostgreSQL too (decision 0095), so a retry to the same
   * instance never runs its handler again, whatever the handler does besides its database writes.
   */
  const recent = new Set<string>()

  const read: MiddlewareHandler<AppEnv> = async (_c, next) => (deps.readsApart ? inReadScope(next) : await deps.lock.run(() => inReadScope(next)))

  const write: MiddlewareHandler<AppEnv> = async (c, next) => {
    const key = c.req.header('Idempotency-Key')
    if (key !== undefined && (key.length < 1 || key.length > 64))
      throw validation([{ path: 'Idempotency-Key', message: 'Idempotency-Key must be 1 to 64 characters.' }])
    const scope = c.get('actor')?.userId
    const slot = key && scope ? `${scope}\u0000${key}` : undefined
    if (slot && inFlight.has(slot)) throw new DomainError('IDEMPOTENCY_IN_PROGRESS', 'The same request is still being processed.', { retryAfterSeconds: 1 })
    if (slot) inFlight.add(slot)
    const attempt = attemptOf(c.req.header(ATTEMPT_HEADER))
    let body: Uint8Array<ArrayBuffer>
    let again: boolean
    try {
      // The bytes, not text: a multipart upload (a PDF attachment) is read from this same body
      // later, and decoding it as UTF-8 here would corrupt it.
      body = new Uint8Array(await c.req.arrayBuffer())
      const keyed = key && scope ? { scope, key, answeredHere: recent.has(slot!) } : undefined
      again = await new KeyedWrite(c, deps, keyed, fingerprint(c, body, deps.fingerprintKey)).run(next, attempt)
      if (slot && !again) remember(recent, slot)
    } finally {
      if (slot) inFlight.delete(slot)
    }
    if (again) {
      await afterSerializationFailure(attempt)
      const headers = new Headers(c.req.raw.headers)
      headers.set(ATTEMPT_HEADER, String(attempt + 1))
      c.error = undefined
      c.res = await deps.rerun!(new Request(c.req.url, { method: c.req.method, headers, body: body.length ? body : undefined }), c.env)
    }
  }

  return { read, write }
}

/** How many answered keys an instance remembers (a few hundred kilobytes). */
const RECENT_KEYS = 10_000

function remember(recent: Set<string>, slot: string) {
  recent.delete(slot)
  recent.add(slot)
  if (recent.size > RECENT_KEYS) recent.delete(recent.values().next().value!)
}

/** The request's fingerprint: method, path and query, If-Match and body (without a multipart boundary), keyed. */
function fingerprint(c: Context<AppEnv>, body: Uint8Array, fingerprintKey: string): string {
  const url = new URL(c.req.url)
  return createHmac('sha256', fingerprintKey)
    .update(`${c.req.method} ${url.pathname}${url.search}\n${c.req.header('If-Match') ?? ''}\n`)
    .update(withoutBoundary(body, c.req.header('Content-Type')))
    .digest('hex')
}

/** One run of a write request under the write lock: its transaction, and its stored answer when it has an Idempotency-Key. */
class KeyedWrite {
  constructor(
    private readonly c: Context<AppEnv>,
    private readonly deps: DataAccessDeps,
    private readonly keyed: { scope: string; key: string; answeredHere: boolean } | undefined,
    private readonly requestHash: string,
  ) {}

  /** Whether the key is checked only when the transaction fails (PostgreSQL, a key this instance has not answered; see `transaction`). */
  private get optimistic(): boolean {
    return engineOf(this.deps.db) !== undefined && !this.keyed?.answeredHere
  }

  /** Runs the request once; true when PostgreSQL gave up on it and it is to run again, whole. */
  async run(next: Next, attempt: number): Promise<boolean> {
    return await this.deps.lock.run(async () => {
      // A failed request's effects roll back; its replayable answer is then stored on its own.
      let answer: StoredText | undefined
      try {
        await this.transaction(next, (a) => (answer = a))
        return false
      } catch (err) {
        return await this.afterFailure(err, answer, attempt)
      }
    })
  }

  /** The request in one transaction, with its stored answer when it succeeds. */
  private async transaction(next: Next, answered: (answer: StoredText) => void): Promise<void> {
    const { c, keyed } = this
    let replay = false
    await transaction(
      this.deps.db,
      async () => {
        if (replay) return
        if (keyed) rememberJsonTexts(c)
        await next()
        const status = c.res.status
        const failed = c.error !== undefined || status >= 400
        const answer = keyed && isReplayable(status) ? { status, text: await this.answerText() } : undefined
        if (answer) answered(answer)
        if (failed) throw rolledBack
        if (answer) await this.remember(answer)
      },
      {
        // Not retried inside: `next()` runs once per request; a whole new run is the caller's.
        retry: false,
        // A retry after a lost response answers with the stored answer. On SQLite it is looked
        // up before the transaction (in process, microseconds). On PostgreSQL the key is not
        // looked up first, which would cost a round trip on every write: the stored answer is
        // inserted with the COMMIT, and a key stored before fails it there, rolls the retry's
        // effect back, and the stored answer is given (`afterFailure`). A retry that reaches
        // another instance so runs its handler once more, inside a transaction that cannot
        // commit; a `write` route calls nothing outside the database (server/http/route.ts), so
        // that leaves no trace. A retry of a key this instance answered is looked up first.
        before: keyed && !this.optimistic ? async () => void (replay = await this.replayed()) : undefined,
      },
    )
  }

  /** After the transaction failed or rolled back: run again, answer as another instance did, or store the replayable answer alone. */
  private async afterFailure(err: unknown, answer: StoredText | undefined, attempt: number): Promise<boolean> {
    const { c, keyed } = this
    // The key was not looked up first (PostgreSQL): a retry of a request that succeeded may
    // have failed only because its first run's effect is there ("exists", a version moved on).
    // Its stored answer is the answer; looked up only now, on the way out of a failure.
    if (keyed && this.optimistic && (await this.replayed())) return false
    // PostgreSQL gave up on it (in the handler, or at COMMIT) for another instance's write
    // of the same rows: nothing of it stays; it runs again after the lock is let go.
    if (this.deps.rerun && isSerializationFailure(err === rolledBack ? c.error : err) && attempt < SERIALIZATION_ATTEMPTS) return true
    // Another instance of the server stored the same key first (both ran; this one's
    // effect rolled back with its duplicate record): answer as it did, once.
    if (err !== rolledBack && keyed && isDuplicateKey(err) && (await this.replayed())) return false
    if (err !== rolledBack) throw err
    if (!answer) return false
    try {
      await transaction(this.deps.db, () => this.remember(answer))
    } catch (error) {
      // The same key stored meanwhile by another instance: answer as it did.
      if (!(isDuplicateKey(error) && (await this.replayed()))) throw error
    }
    return false
  }

  /** Answers with the stored answer of the same key, if there is one (a retry after a lost response). */
  private async replayed(): Promise<boolean> {
    const stored = await find.get(this.deps.db, [this.keyed!.scope, this.keyed!.key])
    if (!stored) return false
    if (stored.request_hash !== this.requestHash)
      throw new DomainError('IDEMPOTENCY_KEY_REUSED', 'This Idempotency-Key was already used for a different request.')
    const headers = new Headers(JSON.parse(stored.headers))
    headers.set('Idempotent-Replayed', 'true')
    this.c.res = new Response(stored.body || null, { status: stored.status, headers })
    return true
  }

  private answerText(): Promise<string> | string {
    const { c } = this
    return c.get('replayBody') ?? jsonTexts.get(c.res) ?? c.res.clone().text()
  }

  private async remember(answer: StoredText): Promise<void> {
    const headers: Record<string, string> = {}
    for (const h of replayedHeaders) {
      const v = this.c.res.headers.get(h)
      if (v) headers[h] = v
    }
    const { scope, key } = this.keyed!
    // With the COMMIT on PostgreSQL (one round trip); a key another instance stored meanwhile fails it there.
    await store.runAtCommit(this.deps.db, [
      scope,
      key,
      this.requestHash,
      answer.status,
      JSON.stringify(headers),
      answer.text,
      this.deps.clock.now().toISOString(),
    ])
  }
}

/** The answer a keyed write stores: its status and body text. */
interface StoredText {
  status: number
  text: string
}

/**
 * A multipart body as the fingerprint sees it: its boundary (chosen afresh by the browser for every
 * send) taken out, so a resent upload with the same Idempotency-Key is the same request.
 */
export function withoutBoundary(body: Uint8Array, contentType: string | undefined): Uint8Array {
  const boundary = /^multipart\/form-data;.*boundary="?([^";]+)"?/i.exec(contentType ?? '')?.[1]
  if (!boundary) return body
  return Buffer.from(Buffer.from(body).toString('latin1').replaceAll(`--${boundary}`, '--'), 'latin1')
}
