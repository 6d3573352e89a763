import Database from 'better-sqlite3'
import pg from 'pg'
import { expect } from 'vitest'
import type { TestApp } from './harness'

/**
 * Test helpers for cursor-paged lists (docs/API.md "Lists"): follow the `Link` header to the
 * last page, and count the statements a request runs (a page must cost the same however long).
 */

/** Follows `Link: <…>; rel="next"` from `path` to the last page; returns each page's ids. */
export async function allPages(t: TestApp, token: string, path: string): Promise<string[][]> {
  const pages: string[][] = []
  let next: string | undefined = path
  while (next) {
    const res = await t.call('GET', next, { token })
    expect(res.status, JSON.stringify(res.json)).toBe(200)
    pages.push(res.json.map((row: { id: string }) => row.id))
    const link = res.headers.get('Link')
    next = link ? /^<\/api([^>]+)>; rel="next"$/.exec(link)![1] : undefined
    expect(pages.length).toBeLessThan(100)
  }
  return pages
}

/** Counts every statement the database runs (on SQLite on any connection; on PostgreSQL every query sent) while `fn` runs. */
export async function statementsRun(t: TestApp, fn: () => Promise<unknown>): Promise<number> {
  if (t.database.engine === 'postgres') return await queriesSent(fn)
  const proto = Object.getPrototypeOf(t.database.sqlite.prepare('SELECT 1')) as Record<string, (...args: unknown[]) => unknown>
  expect(proto).toBe(Object.getPrototypeOf(new Database(':memory:').prepare('SELECT 1')))
  const names = ['all', 'get', 'run', 'iterate'] as const
  const originals = names.map((n) => proto[n]!)
  let n = 0
  names.forEach((name, i) => {
    proto[name] = function (this: unknown, ...args: unknown[]) {
      n++
      return originals[i]!.apply(this, args)
    }
  })
  try {
    await fn()
  } finally {
    names.forEach((name, i) => (proto[name] = originals[i]!))
  }
  return n
}

/** Counts the queries node-postgres sends (on any connection) while `fn` runs. */
async function queriesSent(fn: () => Promise<unknown>): Promise<number> {
  const proto = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown }
  const original = proto.query
  let n = 0
  proto.query = function (this: unknown, ...args: unknown[]) {
    n++
    return original.apply(this, args)
  }
  try {
    await fn()
  } finally {
    proto.query = original
  }
  return n
}

/** The `cursor` of an answer's `Link` header. */
export const cursorOf = (link: string | null): string => new URL(/^<([^>]+)>/.exec(link!)![1]!, 'http://x').searchParams.get('cursor')!

/** Cursors that are not ours: not base64url JSON, JSON of another shape, a key of the wrong types. */
export const foreignCursors = ['nope', 'bm90LW91cnM', Buffer.from('["a",1]').toString('base64url'), Buffer.from('[1,2,3]').toString('base64url')]

/**
 * Statements run by a page of 10 and by a page of 100 of `path(limit)` (after a page of 5 has
 * prepared them): equal for a set-based list, ten times more for one that reads per row.
 */
export async function statementsPerPage(t: TestApp, token: string, path: (limit: number) => string): Promise<{ ten: number; hundred: number }> {
  const page = (limit: number) => async () => {
    const res = await t.call('GET', path(limit), { token })
    expect(res.json).toHaveLength(limit)
  }
  await page(5)()
  return { ten: await statementsRun(t, page(10)), hundred: await statementsRun(t, page(100)) }
}
