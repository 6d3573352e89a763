import { afterEach, describe, expect, it } from 'vitest'
import { SyncEngine } from './engine'
import type { LocalDb } from './local-db'
import type { SyncTransport } from './transport'
import { freshLocalDbEachTest } from './fresh-local-db'

/** The engine with its live stream (decision 0086): `ready` and `changed` pull at once, the stream's absence leaves the 30 s timer. */
let db: LocalDb
freshLocalDbEachTest((fresh) => (db = fresh))

function fakeServer() {
  const pulls: string[] = []
  let push: ((text: string) => void) | undefined
  const transport: SyncTransport = {
    getToken: () => 't',
    getLocale: () => 'en',
    fetch: (async (url: string) => {
      if (url === '/api/live') {
        const body = new ReadableStream<Uint8Array>({ start: (c) => void (push = (text) => c.enqueue(new TextEncoder().encode(text))) })
        return new Response(body, { status: 200, headers: { 'Content-Type': 'text/event-stream' } })
      }
      pulls.push(url)
      return new Response(JSON.stringify({ changes: [], cursor: `c${pulls.length}`, hasMore: false, reset: false }), {
        status: 200,
        headers: { 'Content-Type': 'application/json' },
      })
    }) as typeof fetch,
  }
  return { pulls, transport, opened: () => push !== undefined, push: (text: string) => push!(text) }
}

let engine: SyncEngine | undefined
afterEach(async () => {
  await engine?.stop()
  engine = undefined
})

describe('the sync engine with the live stream', () => {
  it('pulls when the stream opens and at each `changed`', async () => {
    const server = fakeServer()
    engine = new SyncEngine(db, server.transport, { live: true })
    engine.start()
    await expect.poll(() => server.pulls.length).toBe(1) // the start's own pull
    await expect.poll(() => server.opened()).toBe(true)
    server.push('event: ready\ndata: {}\n\n')
    await expect.poll(() => server.pulls.length).toBe(2)
    server.push('event: changed\ndata: {}\n\n')
    await expect.poll(() => server.pulls.length).toBe(3)
    expect(server.pulls.every((url) => url.startsWith('/api/sync'))).toBe(true)
  })

  it('opens no stream unless asked to (outside a browser)', async () => {
    const server = fakeServer()
    const urls: string[] = []
    const transport = { ...server.transport, fetch: ((url: string, init: RequestInit) => (urls.push(url), server.transport.fetch(url, init))) as typeof fetch }
    engine = new SyncEngine(db, transport)
    engine.start()
    await expect.poll(() => server.pulls.length).toBe(1)
    expect(urls.filter((u) => u === '/api/live')).toEqual([])
  })
})
