/**
 * `npm run bench` (docs/BENCHMARKS.md): every figure of the offline app, billing, statistics and the API, each printed
 * with its target and a baseline measured in the same run on the same machine, then one table
 * (bench/report.ts). Not a test: it exits 1 only when a figure misses its target by more than
 * 50 % (so a CI run would flag a real regression).
 *
 *   1. offline cold start: navigation → first 100 notification rows rendered, with 3,000
 *      agreement-sized rows and 1,000 notifications in IndexedDB, server stopped (median of 5);
 *      floor: a blank page given the same 100 rows' markup (no app, no store, no network).
 *   2. replay of 500 queued mutations against the local server, with duplicates counted in the
 *      database; baseline: the same 500 requests sent straight with fetch.
 *   3. pull of 5,000 and of 20,000 changes of every synced entity (agreements, charges,
 *      invoices, messages, notifications: bench/pull-seed.ts) into an empty store; baseline:
 *      fetching the same pages without applying them.
 *   4. JavaScript of the first route, gzipped; floor: React, React DOM, Dexie and workbox-window
 *      alone, bundled and minified in this run.
 *   5. billing (bench/billing.ts), statistics (bench/statistics.ts) and the API against a bare
 *      floor server (bench/api.ts), each also runnable alone.
 *   5b. ready offline from the first visit (bench/first-visit.ts): what the worker precaches, and
 *      how soon a fresh browser's first page is controlled and says "Ready offline".
 *   6. work at the size the tests build, timed here instead of in the tests (bench/sizes.ts): the
 *      demo history at first start, the personal-data download, the yearly statements to 2,000.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { gzipSync } from 'node:zlib'
import Database from 'better-sqlite3'
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core'
import { CHROMIUM_ARGS, DEMO_PASSWORD, startServer, type RunningServer } from '../e2e/harness'
import { build } from 'esbuild'
import { billingBenchmark } from './billing'
import { apiBenchmark } from './api'
import { statisticsBenchmark } from './statistics'
import { sizesBenchmark } from './sizes'
import { importBenchmark } from './import'
import { firstVisitBenchmark } from './first-visit'
import { barePull } from './pull-floor'
import { pulledAt } from './pulled'
import { seedPull } from './pull-seed'
import { coldStartFloor } from './cold-start-floor'
import { atMost, finish, runPart } from './report'
import { count, size } from './scale'
// Every synced entity's local store, from the client's own registry: a new entity is counted here too.
import { entityTables } from '../client/sync/local-db'
import type { SyncEntity } from '../shared/contract/sync'

const root = resolve(import.meta.dirname, '..')
const EMAIL = 'admin@solgaarden.dk'
/** The first pull's changes (a fifth of them notifications), the second's, the queued changes replayed, the cold start's runs. */
const PULL = size(5000, 500)
const BIG_PULL = size(20_000, 2000)
const REPLAY = size(500, 50)
const COLD_STARTS = size(5, 2)
const LOCAL_AGREEMENTS = size(3000, 300)
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
async function signIn(server: RunningServer): Promise<{ token: string; user: { id: string } }> {
  const login = await fetch(`${server.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ type: 'email', email: EMAIL, password: DEMO_PASSWORD }),
  })
  const { accessToken } = (await login.json()) as { accessToken: string }
  const user = await (await fetch(`${server.url}/api/account/info`, { headers: { Authorization: `Bearer ${accessToken}` } })).json()
  return { token: accessToken, user }
}

/** A page of the app in `context`, signed in as `session`, not yet navigated (so a timer can start at navigation). */
async function appPage(context: BrowserContext, session: { token: string; user: unknown }): Promise<Page> {
  await context.addInitScript((s) => localStorage.setItem('boligkasse.session', s), JSON.stringify(session))
  return context.newPage()
}

async function openApp(context: BrowserContext, server: RunningServer, session: { token: string; user: unknown }): Promise<Page> {
  const page = await appPage(context, session)
  await page.goto(`${server.url}/notifications`)
  return page
}

/**
 * Rows in each of `stores` of the IndexedDB database `name`, counted in one read transaction (so
 * one poll costs the page one round trip, whatever the number of stores); -1 for a store (or a
 * database) that does not exist yet.
 */
async function countsIn(page: Page, name: string, stores: string[]): Promise<number[]> {
  return page.evaluate(
    ({ name, stores }) =>
      indexedDB.databases().then((dbs) =>
        !dbs.some((d) => d.name === name) ?
          stores.map(() => -1)
        : new Promise<number[]>((ok) => {
            const req = indexedDB.open(name)
            req.onsuccess = () => {
              const db = req.result
              const present = stores.filter((store) => db.objectStoreNames.contains(store))
              if (!present.length) {
                db.close()
                return ok(stores.map(() => -1))
              }
              const tx = db.transaction(present)
              const counts = new Map<string, number>()
              for (const store of present) {
                const c = tx.objectStore(store).count()
                c.onsuccess = () => counts.set(store, c.result)
              }
              tx.oncomplete = () => {
                db.close()
                ok(stores.map((store) => counts.get(store) ?? -1))
              }
              tx.onerror = tx.onabort = () => {
                db.close()
                ok(stores.map(() => -1))
              }
            }
            req.onerror = () => ok(stores.map(() => -1))
          }),
      ),
    { name, stores },
  )
}
const countIn = async (page: Page, name: string, store: string): Promise<number> => (await countsIn(page, name, [store]))[0]!
async function waitForLocalRows(page: Page, userId: string, n: number, timeoutMs = 60_000) {
  await waitForStores(page, userId, { notifications: n }, timeoutMs)
}
/** Waits until each local store holds at least its count of rows. */
async function waitForStores(page: Page, userId: string, counts: Record<string, number>, timeoutMs = 60_000) {
  const end = Date.now() + timeoutMs
  const stores = Object.keys(counts)
  while ((await countsIn(page, `boligkasse-${userId}`, stores)).some((count, i) => count < counts[stores[i]!]!)) {
    if (Date.now() > end) throw new Error(`timeout waiting for ${JSON.stringify(counts)} rows`)
    await new Promise((r) => setTimeout(r, 50))
  }
}

/**
 * The pull's baseline: the same pages the client asks for (GET /api/sync, 2,000 a page) fetched
 * and parsed without storing; also how many rows each local store must end up with.
 */
async function fetchAllChanges(server: RunningServer, token: string) {
  const t0 = performance.now()
  const ids: Record<string, Set<string>> = {}
  let cursor = ''
  for (;;) {
    const r = (await (
      await fetch(`${server.url}/api/sync?limit=2000${cursor ? `&cursor=${cursor}` : ''}`, { headers: { Authorization: `Bearer ${token}` } })
    ).json()) as { cursor: string; hasMore: boolean; changes: { entity: string; id: string; op: string }[] }
    for (const c of r.changes) if (c.op === 'upsert') (ids[entityTables[c.entity as SyncEntity]] ??= new Set()).add(c.id)
    cursor = r.cursor
    if (!r.hasMore) break
  }
  const counts = Object.fromEntries(Object.entries(ids).map(([store, set]) => [store, set.size]))
  return { ms: performance.now() - t0, counts, total: Object.values(counts).reduce((a, b) => a + b, 0) }
}

/**
 * A pull into an empty store in a new browser context, timed from navigation (the tab already
 * open) until every store is full; its floor (bench/pull-floor.ts) runs just before, on the same
 * server and rows.
 */
async function timePull(
  browser: Browser,
  server: RunningServer,
  session: { token: string; user: { id: string } },
  row: string,
  changes: number,
  target: number,
) {
  const expected = await fetchAllChanges(server, session.token)
  const floor = await barePull(browser, server.url, session.token, 2000)
  const context = await browser.newContext()
  // From navigation, like the cold start: the browser's own start of a tab is not the pull's.
  const page = await appPage(context, session)
  const start = Date.now()
  await page.goto(`${server.url}/notifications`)
  // The end is the mark the app leaves when a pull has stored everything (bench/pulled.ts):
  // polling the stores would compete with the pull it times.
  // Then the stores are counted once, to prove the pull really stored every row.
  const end = await pulledAt(page, 120_000)
  await waitForStores(page, session.user.id, expected.counts, 10_000)
  const pulled = Math.round(end - start)
  const mix = Object.entries(expected.counts)
    .map(([store, n]) => `${n} ${store}`)
    .join(', ')
  atMost(
    row,
    `pull of ${count(changes)} changes of every synced entity into an empty store`,
    pulled,
    'ms',
    target,
    `floor ${floor} ms: a blank page fetching the same pages into the same IndexedDB stores; fetching alone ${expected.ms.toFixed(0)} ms (${mix})`,
  )
  return { context, page }
}

/**
 * The JavaScript a tab loads before its first route renders: the entry (client/main.tsx), what it
 * imports, and the app it starts (client/app.tsx, imported at once, see main.tsx) with everything
 * that imports; not the routes' own chunks, loaded when a route is opened. Read from Vite's
 * manifest (build.manifest in vite.config.ts).
 */
function firstRouteScripts(dist: string): string[] {
  const manifest = JSON.parse(readFileSync(join(dist, '.vite/manifest.json'), 'utf8')) as Record<
    string,
    { file: string; isEntry?: boolean; imports?: string[]; dynamicImports?: string[] }
  >
  const files = new Set<string>()
  const add = (key: string) => {
    const chunk = manifest[key]!
    if (files.has(chunk.file)) return
    files.add(chunk.file)
    for (const imported of chunk.imports ?? []) add(imported)
  }
  for (const [key, chunk] of Object.entries(manifest))
    if (chunk.isEntry) {
      add(key)
      for (const started of chunk.dynamicImports ?? []) if (started.endsWith('app.tsx')) add(started)
    }
  return [...files].filter((file) => file.endsWith('.js'))
}

/** `BENCH_ONLY=offline,first-visit,billing,statistics,api,sizes,import` runs only those parts (all when unset). */
const only = process.env.BENCH_ONLY?.split(',').map((p) => p.trim())
const wanted = (part: string) => !only || only.includes(part)

async function main() {
  if (wanted('offline')) await runPart('offline', offlineBenchmark)
  if (wanted('first-visit')) await runPart('first-visit', firstVisitBenchmark)
  if (wanted('billing')) await runPart('billing', billingBenchmark)
  if (wanted('statistics')) await runPart('statistics', statisticsBenchmark)
  if (wanted('api')) await runPart('api', apiBenchmark)
  if (wanted('sizes')) await runPart('sizes', sizesBenchmark)
  if (wanted('import')) await runPart('import', importBenchmark)
  finish()
}

/** Figures 1–4: the offline client in Chromium against the product server with the demo data. */
async function offlineBenchmark() {
  const server = await startServer({ LOG_LEVEL: 'error' })
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS })
  try {
    const session = await signIn(server)
    const userId = session.user.id
    const dbPath = join(server.dir, 'app.db')

    // --- 3. pull of 5,000 changes into an empty store --------------------------------------
    seedPull(dbPath, userId, PULL)
    const ids = (() => {
      const db = new Database(dbPath, { readonly: true })
      const rows = db
        .prepare("SELECT id FROM notifications WHERE user_id = ? AND is_read = 0 AND title LIKE 'Payment received %' ORDER BY id")
        .pluck()
        .all(userId) as string[]
      db.close()
      return rows
    })()
    {
      const { context, page } = await timePull(browser, server, session, 'pull-5k', PULL, 2000)
      await page.evaluate(async () => void (await navigator.serviceWorker.ready))

      // --- 1. offline cold start ------------------------------------------------------------
      await page.evaluate(
        ({ name, n }) =>
          new Promise<void>((ok, fail) => {
            const req = indexedDB.open(name)
            req.onsuccess = () => {
              const tx = req.result.transaction(['agreements', 'notifications'], 'readwrite')
              const notes = tx.objectStore('notifications')
              // Keep 1,000 notifications, as the benchmark asks.
              const cursorReq = notes.openCursor()
              let seen = 0
              cursorReq.onsuccess = () => {
                const c = cursorReq.result
                if (!c) return
                if (++seen > 1000) c.delete()
                c.continue()
              }
              const agreements = tx.objectStore('agreements')
              for (let i = 0; i < n; i++)
                agreements.put({
                  id: `00000000-0000-7000-8000-${String(i).padStart(12, '0')}`,
                  _version: 1,
                  externalId: String(1001 + i),
                  companyId: 'c',
                  status: 'ACCEPTED',
                  price: 450000,
                  currency: 'DKK',
                  paymentPeriod: 'MONTHLY',
                  startPaymentDate: '2026-01-01',
                  nextRegularPaymentDate: '2026-12-01',
                  member: { title: 'SJ', fullName: `Member ${i}`, emailAddress: `m${i}@example.dk`, isVerified: true },
                  addresses: [{ id: 'a', street: 'Solgårdsvej', number: '2', floor: '1', side: 'tv', zip: '2200', city: 'København N', country: 'Denmark' }],
                  parts: [{ id: 'p', type: 'COMMON_EXPENSES', description: 'Boligafgift', price: 450000, currency: 'DKK' }],
                })
              tx.oncomplete = () => ok()
              tx.onerror = () => fail(tx.error)
            }
          }),
        { name: `boligkasse-${userId}`, n: LOCAL_AGREEMENTS },
      )
      await server.stop()
      let rowsMarkup = ''
      const coldStart = async (ctx: BrowserContext, profile?: string) => {
        const p = await ctx.newPage()
        // BENCH_PROFILE_DIR: the page's main-thread CPU profile of one cold start, for Chromium's
        // DevTools (Performance → load profile) or any .cpuprofile reader (docs/BENCHMARKS.md "Profiles").
        const cdp = profile ? await ctx.newCDPSession(p) : undefined
        if (cdp) {
          await cdp.send('Profiler.enable')
          await cdp.send('Profiler.setSamplingInterval', { interval: 100 })
          await cdp.send('Profiler.start')
        }
        const t = Date.now()
        await p.goto(`${server.url}/notifications`).catch(() => undefined)
        await p.locator('[data-notification-id]').nth(99).waitFor({ timeout: 20_000 })
        const ms = Date.now() - t
        if (cdp && profile) {
          const { profile: taken } = await cdp.send('Profiler.stop')
          mkdirSync(dirname(profile), { recursive: true })
          writeFileSync(profile, JSON.stringify(taken))
          console.log(`offline bench: the cold start's CPU profile (${ms} ms) is in ${profile}`)
        }
        rowsMarkup = await p.evaluate(() =>
          [...document.querySelectorAll('[data-notification-id]')]
            .slice(0, 100)
            .map((e) => e.outerHTML)
            .join(''),
        )
        await p.close()
        return ms
      }
      // The service worker serves the shell while the server is down.
      const runs: number[] = []
      for (let i = 0; i < COLD_STARTS; i++) runs.push(await coldStart(context))
      if (process.env.BENCH_PROFILE_DIR) await coldStart(context, join(process.env.BENCH_PROFILE_DIR, 'cold-start.cpuprofile'))
      // Floor: what an offline start needs without the app, in the same browser profile: a page
      // (no framework, no Dexie) that opens the same local database, reads the notifications the
      // screen reads (all of them, newest first, bench/cold-start-floor.ts) and writes the same 100
      // rows' markup. Below it, for scale: the markup alone in a blank page.
      const floorRuns: number[] = []
      const markupRuns: number[] = []
      for (let i = 0; i < COLD_STARTS; i++) {
        floorRuns.push(await coldStartFloor(context, server.url, `boligkasse-${userId}`, rowsMarkup))
        const p = await context.newPage()
        const t = Date.now()
        await p.setContent(`<!doctype html><html><body><main>${rowsMarkup}</main></body></html>`)
        await p.locator('[data-notification-id]').nth(99).waitFor({ timeout: 20_000 })
        markupRuns.push(Date.now() - t)
        await p.close()
      }
      const floorNote = `floor ${median(floorRuns)} ms: a page without the app reading the same local rows and writing the same 100 rows' markup; the markup alone ${median(markupRuns)} ms`
      atMost('cold-start', `offline cold start to 100 rows (median of ${COLD_STARTS})`, median(runs), 'ms', 1000, floorNote)
      atMost('cold-start-vs-floor', 'offline cold start against its floor', median(runs) / median(floorRuns), '×', 1.5, floorNote)
      await server.start()
      await context.close()
    }

    // --- 2. replay of 500 queued mutations ------------------------------------------------
    {
      const targets = ids.slice(0, REPLAY)
      const context = await browser.newContext()
      const page = await openApp(context, server, session)
      await waitForLocalRows(page, userId, Math.min(1000, ids.length))
      // The rows land before the app has finished starting (the first pull begins before the app
      // loads, client/sync/early-pull.ts): the server stops only once the app's own sync has run
      // and the service worker controls the page, as a user would have it before going offline.
      await pulledAt(page, 60_000)
      await page.evaluate(async () => void (await navigator.serviceWorker.ready))
      await server.stop()
      await page.evaluate(
        ({ name, targets }) =>
          new Promise<void>((ok, fail) => {
            const req = indexedDB.open(name)
            req.onsuccess = () => {
              const tx = req.result.transaction('outbox', 'readwrite')
              const now = Date.now()
              for (const id of targets)
                tx.objectStore('outbox').add({
                  mutationId: crypto.randomUUID(),
                  kind: 'notification.read',
                  method: 'PATCH',
                  path: `/notifications/${id}/read`,
                  entity: 'notification',
                  entityId: id,
                  status: 'queued',
                  attempts: 0,
                  nextAttemptAt: now,
                  lastError: null,
                  createdAt: now,
                })
              tx.oncomplete = () => ok()
              tx.onerror = () => fail(tx.error)
            }
          }),
        { name: `boligkasse-${userId}`, targets },
      )
      await server.start()
      const t0 = Date.now()
      await page.evaluate(() => window.dispatchEvent(new Event('online')))
      while ((await countIn(page, `boligkasse-${userId}`, 'outbox')) !== 0) await new Promise((r) => setTimeout(r, 50))
      const replay = Date.now() - t0
      const db = new Database(join(server.dir, 'app.db'), { readonly: true })
      const placeholders = targets.map(() => '?').join(',')
      const wrong = (
        db.prepare(`SELECT COUNT(*) AS n FROM notifications WHERE id IN (${placeholders}) AND (version <> 2 OR is_read = 0)`).get(...targets) as { n: number }
      ).n
      db.close()
      // Baseline: the next 500 mark-reads sent straight, one request each, from the page.
      const base = await page.evaluate(
        async ({ token, ids }) => {
          const t = performance.now()
          for (const id of ids)
            await fetch(`/api/notifications/${id}/read`, {
              method: 'PATCH',
              headers: { Authorization: `Bearer ${token}`, 'Idempotency-Key': crypto.randomUUID() },
            })
          return performance.now() - t
        },
        { token: session.token, ids: ids.slice(REPLAY, 2 * REPLAY) },
      )
      atMost(
        'replay',
        `replay of ${REPLAY} queued mutations (${wrong} applied other than exactly once)`,
        replay,
        'ms',
        5000,
        `${base.toFixed(0)} ms for ${REPLAY} direct requests`,
      )
      atMost('replay-exactly-once', `replay of ${REPLAY} queued mutations: duplicates or losses`, wrong, 'rows', 0, 'counted in the database')
      await context.close()
    }

    // --- 3b. pull of 20,000 changes into an empty store -------------------------------------
    {
      seedPull(dbPath, userId, BIG_PULL - PULL)
      const { context } = await timePull(browser, server, session, 'pull-20k', BIG_PULL, 5000)
      await context.close()
    }

    // --- 4. JavaScript of the first route -----------------------------------------------
    {
      const dist = join(root, 'dist/client')
      const files = firstRouteScripts(dist)
      const bytes = files.reduce((sum, f) => sum + gzipSync(readFileSync(join(dist, f))).length, 0)
      const floor = await librariesGzipped()
      atMost(
        'first-route-js',
        `JavaScript of the first route, gzipped (${files.length} files)`,
        bytes / 1024,
        'KB',
        200,
        `floor ${(floor / 1024).toFixed(1)} KB: React, React DOM, Dexie and workbox-window alone, bundled and minified now`,
      )
    }
  } finally {
    await browser.close()
    await server.stop()
    rmSync(server.dir, { recursive: true, force: true })
  }
}

/** The libraries every first route of this client needs, minified and gzipped: what no app code could go below. */
async function librariesGzipped(): Promise<number> {
  const out = await build({
    // Exported whole, so nothing is shaken off: the libraries as a page would load them.
    stdin: {
      contents:
        "export * as react from 'react'; export * as dom from 'react-dom/client'; export * as dexie from 'dexie'; export * as workbox from 'workbox-window'",
      resolveDir: root,
      loader: 'js',
    },
    bundle: true,
    minify: true,
    format: 'esm',
    write: false,
    define: { 'process.env.NODE_ENV': '"production"' },
    logLevel: 'silent',
  })
  return gzipSync(out.outputFiles[0]!.contents).length
}

main().catch((err) => {
  console.error(err)
  process.exit(1)
})
