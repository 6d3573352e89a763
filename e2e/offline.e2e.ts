/**
 * Offline journeys (docs/OFFLINE.md): the installed app offline (reload, browser restart) and its outbox against
 * the real server — a lost answer, two tabs, a refusal in the middle of the queue, a session that
 * expires while offline, a new deployment while changes wait — and installability.
 *
 * "Offline" is either the server stopped (when the page itself must load without it) or the
 * page's /api requests aborted (faster, and the test can still act on the server meanwhile).
 * Each journey signs in a different English-speaking demo user, from its own client IP (the
 * server trusts X-Forwarded-For here) so the sign-in rate limit never gets in the way.
 */
import { appendFileSync, cpSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import Database from 'better-sqlite3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { DEMO_PASSWORD, launchBrowser, launchProfile, snap, startServer, type RunningServer } from './harness'

let server: RunningServer
let browser: Browser

beforeAll(async () => {
  server = await startServer({ TRUST_PROXY: '1' })
  browser = await launchBrowser()
})
afterAll(async () => {
  await browser?.close()
  await server?.stop()
})

let lastIp = 0
const clientIp = () => ({ 'X-Forwarded-For': `10.4.0.${++lastIp}` })

// ---------- The test acting on the server through the API ----------

interface ServerNotification {
  id: string
  title: string
  message: string
  isRead: boolean
  version: number
}

async function call(base: string, token: string | null, method: string, path: string, body?: unknown) {
  const res = await fetch(`${base}/api${path}`, {
    method,
    headers: { ...clientIp(), 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  const text = await res.text()
  return { status: res.status, json: text ? JSON.parse(text) : undefined }
}

async function apiLogin(base: string, email: string): Promise<string> {
  const { status, json } = await call(base, null, 'POST', '/auth/login', { type: 'email', email, password: DEMO_PASSWORD })
  expect(status).toBe(200)
  return json.accessToken
}

/** Each new sign-in method makes the server notify the user ("…<strong>Key A</strong> was added…"). */
async function notify(base: string, token: string, ...keys: string[]) {
  for (const identifier of keys)
    expect((await call(base, token, 'POST', '/account/auth-methods', { type: 'LOGIN_TOKEN', identifier, currentPassword: DEMO_PASSWORD })).status).toBe(201)
}

async function serverNotifications(base: string, token: string): Promise<ServerNotification[]> {
  return (await call(base, token, 'GET', '/notifications')).json
}

const byKey = (list: ServerNotification[], key: string) => list.find((n) => n.message.includes(`<strong>${key}</strong>`))

/** Read-only look into the server's SQLite file (WAL mode allows it while the server runs). */
function idempotencyRows(srv: RunningServer, keys: string[]): number {
  const db = new Database(join(srv.dir, 'app.db'), { readonly: true, fileMustExist: true })
  try {
    return (db.prepare(`SELECT count(*) AS n FROM idempotency_keys WHERE key IN (${keys.map(() => '?').join(',')})`).get(...keys) as { n: number }).n
  } finally {
    db.close()
  }
}

// ---------- The browser ----------

async function newContext(base = server.url, viewport = { width: 1280, height: 900 }) {
  return browser.newContext({ baseURL: base, viewport, locale: 'en-GB', extraHTTPHeaders: clientIp() })
}

/** Runs a journey in a fresh context; on failure it saves a screenshot of every open page. */
async function journey(name: string, fn: (context: BrowserContext, page: Page) => Promise<void>, base = server.url) {
  const context = await newContext(base)
  const page = await context.newPage()
  try {
    await fn(context, page)
  } catch (err) {
    for (const [i, p] of context.pages().entries()) await snap(p, `FAILED-offline-${name}-${i}`).catch(() => undefined)
    throw err
  } finally {
    await context.close()
  }
}

async function signIn(page: Page, email: string) {
  await page.goto('/login')
  await page.getByLabel('Email', { exact: true }).fill(email)
  await page.getByLabel('Password', { exact: true }).fill(DEMO_PASSWORD)
  await page.getByRole('button', { name: 'Sign in', exact: true }).click()
  await page.locator('nav.sidebar-nav').waitFor()
}

/** Opens the notifications screen through the sidebar and waits for `count` of them. */
async function openNotifications(page: Page, count: number) {
  await page
    .locator('nav.sidebar-nav')
    .getByRole('link', { name: /^Notifications/ })
    .click()
  await expect.poll(() => page.locator('li.notification').count()).toBe(count)
}

const item = (page: Page, key: string) => page.locator('li.notification', { hasText: key })
const markRead = (page: Page, key: string) => item(page, key).getByRole('button', { name: 'Mark as read' }).click()
const remove = (page: Page, key: string) =>
  item(page, key)
    .getByRole('button', { name: /^Delete notification/ })
    .click()
const indicator = (page: Page) => page.locator('.sync-indicator:visible')

/** The service worker has installed and precached the shell. */
const serviceWorkerReady = (page: Page) => page.evaluate(async () => void (await navigator.serviceWorker.ready))

/**
 * The browser's connection to /api, switched off and on by a flag rather than by adding and
 * removing routes (a request caught between `unroute` and its handler may hang). `hold` keeps
 * writes to notifications in flight until it resolves.
 */
interface ApiSwitch {
  offline: boolean
  hold: Promise<void> | null
}

async function cutApi(target: Page | BrowserContext): Promise<ApiSwitch> {
  const api: ApiSwitch = { offline: true, hold: null }
  await target.route('**/api/**', async (route) => {
    if (api.offline) return route.abort('internetdisconnected')
    // Held: a change to a notification, alone or inside a batch of queued changes.
    const url = route.request().url()
    if (api.hold && route.request().method() !== 'GET' && (url.includes('/api/notifications') || url.includes('/api/sync/batch'))) await api.hold
    return route.fallback()
  })
  return api
}

/** The connection comes back, and the browser says so (`online`): the engine sends at once. */
async function restoreApi(api: ApiSwitch, ...pages: Page[]) {
  api.offline = false
  await Promise.all(pages.map((p) => p.evaluate(() => dispatchEvent(new Event('online')))))
}

const userIdOf = (page: Page): Promise<string> => page.evaluate(() => JSON.parse(localStorage.getItem('boligkasse.session')!).user.id)
const tokenOf = (page: Page): Promise<string> => page.evaluate(() => JSON.parse(localStorage.getItem('boligkasse.session')!).token)

interface QueuedRow {
  mutationId: string
  path: string
  status: string
}

/** The user's outbox, read straight from IndexedDB (null when the database does not exist). */
function outbox(page: Page, userId: string): Promise<QueuedRow[] | null> {
  return page.evaluate(async (name) => {
    if (!(await indexedDB.databases()).some((d) => d.name === name)) return null
    return new Promise<QueuedRow[]>((resolve, reject) => {
      const open = indexedDB.open(name)
      open.onerror = () => reject(open.error)
      open.onsuccess = () => {
        const db = open.result
        const all = db.transaction('outbox').objectStore('outbox').getAll()
        all.onsuccess = () => {
          db.close()
          resolve(all.result as QueuedRow[])
        }
        all.onerror = () => reject(all.error)
      }
    })
  }, `boligkasse-${userId}`)
}

const queued = async (page: Page, userId: string) => (await outbox(page, userId))?.length ?? -1

/** Screenshots at phone and desktop width, for a person to look at. */
async function snapBoth(page: Page, name: string) {
  const size = page.viewportSize()!
  await snap(page, `${name}-1280`)
  await page.setViewportSize({ width: 375, height: 812 })
  await snap(page, `${name}-375`)
  await page.setViewportSize(size)
}

describe('offline journeys', () => {
  it('(1) shows the shell and the notifications after a reload with the server gone', () =>
    journey('reload', async (_context, page) => {
      const email = 'beboer03@solgaarden.dk'
      await notify(server.url, await apiLogin(server.url, email), 'Key 1', 'Key 2')
      await signIn(page, email)
      await openNotifications(page, 3)
      await expect.poll(() => indicator(page).getAttribute('data-state')).toBe('synced')
      await snapBoth(page, 'notifications-list')
      await serviceWorkerReady(page)

      await server.stop()
      try {
        await page.reload()
        await page.locator('nav.sidebar-nav').waitFor()
        await expect.poll(() => page.locator('li.notification').count()).toBe(3)
        await expect.poll(() => item(page, 'Key 2').locator('.notification-message strong').innerText()).toBe('Key 2')
        await expect.poll(() => indicator(page).getAttribute('data-state')).toBe('offline')
        expect(await page.locator('nav.sidebar-nav .nav-badge').innerText()).toContain('3')
      } finally {
        await server.start()
      }
    }))

  it('(2) keeps changes made offline across a browser restart and sends exactly those', async () => {
    const email = 'beboer06@solgaarden.dk'
    const token = await apiLogin(server.url, email)
    await notify(server.url, token, 'Key B', 'Key C')
    const profile = mkdtempSync(join(tmpdir(), 'boligkasse-profile-'))
    const headers = clientIp()
    let context = await launchProfile(profile, server.url, { headers })
    let page = context.pages()[0] ?? (await context.newPage())
    try {
      await signIn(page, email)
      await openNotifications(page, 3)
      const userId = await userIdOf(page)
      await serviceWorkerReady(page)

      await server.stop()
      try {
        await markRead(page, 'Key B')
        await remove(page, 'Key C')
        await page.getByRole('status').filter({ hasText: 'Notification deleted' }).waitFor()
        await expect.poll(() => page.locator('li.notification').count()).toBe(2)
        await item(page, 'Key B').getByText('Not yet synced').waitFor()
        await expect.poll(() => indicator(page).innerText()).toMatch(/Offline\s+2 changes waiting/)
        await snapBoth(page, 'sync-offline-pending')

        // Browser restart, still offline: everything comes back from the profile.
        await context.close()
        context = await launchProfile(profile, server.url, { headers })
        page = context.pages()[0] ?? (await context.newPage())
        await page.goto('/notifications')
        await expect.poll(() => page.locator('li.notification').count()).toBe(2)
        await item(page, 'Key B').getByText('Not yet synced').waitFor()
        expect(await queued(page, userId)).toBe(2)
      } finally {
        await server.start()
      }

      await page.evaluate(() => dispatchEvent(new Event('online')))
      await expect.poll(() => queued(page, userId), { timeout: 10_000 }).toBe(0)
      const after = await serverNotifications(server.url, token)
      expect(after).toHaveLength(2)
      expect(byKey(after, 'Key B')).toMatchObject({ isRead: true })
      expect(byKey(after, 'Key C')).toBeUndefined()
      expect(after.find((n) => n.title === 'Welcome to Boligkasse')).toMatchObject({ isRead: false })
      await expect.poll(() => item(page, 'Key B').getByText('Not yet synced').count()).toBe(0)
    } catch (err) {
      await snap(page, 'FAILED-offline-restart').catch(() => undefined)
      throw err
    } finally {
      await context.close()
      rmSync(profile, { recursive: true, force: true })
    }
  })

  it('(3) applies a change once when the answer is lost after the server applied it', () =>
    journey('lost-answer', async (_context, page) => {
      const email = 'beboer09@solgaarden.dk'
      const token = await apiLogin(server.url, email)
      await notify(server.url, token, 'Key L')
      await signIn(page, email)
      await openNotifications(page, 2)
      const userId = await userIdOf(page)

      const sends: Array<{ key: string; status: number; replayed?: string; dropped?: boolean }> = []
      await page.route('**/api/notifications/*/read', async (route) => {
        const key = route.request().headers()['idempotency-key']!
        const response = await route.fetch()
        if (sends.length === 0) {
          // The server has applied it; the answer never reaches the browser.
          sends.push({ key, status: response.status(), dropped: true })
          return route.abort('connectionreset')
        }
        sends.push({ key, status: response.status(), replayed: response.headers()['idempotent-replayed'] })
        return route.fulfill({ response })
      })
      await markRead(page, 'Key L')
      await expect.poll(() => queued(page, userId), { timeout: 10_000 }).toBe(0)

      expect(sends).toHaveLength(2)
      expect(sends[1]!.key).toBe(sends[0]!.key)
      expect(sends[1]).toMatchObject({ status: 200, replayed: 'true' })
      expect(byKey(await serverNotifications(server.url, token), 'Key L')).toMatchObject({ isRead: true, version: 2 })
      expect(idempotencyRows(server, [sends[0]!.key])).toBe(1)
    }))

  it('(4) two tabs draining at once send each change once', () =>
    journey('two-tabs', async (context, a) => {
      const email = 'beboer12@solgaarden.dk'
      const token = await apiLogin(server.url, email)
      await notify(server.url, token, 'Key P', 'Key Q', 'Key R')
      await signIn(a, email)
      await openNotifications(a, 4)
      const userId = await userIdOf(a)
      const b = await context.newPage()
      await b.goto('/notifications')
      await expect.poll(() => b.locator('li.notification').count()).toBe(4)

      const api = await cutApi(context)
      await markRead(a, 'Key P')
      await remove(a, 'Key Q')
      await expect.poll(() => b.locator('li.notification').count()).toBe(3)
      await markRead(b, 'Key R')
      await expect.poll(() => queued(a, userId)).toBe(3)

      const sent: Array<{ tab: string; key: string }> = []
      for (const [tab, page] of [
        ['a', a],
        ['b', b],
      ] as const) {
        page.on('request', (r) => {
          if (r.method() !== 'GET' && r.url().includes('/api/notifications')) sent.push({ tab, key: r.headers()['idempotency-key']! })
          // Changes of different rows travel together in one batch, each with its own key.
          if (r.method() === 'POST' && r.url().endsWith('/api/sync/batch'))
            for (const i of (r.postDataJSON() as { items: Array<{ headers: Record<string, string> }> }).items)
              sent.push({ tab, key: i.headers['Idempotency-Key']! })
        })
      }
      await restoreApi(api, a, b)
      await expect.poll(() => queued(a, userId), { timeout: 10_000 }).toBe(0)

      const keys = sent.map((s) => s.key)
      expect(keys).toHaveLength(3)
      expect(new Set(keys).size).toBe(3)
      expect(idempotencyRows(server, keys)).toBe(3)
      const after = await serverNotifications(server.url, token)
      expect(after.map((n) => [n.message.match(/Key \w/)?.[0] ?? n.title, n.isRead]).sort()).toEqual([
        ['Key P', true],
        ['Key R', true],
        ['Welcome to Boligkasse', false],
      ])
    }))

  it('(5) a change refused in the middle of the queue is shown, and the rest still syncs', () =>
    journey('rejected', async (_context, page) => {
      const email = 'beboer15@solgaarden.dk'
      const token = await apiLogin(server.url, email)
      await notify(server.url, token, 'Key X', 'Key Y', 'Key Z')
      await signIn(page, email)
      await openNotifications(page, 4)
      const userId = await userIdOf(page)

      const api = await cutApi(page)
      // The server refuses marking Key Y read. (A notification deleted elsewhere no longer counts:
      // its goal holds — see sync-honest.e2e.ts.)
      const y = byKey(await serverNotifications(server.url, token), 'Key Y')!
      const refused = { code: 'BUSINESS_RULE', message: 'This notification cannot be marked as read.' }
      await page.route(`**/api/notifications/${y.id}/read`, (route) =>
        route.fulfill({ status: 422, contentType: 'application/json', body: JSON.stringify(refused) }),
      )
      // In a batch (docs/API.md "Batch") the server gets the other changes and Key Y's answer is the refusal.
      await page.route('**/api/sync/batch', async (route) => {
        const yPath = `/api/notifications/${y.id}/read`
        const { items } = route.request().postDataJSON() as { items: Array<{ path: string }> }
        const others = items.filter((i) => i.path !== yPath)
        const answers: unknown[] =
          others.length > 0 ? ((await (await route.fetch({ postData: JSON.stringify({ items: others }) })).json()) as { answers: unknown[] }).answers : []
        await route.fulfill({ json: { answers: items.map((i) => (i.path === yPath ? { status: 422, headers: {}, body: refused } : answers.shift())) } })
      })
      await markRead(page, 'Key X')
      await markRead(page, 'Key Y')
      await remove(page, 'Key Z')
      await expect.poll(() => queued(page, userId)).toBe(3)

      await restoreApi(api, page)
      await page.getByRole('alert').filter({ hasText: 'Failed to mark notification as read' }).waitFor()
      await expect.poll(async () => (await outbox(page, userId))?.map((m) => [m.path, m.status])).toEqual([[`/notifications/${y.id}/read`, 'rejected']])
      // Key Y is still there (refused, not deleted): its problem shows on it.
      const problem = item(page, 'Key Y').locator('.change-problem')
      await expect.poll(() => problem.innerText()).toMatch(/Mark notification as read[\s\S]*The server refused this change: \S+/)
      await expect.poll(() => indicator(page).innerText()).toContain('1 rejected')

      const after = await serverNotifications(server.url, token)
      expect(byKey(after, 'Key X')).toMatchObject({ isRead: true })
      expect(byKey(after, 'Key Y')).toMatchObject({ isRead: false })
      expect(byKey(after, 'Key Z')).toBeUndefined()
      expect(after.find((n) => n.title === 'Welcome to Boligkasse')).toMatchObject({ isRead: false })
      expect(after).toHaveLength(3)

      await snapBoth(page, 'notifications-rejected')
      await indicator(page).click()
      const panel = page.getByRole('dialog', { name: 'Sync status' })
      await panel.getByText('1 change was not saved').waitFor()
      await snapBoth(page, 'sync-panel-rejected')
      await panel.getByRole('button', { name: 'Discard' }).click()
      await panel.getByText('All your changes are saved on the server.').waitFor()
      expect(await queued(page, userId)).toBe(0)
      await panel.getByRole('button', { name: 'Close' }).click()
      await expect.poll(() => problem.count()).toBe(0)
    }))

  it('(6) a session that expires offline keeps the queue, which syncs after signing in again', () =>
    journey('expired', async (_context, page) => {
      const email = 'admin@solgaarden.dk'
      const token = await apiLogin(server.url, email)
      await notify(server.url, token, 'Key S', 'Key T')
      await signIn(page, email)
      await openNotifications(page, 3)
      const userId = await userIdOf(page)

      const api = await cutApi(page)
      await markRead(page, 'Key S')
      await remove(page, 'Key T')
      await expect.poll(() => queued(page, userId)).toBe(2)
      // The session ends on the server while the app is offline (signed out elsewhere, expired).
      expect((await call(server.url, await tokenOf(page), 'POST', '/auth/logout')).status).toBe(204)

      await restoreApi(api, page)
      await page.waitForURL(/\/login\?reason=expired/)
      await page.getByText('Your session has expired.').waitFor()
      const kept = await outbox(page, userId)
      expect(kept?.map((m) => m.status)).toEqual(['queued', 'queued'])

      await signIn(page, email)
      await expect.poll(() => queued(page, userId), { timeout: 10_000 }).toBe(0)
      const after = await serverNotifications(server.url, token)
      expect(byKey(after, 'Key S')).toMatchObject({ isRead: true })
      expect(byKey(after, 'Key T')).toBeUndefined()
    }))

  it('(7) a new deployment while changes wait: the prompt shows, the reload waits for the send, nothing is lost', async () => {
    // A copy of the build that the test can "deploy" over, served by a second server.
    const deployed = mkdtempSync(join(tmpdir(), 'boligkasse-deploy-'))
    cpSync(resolve(import.meta.dirname, '../dist/client'), deployed, { recursive: true })
    const second = await startServer({ TRUST_PROXY: '1', CLIENT_DIR: deployed })
    try {
      await journey(
        'deploy',
        async (_context, page) => {
          const email = 'beboer03@solgaarden.dk'
          const token = await apiLogin(second.url, email)
          await notify(second.url, token, 'Key U', 'Key V')
          await signIn(page, email)
          await openNotifications(page, 3)
          const userId = await userIdOf(page)
          await serviceWorkerReady(page)
          // The app opened again: now the service worker controls the page, as it does every
          // start of the installed app after the first.
          await page.reload()
          await expect.poll(() => page.locator('li.notification').count()).toBe(3)
          expect(await page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true)

          const api = await cutApi(page)
          await markRead(page, 'Key U')
          await remove(page, 'Key V')
          await expect.poll(() => queued(page, userId)).toBe(2)

          appendFileSync(join(deployed, 'sw.js'), '\n// next build\n')
          await page.evaluate(async () => void (await (await navigator.serviceWorker.getRegistration())!.update()))
          await page.getByText('A new version is available').waitFor({ timeout: 10_000 })
          expect(await queued(page, userId)).toBe(2)

          // The connection returns, and the first change is held in flight.
          let release!: () => void
          api.hold = new Promise<void>((r) => (release = r))
          await restoreApi(api, page)
          await expect.poll(async () => (await outbox(page, userId))?.some((m) => m.status === 'sending')).toBe(true)

          await page.evaluate(() => ((window as unknown as { beforeUpdate: boolean }).beforeUpdate = true))
          // Every load of the page from here, and whether the held change had been let through by then.
          let released = false
          const loads: string[] = []
          page.on('load', () => loads.push(released ? 'after the send' : 'before the send'))
          await page.getByRole('button', { name: 'Reload' }).click()
          await page.getByText('Sending your changes before the update…').waitFor()
          // The change is still in flight, and the page is the same one: the reload waits for the send.
          expect((await outbox(page, userId))?.some((m) => m.status === 'sending')).toBe(true)
          expect(await page.evaluate(() => (window as unknown as { beforeUpdate?: boolean }).beforeUpdate)).toBe(true)

          const reloaded = page.waitForEvent('load')
          released = true
          release()
          await reloaded
          expect(loads).toEqual(['after the send'])
          await page.locator('nav.sidebar-nav').waitFor()
          expect(await page.evaluate(() => (window as unknown as { beforeUpdate?: boolean }).beforeUpdate)).toBeUndefined()
          await expect.poll(() => queued(page, userId), { timeout: 10_000 }).toBe(0)
          expect(await page.getByText('A new version is available').count()).toBe(0)
          // The new worker took over: nothing is waiting any more.
          expect(await page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.waiting ?? null)).toBeNull()
          const after = await serverNotifications(second.url, token)
          expect(byKey(after, 'Key U')).toMatchObject({ isRead: true })
          expect(byKey(after, 'Key V')).toBeUndefined()
        },
        second.url,
      )
    } finally {
      await second.stop()
      rmSync(deployed, { recursive: true, force: true })
    }
  })

  it('(9) signing out with unsynced changes asks first, then deletes the local copy', () =>
    journey('sign-out', async (_context, page) => {
      const email = 'superadmin@boligkasse.dk'
      const token = await apiLogin(server.url, email)
      await signIn(page, email)
      await openNotifications(page, 1)
      const userId = await userIdOf(page)

      await cutApi(page)
      await markRead(page, 'Welcome to Boligkasse')
      await expect.poll(() => queued(page, userId)).toBe(1)
      const signOut = page.locator('.sidebar-footer').getByRole('button', { name: 'Sign out' })
      await signOut.click()
      const dialog = page.getByRole('dialog', { name: 'Sign out?' })
      await dialog.getByText('You have 1 change that is not synced yet. Signing out discards it.').waitFor()
      await dialog.getByRole('button', { name: 'Cancel' }).click()
      expect(await queued(page, userId)).toBe(1)

      await signOut.click()
      await dialog.getByRole('button', { name: 'Sign out and discard' }).click()
      await page.getByRole('link', { name: 'Sign in' }).first().waitFor()
      expect(await outbox(page, userId)).toBeNull()
      expect((await serverNotifications(server.url, token))[0]).toMatchObject({ isRead: false })
    }))

  it('(8) is installable: Chromium reports no installability errors', async () => {
    // A normal profile: Chromium never offers to install from an incognito-like context.
    const profile = mkdtempSync(join(tmpdir(), 'boligkasse-profile-'))
    const context = await launchProfile(profile, server.url, { headers: clientIp() })
    try {
      const page = context.pages()[0] ?? (await context.newPage())
      await page.goto('/')
      await serviceWorkerReady(page)
      const cdp = await context.newCDPSession(page)
      const { installabilityErrors } = await cdp.send('Page.getInstallabilityErrors')
      expect(installabilityErrors).toEqual([])
      const manifest = await cdp.send('Page.getAppManifest')
      expect(manifest.errors).toEqual([])
    } finally {
      await context.close()
      rmSync(profile, { recursive: true, force: true })
    }
  })
})
