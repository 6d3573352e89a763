import { afterEach, describe, expect, it, vi } from 'vitest'

/**
 * "Ready offline" follows the real state (docs/decisions/0087-ready-offline-from-the-first-visit.md):
 * a page the worker took over is ready only once the worker kept the files it had loaded, then
 * asks for the rest when idle. A fake service worker container stands in for the browser's.
 */
function fakeBrowser({ controlled = false } = {}) {
  const posted: { type: string; urls?: string[]; port?: MessagePort }[] = []
  const worker = {
    postMessage: (data: { type: string; urls?: string[] }, transfer?: MessagePort[]) => posted.push({ ...data, port: transfer?.[0] }),
  }
  const container = new EventTarget() as EventTarget & { controller: typeof worker | null }
  container.controller = controlled ? worker : null
  const windowEvents = new EventTarget()
  vi.stubGlobal('navigator', { serviceWorker: container, onLine: true })
  const listen = vi.fn(windowEvents.addEventListener.bind(windowEvents))
  vi.stubGlobal('addEventListener', listen)
  vi.stubGlobal('requestIdleCallback', (run: () => void) => run())
  vi.spyOn(performance, 'getEntriesByType').mockReturnValue([
    { name: 'http://x.test/assets/ProfilePage-abc.js' },
    { name: 'http://x.test/api/sync' },
  ] as PerformanceEntryList)
  const takeOver = () => {
    container.controller = worker
    container.dispatchEvent(new Event('controllerchange'))
  }
  return { posted, takeOver, windowEvents, listen }
}

const load = async () => {
  vi.resetModules()
  return import('./offline-ready')
}

afterEach(() => {
  vi.unstubAllGlobals()
  vi.restoreAllMocks()
})

describe('offline readiness', () => {
  it('is unavailable without service workers', async () => {
    vi.stubGlobal('navigator', {})
    const m = await load()
    m.watchOfflineReadiness()
    expect(readinessOf(m)).toBe('unavailable')
  })

  it('a page the first worker takes over is ready once its loaded files are kept, then asks for the rest', async () => {
    const browser = fakeBrowser()
    const m = await load()
    m.watchOfflineReadiness()
    expect(readinessOf(m)).toBe('preparing')

    browser.takeOver()
    await vi.waitFor(() => expect(browser.posted.map((p) => p.type)).toEqual(['KEEP_LOADED']), { timeout: 5000 })
    expect(browser.posted[0]!.urls).toEqual(['http://x.test/assets/ProfilePage-abc.js'])
    expect(readinessOf(m)).toBe('preparing')

    browser.posted[0]!.port!.postMessage({ kept: true })
    await vi.waitFor(() => expect(readinessOf(m)).toBe('ready'), { timeout: 5000 })
    expect(browser.posted.map((p) => p.type)).toEqual(['KEEP_LOADED', 'WARM_ASSETS'])
  })

  it('stays "getting ready" when the files could not be kept, and tries again when the network is back', async () => {
    const browser = fakeBrowser()
    const m = await load()
    m.watchOfflineReadiness()
    browser.takeOver()
    await vi.waitFor(() => expect(browser.posted).toHaveLength(1), { timeout: 5000 })
    browser.posted[0]!.port!.postMessage({ kept: false })
    // The answer is read: the page waits for the network before it asks again.
    await vi.waitFor(() => expect(browser.listen).toHaveBeenCalledWith('online', expect.any(Function), { once: true }), { timeout: 5000 })
    expect(readinessOf(m)).toBe('preparing')

    browser.windowEvents.dispatchEvent(new Event('online'))
    await vi.waitFor(() => expect(browser.posted).toHaveLength(2), { timeout: 5000 })
    browser.posted[1]!.port!.postMessage({ kept: true })
    await vi.waitFor(() => expect(readinessOf(m)).toBe('ready'), { timeout: 5000 })
  })

  it('a page that opened controlled is ready at once and asks for the rest', async () => {
    const browser = fakeBrowser({ controlled: true })
    const m = await load()
    expect(readinessOf(m)).toBe('ready')
    m.watchOfflineReadiness()
    expect(browser.posted.map((p) => p.type)).toEqual(['WARM_ASSETS'])
  })
})

/** The store's current value, read the way the hook reads it. */
function readinessOf(m: typeof import('./offline-ready')): string {
  return m.currentOfflineReadiness()
}
