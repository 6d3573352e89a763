/**
 * Whether this page works offline now (docs/OFFLINE.md "Service worker",
 * docs/decisions/0087-ready-offline-from-the-first-visit.md).
 *
 * `ready`: a service worker controls the page, and so the shell is stored (a worker becomes
 * active only once its install stored every precached file) and every file the page asks for from
 * now on is kept (client/sw/offline-cache.js). A page that started without one (the first visit:
 * the first worker takes over the page that installed it) is ready once the worker has also kept
 * the files the page had loaded before, so the screens already opened work offline too.
 * `preparing`: not yet (no worker controls the page, or those files are not kept yet).
 * `unavailable`: this browser has no service workers, or registering one failed.
 *
 * Once ready, when the page is idle, it asks the worker to store the rest of the app's files in
 * the background (`WARM_ASSETS`), without delaying "ready".
 */
import { createStore, useStore } from '../../lib/store'

export type OfflineReadiness = 'ready' | 'preparing' | 'unavailable'

/** A worker that does not answer (one from before decision 0087) leaves the page ready without that step. */
const KEEP_ANSWER_MS = 10_000

const supported = () => typeof navigator !== 'undefined' && 'serviceWorker' in navigator

const readiness = createStore<OfflineReadiness>(
  !supported() ? 'unavailable'
  : navigator.serviceWorker.controller ? 'ready'
  : 'preparing',
)
let watching = false
let warmed = false

const idle = (run: () => void) => {
  if (typeof requestIdleCallback === 'function') requestIdleCallback(run, { timeout: 5000 })
  else setTimeout(run, 1000)
}

/** The app's files this page has loaded (the browser's resource timing entries). */
const loadedAssets = () =>
  performance
    .getEntriesByType('resource')
    .map((e) => e.name)
    .filter((url) => new URL(url).pathname.startsWith('/assets/'))

/** Asks the worker to keep the files this page loaded before it was controlled; true once they are. */
function keepLoaded(worker: ServiceWorker): Promise<boolean> {
  return new Promise((resolve) => {
    const channel = new MessageChannel()
    const timer = setTimeout(() => resolve(true), KEEP_ANSWER_MS)
    channel.port1.onmessage = (event: MessageEvent<{ kept?: boolean }>) => {
      clearTimeout(timer)
      resolve(event.data?.kept === true)
    }
    worker.postMessage({ type: 'KEEP_LOADED', urls: loadedAssets() }, [channel.port2])
  })
}

/** Asks the controlling worker, once per page and when idle, to store the app's other files. */
function warmWhenIdle() {
  if (warmed) return
  warmed = true
  idle(() => navigator.serviceWorker.controller?.postMessage({ type: 'WARM_ASSETS' }))
}

function ready() {
  readiness.set('ready')
  warmWhenIdle()
}

/** The page has just been taken over (or the network came back after keeping its files failed). */
async function takenOver() {
  const worker = navigator.serviceWorker.controller
  if (!worker) return readiness.set('preparing')
  if (readiness.get() === 'ready') return
  if (await keepLoaded(worker)) ready()
  // Not kept (the network went meanwhile): tried again when it is back.
  else addEventListener('online', () => void takenOver(), { once: true })
}

/** Follows the page's controller; called once the worker is registered (UpdatePrompt.tsx). */
export function watchOfflineReadiness(): void {
  if (watching || !supported()) return
  watching = true
  navigator.serviceWorker.addEventListener('controllerchange', () => void takenOver())
  if (readiness.get() === 'ready') warmWhenIdle()
  else void takenOver()
}

/** Registering the worker failed: this page will not work offline. */
export function offlineUnavailable(): void {
  if (!navigator.serviceWorker?.controller) readiness.set('unavailable')
}

export const currentOfflineReadiness = (): OfflineReadiness => readiness.get()

export function useOfflineReadiness(): OfflineReadiness {
  return useStore(readiness)
}
