/**
 * The pull's floor (bench/run.ts, figure 3): what this machine's browser needs to fetch the same
 * sync pages and put the same rows into IndexedDB with nothing else around: a blank page on the
 * server's origin, no app, no framework, no Dexie; the same stores and indexes as the app's local
 * database (read from LocalDb itself, so the floor follows the schema), one transaction per page,
 * the next page asked for while the one before is stored. Timed, as the product is, from
 * navigation until the last page has committed.
 *
 * IndexedDB writes one request per row, and that cost (not the network or the server) is most of
 * a pull into an empty store: this is the figure the product's pull is measured against.
 */
import type { Browser } from 'playwright-core'
import { entityTables, LocalDb } from '../client/sync/local-db'

interface StoreSpec {
  name: string
  key: string
  indexes: string[]
}

/** The canonical stores of the app's local database, as declared (no database is opened). */
function canonicalStores(): StoreSpec[] {
  const db = new LocalDb('bench-floor')
  return db.canonicalTables().map((table) => ({
    name: table.name,
    key: String(table.schema.primKey.keyPath),
    indexes: table.schema.indexes.map((index) => String(index.keyPath)),
  }))
}

/** Runs in the blank page; a string, so the bundler's helpers never reach the page. */
const PAGE_PULL = `async ({ stores, storeOf, token, limit }) => {
  const db = await new Promise((ok, fail) => {
    const req = indexedDB.open('bench-floor', 1)
    req.onupgradeneeded = () => {
      for (const spec of stores) {
        const store = req.result.createObjectStore(spec.name, { keyPath: spec.key })
        for (const index of spec.indexes) store.createIndex(index, index)
      }
    }
    req.onsuccess = () => ok(req.result)
    req.onerror = () => fail(req.error)
  })
  const names = stores.map((s) => s.name)
  const ask = (cursor) =>
    fetch('/api/sync?limit=' + limit + (cursor ? '&cursor=' + encodeURIComponent(cursor) : ''), { headers: { Authorization: 'Bearer ' + token } })
  let next = ask(undefined)
  for (;;) {
    const page = await (await next).json()
    if (page.hasMore) next = ask(page.cursor)
    const tx = db.transaction(names, 'readwrite')
    for (const change of page.changes) {
      const store = tx.objectStore(storeOf[change.entity])
      if (change.op === 'upsert') store.put({ ...change.data, id: change.id, _version: change.version })
      else store.delete(change.id)
    }
    await new Promise((ok, fail) => {
      tx.oncomplete = ok
      tx.onerror = tx.onabort = () => fail(tx.error)
    })
    if (!page.hasMore) break
  }
  db.close()
  // When the last page committed, on the same clock as the app's mark (bench/run.ts timePull).
  return performance.timeOrigin + performance.now()
}`

/** Milliseconds from navigation to the last page committed, in a new browser context. */
export async function barePull(browser: Browser, serverUrl: string, token: string, limit: number): Promise<number> {
  const context = await browser.newContext()
  try {
    const page = await context.newPage()
    await page.route(`${serverUrl}/bench-floor`, (route) => route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>floor</title>' }))
    const start = Date.now()
    await page.goto(`${serverUrl}/bench-floor`)
    const end = (await page.evaluate(`(${PAGE_PULL})(${JSON.stringify({ stores: canonicalStores(), storeOf: entityTables, token, limit })})`)) as number
    return Math.round(end - start)
  } finally {
    await context.close()
  }
}
