import { describe, expect, it } from 'vitest'
import Database from 'better-sqlite3'
import type { Actor } from '../access/actor'
import { ActorCache } from './actor-cache'

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
    cache.set('a', actor('u1'), 1_000, NEVER)
    cache.set('b', actor('u2'), 1_000, 3_000)
    expect(cache.get('a', 5_999)?.userId).toBe('u1')
    expect(cache.get('a', 6_000)).toBeUndefined()
    expect(cache.get('b', 2_999)?.userId).toBe('u2')
    expect(cache.get('b', 3_000)).toBeUndefined()
    expect(cache.size).toBe(0)
  })

  it('keeps at most its size, dropping the least recently used', () => {
    const cache = new ActorCache(5_000, 2)
    cache.set('a', actor('u1'), 0, NEVER)
    cache.set('b', actor('u2'), 0, NEVER)
    cache.get('a', 1)
    cache.set('c', actor('u3'), 1, NEVER)
    expect(cache.size).toBe(2)
    expect(cache.get('b', 2)).toBeUndefined()
    expect(cache.get('a', 2)?.userId).toBe('u1')
    expect(cache.get('c', 2)?.userId).toBe('u3')
  })

  it("forgets all of a user's tokens, or everyone", () => {
    const cache = new ActorCache()
    cache.set('a', actor('u1'), 0, NEVER)
    cache.set('a2', actor('u1'), 0, NEVER)
    cache.set('b', actor('u2'), 0, NEVER)
    cache.invalidateUser('u1')
    expect(cache.get('a', 1)).toBeUndefined()
    expect(cache.get('a2', 1)).toBeUndefined()
    expect(cache.get('b', 1)?.userId).toBe('u2')
    cache.invalidateAll()
    expect(cache.get('b', 1)).toBeUndefined()
  })

  it('stores nothing for a user invalidated in a transaction until that transaction has ended', () => {
    const sqlite = new Database(':memory:')
    const cache = new ActorCache()
    for (const end of ['COMMIT', 'ROLLBACK']) {
      sqlite.exec('BEGIN IMMEDIATE')
      cache.invalidateUser('u1', sqlite)
      // Read while the change is uncommitted: answered, not kept (it may still roll back, or be stale).
      cache.set('a', actor('u1'), 0, NEVER)
      expect(cache.get('a', 1)).toBeUndefined()
      cache.set('b', actor('u2'), 0, NEVER)
      expect(cache.get('b', 1)?.userId).toBe('u2')
      sqlite.exec(end)
      cache.set('a', actor('u1'), 0, NEVER)
      expect(cache.get('a', 1)?.userId, end).toBe('u1')
      cache.invalidateAll()
    }
    sqlite.exec('BEGIN IMMEDIATE')
    cache.invalidateAll(sqlite)
    cache.set('b', actor('u2'), 0, NEVER)
    expect(cache.get('b', 1)).toBeUndefined()
    sqlite.exec('COMMIT')
    cache.set('b', actor('u2'), 0, NEVER)
    expect(cache.get('b', 1)?.userId).toBe('u2')
    sqlite.close()
  })

  it('hands out a frozen actor, so no request can change what the next one gets', () => {
    const cache = new ActorCache()
    cache.set('a', actor('u1'), 0, NEVER)
    const cached = cache.get('a', 1)!
    expect(() => {
      ;(cached as { currentCompanyId: string | null }).currentCompanyId = 'c2'
    }).toThrow(TypeError)
    expect(() => cached.companies.push({ id: 'c2', name: 'Two', role: 'CHAIRMAN' })).toThrow(TypeError)
  })
})
