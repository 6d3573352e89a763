// Imported by the generated service worker (vite.config.ts), behind this build's list of files
// outside the precached shell (`self.__OFFLINE_LATER__`, put in front by
// scripts/vite-offline-shell.ts; the result is a hashed file under /assets/, so a new build is a new
// worker). docs/decisions/0087-ready-offline-from-the-first-visit.md, docs/OFFLINE.md "Service worker".
//
// - The first worker of a browser takes over at once: the page that installed it is controlled, so
//   the files it asks for from then on go through the worker and are kept. An update still waits
//   for the user (UpdatePrompt.tsx: the prompt, then the empty outbox, then SKIP_WAITING).
// - Hashed files under /assets/ never change: Workbox's CacheFirst route (vite.config.ts) keeps each
//   in ASSETS_CACHE the first time a page loads it. The files a page loaded before the worker
//   controlled it are copied from the HTTP cache on activation, and the page asks for them too
//   (`KEEP_LOADED`, answered on the message's port: the page says "Ready offline" only then). Once ready, the page asks, when idle, for the rest
//   (`WARM_ASSETS`): the worker fetches what is still missing, a few at a time.
// - A new worker drops the files of older builds from that cache.

const ASSETS_CACHE = 'boligkasse-assets'
const WARM_PARALLEL = 3

self.addEventListener('install', () => {
  // No worker was active: nobody is using an older version, so nothing waits for a prompt.
  if (!self.registration.active) void self.skipWaiting()
})

self.addEventListener('activate', (event) => {
  // Pages already controlled by an older worker move to this one anyway when it activates; the
  // claim adds the pages opened before any worker (the first visit), which would otherwise stay
  // without one. Before it, the files those pages loaded are copied from the browser's HTTP cache:
  // requests wait for the activation, so a reload right after it finds them here.
  event.waitUntil(Promise.all([dropOtherBuilds(), keepFromHttpCache()]).then(() => self.clients.claim()))
})

self.addEventListener('message', (event) => {
  const type = event.data?.type
  if (type === 'KEEP_LOADED') {
    // The page was loaded before this worker controlled it: its files did not pass through here.
    const port = event.ports[0]
    const urls = Array.isArray(event.data.urls) ? event.data.urls : []
    event.waitUntil(
      store(urls.map((u) => new URL(u, self.location.origin).pathname)).then(
        () => port?.postMessage({ kept: true }),
        () => port?.postMessage({ kept: false }),
      ),
    )
  } else if (type === 'WARM_ASSETS') event.waitUntil(warm().catch(() => undefined))
})

const later = () => new Set(self.__OFFLINE_LATER__ ?? [])

async function dropOtherBuilds() {
  const keep = later()
  const cache = await caches.open(ASSETS_CACHE)
  const keys = await cache.keys()
  await Promise.all(keys.filter((r) => !keep.has(new URL(r.url).pathname)).map((r) => cache.delete(r)))
}

/** Keeps those of `paths` that are this build's files outside the shell and not kept yet; fails if one cannot be fetched. */
async function store(paths) {
  const all = later()
  const cache = await caches.open(ASSETS_CACHE)
  const have = new Set((await cache.keys()).map((r) => new URL(r.url).pathname))
  const todo = [...new Set(paths)].filter((p) => all.has(p) && !have.has(p))
  await Promise.all(
    todo.map(async (path) => {
      // From the browser's HTTP cache, where the page's own load left it (hashed files are immutable).
      const response = await fetch(path, { credentials: 'same-origin' })
      if (!response.ok) throw new Error(`${path}: ${response.status}`)
      await cache.put(path, response)
    }),
  )
}

/** This build's other files that the browser's HTTP cache has (a page loaded them), without the network. */
async function keepFromHttpCache() {
  const cache = await caches.open(ASSETS_CACHE)
  const have = new Set((await cache.keys()).map((r) => new URL(r.url).pathname))
  await Promise.all(
    [...later()]
      .filter((p) => !have.has(p))
      .map(async (path) => {
        try {
          const response = await fetch(path, { cache: 'only-if-cached', mode: 'same-origin' })
          if (response.ok) await cache.put(path, response)
        } catch {
          // Not in the HTTP cache (or a browser without only-if-cached): the page's KEEP_LOADED covers it.
        }
      }),
  )
}

let warming = null

/** Stores this build's other files not yet in the cache, a few at a time, in the background. */
function warm() {
  warming ??= (async () => {
    const cache = await caches.open(ASSETS_CACHE)
    const have = new Set((await cache.keys()).map((r) => new URL(r.url).pathname))
    const todo = [...later()].filter((p) => !have.has(p))
    let failed = false
    const next = async () => {
      for (let path = todo.shift(); path && !failed; path = todo.shift()) {
        try {
          const response = await fetch(path, { credentials: 'same-origin' })
          if (response.ok) await cache.put(path, response)
        } catch {
          // Offline again: stop; the page asks again the next time it is ready.
          failed = true
        }
      }
    }
    await Promise.all(Array.from({ length: WARM_PARALLEL }, next))
  })().finally(() => {
    warming = null
  })
  return warming
}
