/**
 * Live across devices (decision 0086): two people of the same association, each in a browser of
 * their own, the administrator (English) and a board member (Danish). The administrator starts a
 * forum thread; the board member's open forum list shows it without a reload, pulled because the
 * live stream said `changed`: no reload, no click, the tab stays visible, and the 30 s poll (every
 * 5 minutes while the stream is open) is not what brings it (the guard below is shorter).
 * The same with the two people on two server instances sharing one PostgreSQL database (NOTIFY
 * wakes the other instance's stream), when PostgreSQL's binaries are installed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { danish, launchBrowser, startServer, type RunningServer } from './harness'
import { checkScreen, journeySuite, signIn, snapAll } from './journeys'
import { postgresBinDir, startPgCluster, type PgCluster } from '../server/test/pg-cluster'

const ADMIN = 'admin@solgaarden.dk'
const BOARD = 'bestyrelse@solgaarden.dk'
/** Shorter than the 30 s poll: what shows within it came through the live stream. A hang guard, not a speed limit. */
const LIVE_GUARD_MS = 20_000

/** Opens the forum list in Danish (the board member's language). */
async function boardOnForum(page: Page) {
  await signIn(page, BOARD)
  await page.getByRole('link', { name: danish('Forum'), exact: true }).click()
  await page.getByRole('heading', { name: danish('Forum'), level: 1 }).waitFor()
}

/** Fills in a new thread in the UI as the administrator (English); answers the button that starts it. */
async function adminWritesThread(page: Page, title: string) {
  await signIn(page, ADMIN)
  await page.getByRole('link', { name: 'Forum', exact: true }).click()
  await page.getByRole('heading', { name: 'Forum', level: 1 }).waitFor()
  await page.getByRole('link', { name: 'New thread' }).click()
  await page.getByLabel('Title', { exact: true }).fill(title)
  await page.getByLabel('Your post', { exact: true }).fill('Skraldespandene tømmes torsdag i denne uge.')
  return page.getByRole('button', { name: 'Start thread' })
}

/** Waits until the page's tab has its live stream open (its GET /api/live answered 200). */
const liveOpen = (page: Page) => page.waitForResponse((res) => new URL(res.url()).pathname === '/api/live' && res.status() === 200, { timeout: 30_000 })

/**
 * The board member's list, open and live; the administrator's thread; the list shows it within
 * the guard without a reload, after a pull the stream asked for. Prints how long it took.
 */
async function seesItLive(admin: Page, board: Page, title: string) {
  const opened = liveOpen(board)
  await boardOnForum(board)
  await opened
  const navigations: string[] = []
  board.on('framenavigated', (frame) => frame === board.mainFrame() && navigations.push(frame.url()))
  const pulls: number[] = []
  board.on('request', (req) => new URL(req.url()).pathname === '/api/sync' && pulls.push(Date.now()))

  const start = await adminWritesThread(admin, title)
  const clicked = Date.now()
  await start.click()
  await board.getByRole('link', { name: title }).waitFor({ timeout: LIVE_GUARD_MS })
  const shown = Date.now()
  // A timing printed for the reader, not asserted (docs/ARCHITECTURE.md "Tests hold on a slow, busy machine").
  console.info(`live: the thread showed in the other browser ${shown - clicked} ms after "Start thread" was pressed`)
  await admin.getByRole('heading', { name: title, level: 1 }).waitFor()
  expect(navigations).toEqual([])
  // Pulled after the press, within the guard: not the poll's doing.
  expect(pulls.filter((at) => at >= clicked).length).toBeGreaterThan(0)
}

describe('live across devices (SQLite, one server)', () => {
  const { suite, clientIp } = journeySuite('live', 41)

  it('a thread the administrator starts shows in the board member’s open forum list without a reload', async () => {
    const contexts: BrowserContext[] = []
    const open = async () => {
      const context = await suite.browser.newContext({
        baseURL: suite.server.url,
        viewport: { width: 1280, height: 900 },
        locale: 'en-GB',
        extraHTTPHeaders: clientIp(),
      })
      contexts.push(context)
      return await context.newPage()
    }
    try {
      const board = await open()
      const admin = await open()
      await seesItLive(admin, board, 'Storskrald på torsdag')
      await checkScreen(board, 'live-forum-list-board')
    } catch (err) {
      for (const [i, c] of contexts.entries()) await snapAll(c, `live-sqlite-${i}`)
      throw err
    } finally {
      for (const c of contexts) await c.close()
    }
  })
})

describe.skipIf(!postgresBinDir() && process.env.REQUIRE_POSTGRES !== '1')('live across devices (two server instances on one PostgreSQL database)', () => {
  let cluster: PgCluster
  const servers: RunningServer[] = []
  let browser: Browser

  beforeAll(async () => {
    cluster = await startPgCluster()
    const url = await cluster.createDatabase('live_e2e')
    const env = { DATABASE_URL: url, APP_SECRET_KEY: 'live-e2e-secret', TRUST_PROXY: '1' }
    // The first seeds the demo; the second finds it there.
    servers.push(await startServer(env))
    servers.push(await startServer({ ...env, DEMO_DATA: '0' }))
    browser = await launchBrowser()
  }, 180_000)
  afterAll(async () => {
    await browser?.close()
    for (const server of servers) await server.stop()
    await cluster?.stop()
  })

  it('a thread started through one instance shows in the forum list of a browser on the other', async () => {
    const contexts: BrowserContext[] = []
    const open = async (server: RunningServer, ip: string) => {
      const context = await browser.newContext({
        baseURL: server.url,
        viewport: { width: 1280, height: 900 },
        locale: 'en-GB',
        extraHTTPHeaders: { 'X-Forwarded-For': ip },
      })
      contexts.push(context)
      return await context.newPage()
    }
    try {
      const board = await open(servers[1]!, '10.42.0.1')
      const admin = await open(servers[0]!, '10.42.0.2')
      await seesItLive(admin, board, 'Vinduespudsning næste uge')
    } catch (err) {
      for (const [i, c] of contexts.entries()) await snapAll(c, `live-pg-${i}`)
      throw err
    } finally {
      for (const c of contexts) await c.close()
    }
  })
})
