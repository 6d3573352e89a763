import type Database from 'better-sqlite3'
import type { Actor } from '../access/actor'

/** How long a resolved actor is reused without asking the database again. */
export const ACTOR_TTL_MS = 5_000
/** At most this many tokens are remembered; the least recently used goes first. */
export const ACTOR_CACHE_SIZE = 10_000

interface Entry {
  actor: Actor
  /** Epoch ms after which the entry is not used: never later than the session's own expiry. */
  until: number
}

/** Invalidations made inside a transaction that has not ended yet, per connection. */
interface Pending {
  all: boolean
  users: Set<string>
}

/**
 * The actor (user, session, company roles) per bearer token, reused for a few seconds so that a
 * request does not read session, user and memberships on every call (issue #19).
 *
 * Every writer of what an actor holds calls `invalidateUser` or `invalidateAll`, so a sign-out, a
 * revoked session, a changed role or membership or a deleted company counts from the very next
 * request; the TTL only bounds what a missed writer (a hand edit of the database) could leave.
 *
 * A change made inside a transaction is not visible to other connections until it commits, and
 * may still roll back: an actor read while that transaction is open could be the old state (a
 * read-only connection) or a state that never commits (the writer's own connection). So until the
 * transaction has ended, an actor of an invalidated user is answered but not stored.
 */
export class ActorCache {
  private readonly entries = new Map<string, Entry>()
  private readonly byUser = new Map<string, Set<string>>()
  private readonly pending = new Map<Database.Database, Pending>()

  constructor(
    private readonly ttlMs = ACTOR_TTL_MS,
    private readonly maxEntries = ACTOR_CACHE_SIZE,
  ) {}

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
   * Stores the actor for the key until `now + ttl`, or `sessionExpiresAt` when that is sooner, so
   * an entry never outlives its session.
   */
  set(key: string, actor: Actor, now: number, sessionExpiresAt: number): void {
    if (this.invalidatedInOpenTransaction(actor.userId)) return
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
   * Forgets every token of the user. `connection` is the one the change was written on: while it
   * is in a transaction, the user's actor is not stored again until that transaction has ended.
   */
  invalidateUser(userId: string, connection?: Database.Database): void {
    for (const key of this.byUser.get(userId) ?? []) this.entries.delete(key)
    this.byUser.delete(userId)
    if (connection?.inTransaction) this.pendingOf(connection).users.add(userId)
  }

  /** Forgets every actor (a change that touches many users, e.g. a company's name or status). */
  invalidateAll(connection?: Database.Database): void {
    this.entries.clear()
    this.byUser.clear()
    if (connection?.inTransaction) this.pendingOf(connection).all = true
  }

  get size(): number {
    return this.entries.size
  }

  private pendingOf(connection: Database.Database): Pending {
    let p = this.pending.get(connection)
    if (!p) this.pending.set(connection, (p = { all: false, users: new Set() }))
    return p
  }

  private invalidatedInOpenTransaction(userId: string): boolean {
    for (const [connection, p] of this.pending) {
      // Committed or rolled back: what the database says now is what counts.
      if (!connection.open || !connection.inTransaction) this.pending.delete(connection)
      else if (p.all || p.users.has(userId)) return true
    }
    return false
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
