import { describe, expect, it } from 'vitest'
import Database from 'better-sqlite3'
import { registerEngine, sqliteHandle, type Db, type Engine } from '../../db/client'
import type { Actor } from '../../access/actor'
import { ACTOR_CACHE_SIZE, ActorCache, COMMIT_GRACE_MS } from './actor-cache'

const actor = (userId: string): Actor => ({
  userId,
  sessionId: `s-${userId}`,
  fullName: userId,
  emailAddress: `${userId}@example.dk`,
  language: 'EN',
  systemRole: 'MEMBER',
  currentCompanyId: 'c1',
  companies: [{ id: 'c1', name: 'One', role: 'ADMINISTRATOR' }],
})
const NEVER = Number.MAX_SAFE_INTEGER

describe('ActorCache', () => {
  it('answers until the TTL or the session expiry, whichever comes first', () => {
    const cache = new ActorCache(5_000)
    cache.set('a', actor('u1'), 1_000, NEVER, cache.ticket())
    cache.set('b', actor('u2'), 1_000, 3_000, cache.ticket())
    expect(cache.get('a', 5_999)?.userId).toBe('u1')
    expect(cache.get('a', 6_000)).toBeUndefined()
    expect(cache.get('b', 2_999)?.userId).toBe('u2')
    expect(cache.get('b', 3_000)).toBeUndefined()
    expect(cache.size).toBe(0)
  })

  it('keeps at most its size, dropping the least recently used', () => {
    const cache = new ActorCache(5_000, 2)
    cache.set('a', actor('u1'), 0, NEVER, cache.ticket())
    cache.set('b', actor('u2'), 0, NEVER, cache.ticket())
    cache.get('a', 1)
    cache.set('c', actor('u3'), 1, NEVER, cache.ticket())
    expect(cache.size).toBe(2)
    expect(cache.get('b', 2)).toBeUndefined()
    expect(cache.get('a', 2)?.userId).toBe('u1')
    expect(cache.get('c', 2)?.userId).toBe('u3')
  })

  it("forgets all of a user's tokens, or everyone", () => {
    const cache = new ActorCache()
    cache.set('a', actor('u1'), 0, NEVER, cache.ticket())
    cache.set('a2', actor('u1'), 0, NEVER, cache.ticket())
    cache.set('b', actor('u2'), 0, NEVER, cache.ticket())
    cache.invalidateUser('u1')
    expect(cache.get('a', 1)).toBeUndefined()
    expect(cache.get('a2', 1)).toBeUndefined()
    expect(cache.get('b', 1)?.userId).toBe('u2')
    cache.invalidateAll()
    expect(cache.get('b', 1)).toBeUndefined()
  })

  it('stores nothing for a user invalidated in a transaction until that transaction has ended', () => {
    const sqlite = new Database(':memory:')
    const db = sqliteHandle(sqlite)
    const cache = new ActorCache()
    for (const end of ['COMMIT', 'ROLLBACK']) {
      sqlite.exec('BEGIN IMMEDIATE')
      cache.invalidateUser('u1', db)
      // Read while the change is uncommitted: answered, not kept (it may still roll back, or be stale).
      cache.set('a', actor('u1'), 0, NEVER, cache.ticket())
      expect(cache.get('a', 1)).toBeUndefined()
      cache.set('b', actor('u2'), 0, NEVER, cache.ticket())
      expect(cache.get('b', 1)?.userId).toBe('u2')
      sqlite.exec(end)
      cache.set('a', actor('u1'), 0, NEVER, cache.ticket())
      expect(cache.get('a', 1)?.userId, end).toBe('u1')
      cache.invalidateAll()
    }
    sqlite.exec('BEGIN IMMEDIATE')
    cache.invalidateAll(db)
    cache.set('b', actor('u2'), 0, NEVER, cache.ticket())
    expect(cache.get('b', 1)).toBeUndefined()
    sqlite.exec('COMMIT')
    cache.set('b', actor('u2'), 0, NEVER, cache.ticket())
    expect(cache.get('b', 1)?.userId).toBe('u2')
    sqlite.close()
  })

  it('does not store an actor read before an invalidation, or begun while the transaction that made it was open', () => {
    const cache = new ActorCache()
    const before = cache.ticket()
    cache.invalidateUser('u2')
    cache.set('a', actor('u1'), 0, NEVER, before)
    expect(cache.get('a', 1)).toBeUndefined()
    const sqlite = new Database(':memory:')
    const db = sqliteHandle(sqlite)
    sqlite.exec('BEGIN IMMEDIATE')
    cache.invalidateUser('u1', db)
    const during = cache.ticket()
    sqlite.exec('COMMIT')
    // Read (partly) before the COMMIT: it may be the old state.
    cache.set('a', actor('u1'), 0, NEVER, during)
    expect(cache.get('a', 1)).toBeUndefined()
    cache.set('a', actor('u1'), 0, NEVER, cache.ticket())
    expect(cache.get('a', 1)?.userId).toBe('u1')
    sqlite.close()
  })

  it('on PostgreSQL forgets again just before the COMMIT, and stores none of it until the commit is surely visible', async () => {
    let now = 0
    const cache = new ActorCache(5_000, ACTOR_CACHE_SIZE, () => now)
    // A stand-in for the PostgreSQL handle: `collect` is what a write transaction in progress offers.
    let tx: { rows: unknown[]; flush?: (rows: unknown[]) => Promise<void> } | undefined
    const db = {} as Db
    registerEngine(db, {
      name: 'postgres',
      collect: (_key, flush) => {
        if (!tx) return undefined
        tx.flush ??= flush
        return tx.rows
      },
    } as Partial<Engine> as Engine)
    const commit = async () => {
      await tx!.flush?.(tx!.rows)
      tx = undefined
    }
    const stored = (key: string, userId: string, ticket = cache.ticket()) => {
      cache.set(key, actor(userId), 0, NEVER, ticket)
      return cache.get(key, 1)?.userId === userId
    }

    // Outside a transaction the change is committed already.
    cache.invalidateUser('u1', db)
    expect(stored('a', 'u1')).toBe(true)

    tx = { rows: [] }
    cache.invalidateUser('u1', db)
    expect(cache.get('a', 1)).toBeUndefined()
    // Until the COMMIT others read the committed state: it may be stored ...
    const beforeCommit = cache.ticket()
    expect(stored('a', 'u1')).toBe(true)
    await commit()
    // ... and is forgotten just before it; nothing read is stored until the commit is surely visible.
    expect(cache.get('a', 1)).toBeUndefined()
    expect(stored('a', 'u1', beforeCommit)).toBe(false)
    expect(stored('a', 'u1')).toBe(false)
    expect(stored('b', 'u2')).toBe(true)
    now += COMMIT_GRACE_MS
    expect(stored('a', 'u1', beforeCommit)).toBe(false)
    expect(stored('a', 'u1')).toBe(true)

    tx = { rows: [] }
    cache.invalidateAll(db)
    await commit()
    expect(cache.size).toBe(0)
    expect(stored('b', 'u2')).toBe(false)
    now += COMMIT_GRACE_MS
    expect(stored('b', 'u2')).toBe(true)

    // Rolled back: never committed, nothing more to wait for.
    tx = { rows: [] }
    cache.invalidateUser('u2', db)
    tx = undefined
    expect(stored('b', 'u2')).toBe(true)
  })

  it('hands out a frozen actor, so no request can change what the next one gets', () => {
    const cache = new ActorCache()
    cache.set('a', actor('u1'), 0, NEVER, cache.ticket())
    const cached = cache.get('a', 1)!
    expect(() => {
      ;(cached as { currentCompanyId: string | null }).currentCompanyId = 'c2'
    }).toThrow(TypeError)
    expect(() => cached.companies.push({ id: 'c2', name: 'Two', role: 'CHAIRMAN' })).toThrow(TypeError)
  })
})
