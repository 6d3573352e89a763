/**
 * Issue #7 journeys: an administrator creates an agreement for a resident; a resident accepts one
 * and approves it on the (built-in) Vipps MobilePay page; a board member at a meeting without a
 * connection edits one agreement and terminates another, closes the browser, and later the server
 * holds exactly those changes.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { DEMO_PASSWORD, danish, launchBrowser, launchProfile, snap, startServer, type RunningServer } from './harness'

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
const clientIp = () => ({ 'X-Forwarded-For': `10.7.0.${++lastIp}` })

/** Runs a journey in a fresh context; on failure it saves a screenshot of every open page. */
async function journey(name: string, fn: (context: BrowserContext, page: Page) => Promise<void>) {
  const context = await browser.newContext({ baseURL: server.url, viewport: { width: 1280, height: 900 }, locale: 'en-GB', extraHTTPHeaders: clientIp() })
  const page = await context.newPage()
  try {
    await fn(context, page)
  } catch (err) {
    for (const [i, p] of context.pages().entries()) await snap(p, `FAILED-agreements-${name}-${i}`).catch(() => undefined)
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

/** Screenshots at desktop and phone width, for a person to look at. */
async function snapBoth(page: Page, name: string) {
  const size = page.viewportSize()!
  await snap(page, `${name}-1280`)
  await page.setViewportSize({ width: 375, height: 812 })
  await snap(page, `${name}-375`)
  await page.setViewportSize(size)
}

/** Read-only look into the server's SQLite file (WAL mode allows it while the server runs). */
function serverRows<T>(sql: string, ...params: unknown[]): T[] {
  const db = new Database(join(server.dir, 'app.db'), { readonly: true, fileMustExist: true })
  try {
    return db.prepare(sql).all(...params) as T[]
  } finally {
    db.close()
  }
}

const agreementOf = (email: string) =>
  serverRows<{ id: string; status: string; external_seq: number; version: number; termination_date: string | null; price_ore: number }>(
    'SELECT a.* FROM agreements a JOIN users u ON u.id = a.member_user_id WHERE u.email_address = ? ORDER BY a.created_at',
    email,
  )

describe('agreement journeys', () => {
  it('(2) a resident accepts a new agreement, approves it in Vipps MobilePay and sees it accepted', () =>
    journey('accept', async (_context, page) => {
      // Lars Pedersen uses the app in Danish.
      const email = 'beboer02@solgaarden.dk'
      const [agreement] = agreementOf(email)
      expect(agreement?.status).toBe('CREATED')
      await signIn(page, email)
      await page.locator('nav.sidebar-nav').getByRole('link', { name: danish('Agreements') }).click()
      await page.getByRole('link', { name: 'Lars Pedersen' }).click()
      await page.getByRole('heading', { level: 1, name: `${danish('Agreement')} ${agreement!.external_seq}` }).waitFor()
      await snapBoth(page, 'agreement-view-member')

      await page.getByRole('button', { name: danish('Accept'), exact: true }).click()
      await page.waitForURL(/vipps-emulator/)
      await page.getByLabel(/Mobile number|Mobilnummer/).fill('4531000002')
      await page.getByRole('button', { name: /^(Approve|Godkend)$/ }).click()
      await page.waitForURL(new RegExp(`/agreements/${agreement!.id}`))
      await page.getByText(danish('The agreement is accepted. The payments are collected through Vipps MobilePay.')).waitFor({ timeout: 30_000 })
      expect(agreementOf(email)[0]?.status).toBe('ACCEPTED')
      await snapBoth(page, 'agreement-accepted')
    }), 90_000)
})
