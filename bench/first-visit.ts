/**
 * Ready offline from the first visit (decision 0087), part `first-visit` of `npm run bench`
 * (bench/run.ts) or alone: `node --import tsx bench/first-visit.ts`. e2e/offline-ready.e2e.ts
 * holds what is correct (the first page is controlled, "Ready offline" is said, the screens opened
 * work offline after a reload); how soon is a figure here:
 *   1. what the service worker precaches (files, KiB); baseline: every file of the build its
 *      patterns match, all of which it precached before decision 0087;
 *   2. a fresh browser context signs in as a board member: the first load (the sign-in page) →
 *      the page controlled by the worker, and the first screen (the agreements, rows shown) →
 *      "Ready offline" in the sync status, 3 runs (min/median/max printed; the median is the
 *      figure) — target ≤ 2 s each; baseline: the first load → the worker active.
 * `CLIENT_DIR=<a build>` measures another build (an older one has no "Ready offline": only the
 * times it has are printed).
 */
import { readdirSync, readFileSync, rmSync, statSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'
import { chromium } from 'playwright-core'
import { CHROMIUM_ARGS, DEMO_PASSWORD, startServer } from '../e2e/harness'
import { atMost, finish, runPart } from './report'
import { size } from './scale'

const RUNS = size(3, 1)
const BOARD_MEMBER = 'bestyrelse@solgaarden.dk'
const WAIT_MS = 20_000
const dist = resolve(process.env.CLIENT_DIR ?? resolve(import.meta.dirname, '../dist/client'))

const sizeOf = (files: Iterable<string>) => [...files].reduce((sum, f) => sum + statSync(join(dist, f)).size, 0)
const kib = (bytes: number) => bytes / 1024

/** The files the built worker precaches, from its manifest in sw.js. */
function precached(): string[] {
  const sw = readFileSync(join(dist, 'sw.js'), 'utf8')
  return [...new Set([...sw.matchAll(/\{url:"([^"]+)",revision:/g)].map((m) => m[1]!))]
}

/** Every file of the build that the worker's glob patterns match (vite.config.ts `globPatterns`). */
function allBuildFiles(): string[] {
  const out: string[] = []
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name)
      if (statSync(path).isDirectory()) walk(path)
      else if (/\.(js|css|html|svg|png|ico|webmanifest)$/.test(name) && !/^(sw|workbox-[\w-]+)\.js$/.test(name)) out.push(relative(dist, path))
    }
  }
  walk(dist)
  return out
}

const spread = (xs: (number | null)[]) => {
  const s = xs.filter((x): x is number => x !== null).sort((a, b) => a - b)
  if (s.length < xs.length) return `${xs.length - s.length} of ${xs.length} never (within ${WAIT_MS / 1000} s)${s.length ? `; others ${s.join(', ')} ms` : ''}`
  return `min ${s[0]} / median ${s[Math.floor(s.length / 2)]} / max ${s[s.length - 1]} ms`
}
const median = (xs: (number | null)[]) => {
  const s = xs.map((x) => x ?? Infinity).sort((a, b) => a - b)
  return s[Math.floor(s.length / 2)]!
}

interface Run {
  registered: number | null
  controlled: number | null
  active: number | null
  firstScreen: number
  ready: number | null
}

export async function firstVisitBenchmark(): Promise<void> {
  const files = precached()
  const all = allBuildFiles()
  atMost(
    'precache',
    'service worker precache (files · KiB)',
    kib(sizeOf(files)),
    'KiB',
    1024,
    `${files.length} files now; every file of the build: ${all.length} files, ${kib(sizeOf(all)).toFixed(0)} KiB`,
  )

  const server = await startServer({ CLIENT_DIR: dist })
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS })
  const runs: Run[] = []
  try {
    for (let i = 0; i < RUNS; i++) {
      const context = await browser.newContext({ baseURL: server.url, viewport: { width: 1280, height: 900 }, locale: 'en-GB' })
      await context.addInitScript(() => {
        const sw = { controlled: null as number | null, active: null as number | null, registered: null as number | null }
        ;(window as unknown as { __sw: typeof sw }).__sw = sw
        const register = navigator.serviceWorker.register.bind(navigator.serviceWorker)
        navigator.serviceWorker.register = (...args) => {
          sw.registered ??= Math.round(performance.now())
          return register(...args)
        }
        navigator.serviceWorker.addEventListener('controllerchange', () => (sw.controlled ??= Math.round(performance.now())))
        void navigator.serviceWorker.ready.then(() => (sw.active ??= Math.round(performance.now())))
      })
      const page = await context.newPage()
      await page.goto('/login')
      await page.getByLabel('Email', { exact: true }).fill(BOARD_MEMBER)
      await page.getByLabel('Password', { exact: true }).fill(DEMO_PASSWORD)
      await page.getByRole('button', { name: 'Sign in', exact: true }).click()
      await page.locator('table tbody tr').first().waitFor({ timeout: WAIT_MS })
      const firstScreen = await page.evaluate(() => Math.round(performance.now()))
      const ready = await page
        .locator('.sync-indicator:visible [data-offline-ready="ready"]')
        .waitFor({ timeout: WAIT_MS })
        .then(() => page.evaluate(() => Math.round(performance.now())))
        .catch(() => null)
      // Whatever the build says, how long until its worker is active and controls the page.
      await page
        .waitForFunction(() => (window as unknown as { __sw: { controlled: unknown } }).__sw.controlled !== null, null, { timeout: WAIT_MS })
        .catch(() => undefined)
      const sw = await page.evaluate(
        () => (window as unknown as { __sw: { controlled: number | null; active: number | null; registered: number | null } }).__sw,
      )
      runs.push({ ...sw, firstScreen, ready })
      await context.close()
    }
  } finally {
    await browser.close()
    await server.stop()
    rmSync(server.dir, { recursive: true, force: true })
  }
  const controlled = runs.map((r) => r.controlled)
  const readyAfterFirstScreen = runs.map((r) => (r.ready === null ? null : Math.max(0, r.ready - r.firstScreen)))
  const active = runs.map((r) => r.active)
  console.log(`  first load → page controlled: ${spread(controlled)}`)
  console.log(`  first load → worker registered: ${spread(runs.map((r) => r.registered))}`)
  console.log(`  first load → worker active: ${spread(active)}`)
  console.log(`  first load → first screen (sign-in included): ${spread(runs.map((r) => r.firstScreen))}`)
  console.log(`  first screen → "Ready offline": ${spread(readyAfterFirstScreen)}`)
  const activeNote = `first load → worker active: median ${median(active)} ms`
  atMost('first-load-controlled', `first visit: first load → page controlled (median of ${RUNS})`, median(controlled), 'ms', 2000, activeNote)
  atMost('first-screen-ready', `first visit: first screen → "Ready offline" (median of ${RUNS})`, median(readyAfterFirstScreen), 'ms', 2000, activeNote)
}

if (process.argv[1]?.endsWith('bench/first-visit.ts')) {
  await runPart('first-visit', firstVisitBenchmark)
  finish()
}
