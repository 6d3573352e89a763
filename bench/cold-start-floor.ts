/**
 * The offline cold start's floor (bench/run.ts, figure 1): what opening the app offline costs
 * without the app. In the same browser profile as the app (so the same IndexedDB database), a page
 * with no framework, no Dexie and no service worker opens the app's local database, reads every
 * notification through the same `createdAt` index, newest first — what the notifications screen
 * reads (client/features/notifications/use-notifications.ts) — and writes the same 100 rows'
 * markup the app rendered. Timed like the app's start: from navigation to the 100th row.
 *
 * It is served at a path under /api/, which the service worker leaves to the network (decision
 * 0019), and answered by the bench itself (the server is stopped): no cache and no server is in it.
 */
import type { BrowserContext } from 'playwright-core'

const PAGE = (database: string, markup: string) => `<!doctype html><html><body><main id="rows"></main><script>
const open = indexedDB.open(${JSON.stringify(database)})
open.onsuccess = () => {
  const read = open.result.transaction('notifications').objectStore('notifications').index('createdAt').getAll()
  read.onsuccess = () => {
    const newestFirst = read.result.reverse()
    if (newestFirst.length < 100) throw new Error('fewer than 100 notifications')
    document.getElementById('rows').innerHTML = ${JSON.stringify(markup)}
  }
}
</script></body></html>`

/** Milliseconds from navigation to the 100th row of the floor page, in `context`. */
export async function coldStartFloor(context: BrowserContext, serverUrl: string, database: string, rowsMarkup: string): Promise<number> {
  const page = await context.newPage()
  try {
    const url = `${serverUrl}/api/bench-cold-start-floor`
    await page.route(url, (route) => route.fulfill({ contentType: 'text/html', body: PAGE(database, rowsMarkup) }))
    const t = Date.now()
    await page.goto(url)
    await page.locator('[data-notification-id]').nth(99).waitFor({ timeout: 20_000 })
    return Date.now() - t
  } finally {
    await page.close()
  }
}
