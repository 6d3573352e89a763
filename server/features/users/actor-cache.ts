import { performance } from 'node:perf_hooks'
import type Database from 'better-sqlite3'
import { connectionOf, engineOf, type Db } from '../../db/client'
import type { Actor } from '../../access/actor'

/** How long a resolved actor is reused without asking the database again. */
export const ACTOR_TTL_MS = 5_000
/** At most this many tokens are remembered; the least recently used goes first. */
export const ACTOR_CACHE_SIZE = 10_000
/**
 * PostgreSQL: how long after the last moment before its COMMIT a transaction's changes may still
 * be invisible to other connections (the COMMIT's round trip, a synchronous standby's answer). An
 * actor it invalidated is not stored again before then.
 */
export const COMMIT_GRACE_MS = 5_000

interface Entry {
  actor: Actor
  /** Epoch ms after which the entry is not used: never later than the session's own expiry. */
  until: number
}

/** SQLite: invalidations made inside a transaction on a connection that has not ended yet. */
interface Pending {
  all: boolean
  users: Set<string>
}

/** What a PostgreSQL transaction collects (`Engine.collect`): a user whose actor it changed, or everyone. */
type Changed = string | typeof EVERYONE
const EVERYONE = Symbol('every actor')

/**
 * The actor (user, session, company roles) per bearer token, reused for a few seconds so that a
 * request does not read session, user and memberships on every call.
 *
 * Every writer of what an actor holds calls `invalidateUser` or `invalidateAll`, so a sign-out, a
 * revoked session, a changed role or membership or a deleted company counts from the very next
 * request; the TTL only bounds what a missed writer (a hand edit of the database, another server
 * process on the same PostgreSQL database) could leave.
 *
 * A change made inside a transaction is not visible to other connections until it commits, and
 * may still roll back: an actor read while that transaction is open could be the old state (a
 * read-only connection, the PostgreSQL pool) or a state that never commits (SQLite's writer's own
 * connection). So:
 *
 * - an actor is read after taking a `ticket()`, and not stored when any invalidation happened
 *   since (the reads are asynchronous: a change may commit between them and `set`);
 * - SQLite: until the transaction on the connection the change was written on has ended, an actor
 *   of an invalidated user is answered but not stored;
 * - PostgreSQL: the transaction invalidates again just before its COMMIT (`Engine.collect`), and
 *   an actor of those users is answered but not stored for `COMMIT_GRACE_MS` after that. A
 *   transaction that rolls back never gets there; what it invalidated is simply read again.
 */
export class ActorCache {
  private readonly entries = new Map<string, Entry>()
  private readonly byUser = new Map<string, Set<string>>()
  private readonly pending = new Map<Database.Database, Pending>()
  /** PostgreSQL: users whose change is committing, until (monotonic ms) it is surely visible. */
  private readonly committing = new Map<string, number>()
  private everyoneCommittingUntil = 0
  /** Counts invalidations (and the observed ends of their transactions); see `ticket`. */
  private invalidations = 0

  constructor(
    private readonly ttlMs = ACTOR_TTL_MS,
    private readonly maxEntries = ACTOR_CACHE_SIZE,
    /** Monotonic milliseconds, for the commit grace (not the app's clock: it is about real time). */
    private readonly monotonic: () => number = () => performance.now(),
  ) {}

  /** Take before reading an actor, and hand to `set`: an invalidation in between keeps it out. */
  ticket(): number {
    this.sweep()
    return this.invalidations
  }

  /** The actor stored for the key, if it is still fresh at `now` (epoch ms). */
  get(key: string, now: number): Actor | undefined {
    const entry = this.entries.get(key)
    if (!entry) return undefined
    if (now >= entry.until) {
      this.remove(key, entry.actor.userId)
      return undefined
    }
    // Most recently used last, so eviction takes the oldest first.
    this.entries.delete(key)
    this.entries.set(key, entry)
    return entry.actor
  }

  /**
   * Stores the actor read since `ticket` for the key until `now + ttl`, or `sessionExpiresAt` when
   * that is sooner, so an entry never outlives its session.
   */
  set(key: string, actor: Actor, now: number, sessionExpiresAt: number, ticket: number): void {
    if (this.mayBeStale(actor.userId, ticket)) return
    const until = Math.min(now + this.ttlMs, sessionExpiresAt)
    if (until <= now) return
    const old = this.entries.get(key)
    if (old) this.remove(key, old.actor.userId)
    this.entries.set(key, { actor: deepFreeze(actor), until })
    let keys = this.byUser.get(actor.userId)
    if (!keys) this.byUser.set(actor.userId, (keys = new Set()))
    keys.add(key)
    while (this.entries.size > this.maxEntries) {
      const [oldest, entry] = this.entries.entries().next().value as [string, Entry]
      this.remove(oldest, entry.actor.userId)
    }
  }

  /**
   * Forgets every token of the user. `db` is the handle the change was written through: until its
   * transaction in progress has ended, the user's actor is not stored over it (see the class).
   */
  invalidateUser(userId: string, db?: Db): void {
    this.forget(userId)
    this.inTransaction(db, userId)
  }

  /** Forgets every actor (a change that touches many users, e.g. a company's name or status). */
  invalidateAll(db?: Db): void {
    this.forget(EVERYONE)
    this.inTransaction(db, EVERYONE)
  }

  get size(): number {
    return this.entries.size
  }

  private forget(changed: Changed): void {
    this.invalidations++
    if (changed === EVERYONE) {
      this.entries.clear()
      this.byUser.clear()
      return
    }
    for (const key of this.byUser.get(changed) ?? []) this.entries.delete(key)
    this.byUser.delete(changed)
  }

  /** Keeps the change from being stored over while the transaction `db` is in (if any) has not ended. */
  private inTransaction(db: Db | undefined, changed: Changed): void {
    if (!db) return
    const engine = engineOf(db)
    if (engine) {
      // Undefined outside a write transaction: the change is committed already.
      engine.collect(this, (rows) => Promise.resolve(this.committingNow(rows as Changed[])))?.push(changed)
      return
    }
    // SQLite's own transaction state, not SQL: the one place a feature asks for the connection.
    // eslint-disable-next-line no-restricted-syntax
    const connection = connectionOf(db)
    if (!connection.inTransaction) return
    let p = this.pending.get(connection)
    if (!p) this.pending.set(connection, (p = { all: false, users: new Set() }))
    if (changed === EVERYONE) p.all = true
    else p.users.add(changed)
  }

  /** PostgreSQL, just before a COMMIT: forget again what it changed, and store none of it until surely visible. */
  private committingNow(changed: readonly Changed[]): void {
    const until = this.monotonic() + COMMIT_GRACE_MS
    for (const c of changed) {
      this.forget(c)
      if (c === EVERYONE) this.everyoneCommittingUntil = until
      else {
        // Last in the map: it stays ordered by `until` (see `sweep`).
        this.committing.delete(c)
        this.committing.set(c, until)
      }
    }
  }

  /**
   * Whether an actor of the user read since `ticket` may be stale: invalidated since, or changed by
   * a transaction not ended (on PostgreSQL: not surely visible) yet.
   */
  private mayBeStale(userId: string, ticket: number): boolean {
    this.sweep()
    if (ticket !== this.invalidations || this.everyoneCommittingUntil > 0 || this.committing.has(userId)) return true
    for (const p of this.pending.values()) if (p.all || p.users.has(userId)) return true
    return false
  }

  /**
   * Drops what ended transactions had pending: on SQLite those that committed or rolled back, on
   * PostgreSQL those whose grace has passed. What the database says now is what counts, but an
   * actor read begun before is not stored (each counts as an invalidation).
   */
  private sweep(): void {
    for (const connection of this.pending.keys())
      if (!connection.open || !connection.inTransaction) {
        this.pending.delete(connection)
        this.invalidations++
      }
    if (this.committing.size === 0 && this.everyoneCommittingUntil === 0) return
    const now = this.monotonic()
    for (const [userId, until] of this.committing) {
      if (now < until) break
      this.committing.delete(userId)
      this.invalidations++
    }
    if (this.everyoneCommittingUntil > 0 && now >= this.everyoneCommittingUntil) {
      this.everyoneCommittingUntil = 0
      this.invalidations++
    }
  }

  private remove(key: string, userId: string): void {
    this.entries.delete(key)
    const keys = this.byUser.get(userId)
    keys?.delete(key)
    if (keys?.size === 0) this.byUser.delete(userId)
  }
}

/** A cached actor is shared by concurrent requests: nobody may change it in place. */
function deepFreeze(actor: Actor): Actor {
  for (const c of actor.companies) Object.freeze(c)
  Object.freeze(actor.companies)
  return Object.freeze(actor)
}
