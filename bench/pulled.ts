import type { Page } from 'playwright-core'
import { PULLED_MARK } from '../client/sync/pull'

/**
 * When the app's pull last stored everything the server had (epoch ms): waits for the mark its
 * pull leaves (PULLED_MARK, client/sync/pull.ts), read without touching IndexedDB, so the wait
 * never competes with the pull it waits for.
 */
export async function pulledAt(page: Page, timeoutMs: number, pollingMs = 50): Promise<number> {
  const handle = await page.waitForFunction(
    (mark) => {
      const entry = performance.getEntriesByName(mark)[0]
      return entry ? performance.timeOrigin + entry.startTime : false
    },
    PULLED_MARK,
    { timeout: timeoutMs, polling: pollingMs },
  )
  return (await handle.jsonValue()) as number
}
