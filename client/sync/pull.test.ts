import { describe, expect, it } from 'vitest'
import type { SyncChange } from '../../shared/contract/sync'
import type { LocalDb } from './local-db'
import { applyChanges, nextCursorOf, PULLED_MARK, pullAll, PullSuperseded } from './pull'
import { readSyncPage } from './sync-page'
import type { SyncTransport } from './transport'
import { freshLocalDbEachTest } from './fresh-local-db'

let db: LocalDb
freshLocalDbEachTest((fresh) => (db = fresh))

const note = (id: string): SyncChange => ({ entity: 'notification', id, op: 'upsert', version: 1, data: { id } })

/**
 * Answers GET /sync from a list of pages: the page after cursor `c<n>` is pages[n] (an empty one
 * after the last); with `link`, the next page is also named in a `Link` header, as the server
 * does. `asked` lists the cursors asked for.
 */
function pages(
  list: SyncChange[][],
  opts: {
    link?: boolean
    asked?: string[]
    bodyOf?: (n: number, json: string) => BodyInit
    delayMs?: (n: number) => number
    /** Page n is answered once this settles (and `answered(n)` is called as it is). */
    heldUntil?: (n: number) => Promise<void> | undefined
    answered?: (n: number) => void
  } = {},
): SyncTransport {
  return {
    getToken: () => 'token',
    getLocale: () => 'en',
    fetch: (async (url: string) => {
      const cursor = new URL(`http://x${url}`).searchParams.get('cursor')
      opts.asked?.push(cursor ?? '')
      const n = cursor ? Number(cursor.slice(1)) : 0
      await new Promise((ok) => setTimeout(ok, opts.delayMs?.(n) ?? 0))
      await opts.heldUntil?.(n)
      const hasMore = n + 1 < list.length
      // After the last page: nothing new, as the server answers a client that is up to date.
      const json = JSON.stringify({ changes: list[n] ?? [], cursor: `c${Math.min(n + 1, list.length)}`, hasMore, reset: false })
      const headers: Record<string, string> = { 'Content-Type': 'application/json' }
      if (opts.link && hasMore) headers.Link = `</api/sync?limit=2000&cursor=c${n + 1}>; rel="next"`
      const response = new Response(opts.bodyOf ? opts.bodyOf(n, json) : json, { status: 200, headers })
      opts.answered?.(n)
      return response
    }) as typeof fetch,
  }
}

describe('applyChanges', () => {
  it('keeps the last change of a row within a page', async () => {
    await applyChanges(db, [note('a'), note('b')], 'c0', false, 0)
    await applyChanges(
      db,
      [{ entity: 'notification', id: 'a', op: 'delete' }, note('a'), note('b'), { entity: 'notification', id: 'b', op: 'delete' }],
      'c1',
      false,
      0,
    )
    expect((await db.notifications.toArray()).map((r) => r.id)).toEqual(['a'])
  })

  it('stores a page only on the cursor it was fetched after', async () => {
    await applyChanges(db, [note('a')], 'c1', false, 0, { cursor: undefined })
    await expect(applyChanges(db, [note('b')], 'c9', false, 0, { cursor: 'c0' })).rejects.toBeInstanceOf(PullSuperseded)
    expect((await db.notifications.toArray()).map((r) => r.id)).toEqual(['a'])
    expect((await db.meta.get('cursor'))!.value).toBe('c1')
    await applyChanges(db, [note('b')], 'c2', false, 0, { cursor: 'c1' })
    expect((await db.meta.get('cursor'))!.value).toBe('c2')
  })
})

describe('pullAll', () => {
  it('leaves one timing mark when it has stored everything, none when it could not', async () => {
    performance.clearMarks(PULLED_MARK)
    const down: SyncTransport = { getToken: () => 't', getLocale: () => 'en', fetch: (() => Promise.reject(new TypeError('offline'))) as typeof fetch }
    expect((await pullAll(db, down)).status).toBe('offline')
    expect(performance.getEntriesByName(PULLED_MARK)).toEqual([])
    await pullAll(db, pages([[note('a'), note('b')], [note('c')]]), () => 0, 2)
    // From the stored cursor (c2): the third page of this list.
    await pullAll(db, pages([[], [], [note('d')]]), () => 0, 2)
    const marks = performance.getEntriesByName(PULLED_MARK) as PerformanceMark[]
    expect(marks.map((m) => m.detail)).toEqual([{ applied: 1 }])
  })

  it('stores many pages in order, each with its cursor', async () => {
    const list = Array.from({ length: 6 }, (_, p) => Array.from({ length: 3 }, (_, i) => note(`${p}-${i}`)))
    // The same row again in a later page: the later version wins, as the pages are committed in order.
    list[5]!.push({ entity: 'notification', id: '0-0', op: 'upsert', version: 2, data: { id: '0-0', title: 'later' } })
    expect(await pullAll(db, pages(list), () => 0, 3)).toEqual({ applied: 19, reset: false, status: 'ok' })
    expect(await db.notifications.count()).toBe(18)
    expect(await db.notifications.get('0-0')).toEqual({ id: '0-0', title: 'later', _version: 2 })
    expect((await db.meta.get('cursor'))!.value).toBe('c6')
  })

  it('asks for the next page as soon as the Link header names it, before reading the body, and each page once', async () => {
    const asked: string[] = []
    const events: string[] = []
    let secondAsked!: () => void
    const second = new Promise<string>((ok) => (secondAsked = () => ok('next page asked for')))
    const list = [[note('a')], [note('b')], [note('c')]]
    const transport = pages(list, {
      link: true,
      asked,
      // The first body only arrives once the second page was asked for. A pull that waited for the
      // body first would never ask: after 20 s (a guard against that hang, not a speed limit) the
      // body comes anyway, and the test fails.
      bodyOf: (n, json) => {
        if (n === 1) secondAsked()
        if (n > 0) return json
        return new ReadableStream({
          async start(controller) {
            events.push(await Promise.race([second, new Promise<string>((ok) => setTimeout(() => ok('timed out'), 20_000))]))
            controller.enqueue(new TextEncoder().encode(json))
            controller.close()
          },
        })
      },
    })
    expect(await pullAll(db, transport)).toEqual({ applied: 3, reset: false, status: 'ok' })
    expect(events).toEqual(['next page asked for'])
    expect(asked).toEqual(['', 'c1', 'c2'])
    expect((await db.notifications.toArray()).map((r) => r.id)).toEqual(['a', 'b', 'c'])
    expect((await db.meta.get('cursor'))!.value).toBe('c3')
  })

  it('asks for nothing more once the pull has ended', async () => {
    const asked: string[] = []
    let release!: () => void
    const pullEnded = new Promise<void>((ok) => (release = ok))
    let secondAnswered!: () => void
    const answered = new Promise<void>((ok) => (secondAnswered = ok))
    // The first page names the next in its header, but its body is not a page: the pull ends with an error.
    const transport = pages([[note('a')], [note('b')], [note('c')]], {
      link: true,
      asked,
      bodyOf: (n, json) => (n === 0 ? '{}' : json),
      // The second page answers after the pull has ended.
      heldUntil: (n) => (n === 1 ? pullEnded : undefined),
      answered: (n) => n === 1 && secondAnswered(),
    })
    expect((await pullAll(db, transport)).status).toBe('error')
    release()
    await answered
    // A pull still going would now read that page and ask for the one it names: a few turns of the event loop.
    for (let turn = 0; turn < 5; turn++) await new Promise((ok) => setTimeout(ok, 0))
    expect(asked).toEqual(['', 'c1'])
  })

  it("follows the body's cursor when no Link header names the next page", async () => {
    const asked: string[] = []
    expect((await pullAll(db, pages([[note('a')], [note('b')]], { asked }))).status).toBe('ok')
    expect(asked).toEqual(['', 'c1'])
  })

  it('never stores a page after one that failed, so the stored cursor stays exact', async () => {
    // A write IndexedDB refuses (quota, say) fails the second page's transaction.
    db.notifications.hook('creating', (_key, row) => {
      if ((row as { id: string }).id === 'bad') throw new Error('refused')
    })
    await expect(pullAll(db, pages([[note('a')], [note('bad')], [note('c')], [note('d')]]), () => 0, 1)).rejects.toThrow('refused')
    expect((await db.notifications.toArray()).map((r) => r.id)).toEqual(['a'])
    expect((await db.meta.get('cursor'))!.value).toBe('c1')
  })
})

describe('pullAll in two tabs at once', () => {
  it('ends well in both, the second going on from the cursor the first stored', async () => {
    const list = [[note('a')], [note('b')], [note('c')]]
    const asked: string[] = []
    const [one, two] = await Promise.all([pullAll(db, pages(list, { delayMs: () => 5 })), pullAll(db, pages(list, { asked, delayMs: () => 7 }))])
    expect(one).toEqual({ applied: 3, reset: false, status: 'ok' })
    // The second tab's first page landed on a cursor the first tab had moved on: not stored, not counted.
    expect(two.status).toBe('ok')
    expect(two.applied).toBeLessThan(3)
    expect(asked.length).toBeGreaterThan(1)
    expect((await db.notifications.toArray()).map((r) => r.id)).toEqual(['a', 'b', 'c'])
    expect((await db.meta.get('cursor'))!.value).toBe('c3')
  })
})

describe('nextCursorOf', () => {
  it('reads the cursor of a rel="next" Link', () => {
    expect(nextCursorOf('</api/sync?limit=2000&cursor=eyJzIjo1fQ>; rel="next"')).toBe('eyJzIjo1fQ')
    expect(nextCursorOf('</api/sync?limit=2000>; rel="next"')).toBeUndefined()
    expect(nextCursorOf('</api/sync?cursor=a>; rel="prev"')).toBeUndefined()
    expect(nextCursorOf(null)).toBeUndefined()
    // Not a URL (a proxy's rewrite, say): no link, and no throw, which would turn the answer into "offline".
    expect(nextCursorOf('<http://[>; rel="next"')).toBeUndefined()
  })

  it('reads a page whose Link header is no URL from its body', async () => {
    const transport = pages([[note('a')], [note('b')]])
    const fetch = transport.fetch
    transport.fetch = (async (...args: Parameters<typeof fetch>) => {
      const res = await fetch(...args)
      const headers = new Headers(res.headers)
      headers.set('Link', '<http://[>; rel="next"')
      return new Response(await res.text(), { status: res.status, headers })
    }) as typeof fetch
    expect(await pullAll(db, transport)).toEqual({ applied: 2, reset: false, status: 'ok' })
  })
})

describe('readSyncPage', () => {
  const ok = { changes: [note('a'), { entity: 'agreement', id: 'b', op: 'delete' }], cursor: 'c', hasMore: false, reset: false }

  it('reads a page as the contract describes it', () => {
    expect(readSyncPage(ok)).toBe(ok)
    expect(readSyncPage({ ...ok, changes: [] })).toBeDefined()
  })

  it('refuses anything else', () => {
    const bad: unknown[] = [
      null,
      [],
      { ...ok, cursor: 1 },
      { ...ok, hasMore: 'no' },
      { ...ok, reset: undefined },
      { ...ok, changes: {} },
      { ...ok, changes: [{ ...note('a'), entity: 'user' }] },
      { ...ok, changes: [{ ...note('a'), id: 7 }] },
      { ...ok, changes: [{ ...note('a'), op: 'merge' }] },
      { ...ok, changes: [{ ...note('a'), version: 1.5 }] },
      { ...ok, changes: [{ ...note('a'), data: null }] },
      { ...ok, changes: [{ ...note('a'), data: [] }] },
      { ...ok, changes: [note('a'), 'x'] },
    ]
    for (const body of bad) expect(readSyncPage(body)).toBeUndefined()
  })
})
