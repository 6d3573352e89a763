/**
 * What the browser journeys of a feature share: one server and one browser per file, a fresh
 * browser context per journey (from its own client IP, so the sign-in rate limit never gets in the
 * way; the server trusts X-Forwarded-For here), screenshots of every open page when one fails, and
 * a read-only look into the server's SQLite file (WAL mode allows it while the server runs).
 */
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { afterAll, beforeAll, expect } from 'vitest'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { sqliteHandle, transaction } from '../server/db/client'
import { historyWriter, type HistoryWriter } from '../server/features/billing/charge-history'
import { seriousViolations } from './axe'
import { danish, DEMO_PASSWORD, launchBrowser, snap, startServer, type RunningServer } from './harness'

export function journeySuite(name: string, subnet: number, env: Record<string, string> = {}) {
  const suite = {} as { server: RunningServer; browser: Browser }
  let lastIp = 0

  beforeAll(async () => {
    suite.server = await startServer({ TRUST_PROXY: '1', ...env })
    suite.browser = await launchBrowser()
  })
  afterAll(async () => {
    await suite.browser?.close()
    await suite.server?.stop()
  })

  const clientIp = () => ({ 'X-Forwarded-For': `10.${subnet}.0.${++lastIp}` })

  /** Runs a journey in a fresh context; on failure it saves a screenshot of every open page. */
  async function journey(title: string, fn: (context: BrowserContext, page: Page) => Promise<void>) {
    const context = await suite.browser.newContext({
      baseURL: suite.server.url,
      viewport: { width: 1280, height: 900 },
      locale: 'en-GB',
      extraHTTPHeaders: clientIp(),
    })
    const page = await context.newPage()
    try {
      await fn(context, page)
    } catch (err) {
      await snapAll(context, `${name}-${title}`)
      throw err
    } finally {
      await context.close()
    }
  }

  function serverRows<T>(sql: string, ...params: unknown[]): T[] {
    const db = new Database(join(suite.server.dir, 'app.db'), { readonly: true, fileMustExist: true })
    try {
      return db.prepare(sql).all(...params) as T[]
    } finally {
      db.close()
    }
  }

  /** Writes to the server's SQLite file while it runs (test data the UI cannot make). */
  function writeDb<T>(fn: (db: Database.Database) => T): T {
    const db = new Database(join(suite.server.dir, 'app.db'))
    db.pragma('busy_timeout = 10000')
    try {
      return fn(db)
    } finally {
      db.close()
    }
  }

  /**
   * Writes a billing history to the server's SQLite file while it runs, in one transaction
   * (server/features/billing/charge-history.ts); `db` reads what the history needs.
   */
  async function writeHistory<T>(fn: (w: HistoryWriter, db: Database.Database) => Promise<T>): Promise<T> {
    const db = new Database(join(suite.server.dir, 'app.db'))
    db.pragma('busy_timeout = 10000')
    try {
      const handle = sqliteHandle(db)
      return await transaction(handle, () => fn(historyWriter(handle, new Date().toISOString()), db))
    } finally {
      db.close()
    }
  }

  /** Calls the API outside the browser (from this suite's client IPs); throws on a non-2xx answer. */
  async function api<T>(token: string | null, method: string, path: string, body?: unknown): Promise<T> {
    const res = await fetch(`${suite.server.url}/api${path}`, {
      method,
      headers: { ...clientIp(), 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    const text = await res.text()
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`)
    return (text ? JSON.parse(text) : undefined) as T
  }

  /** A bearer token of the demo user with this e-mail, signed in through the API (to make a test's own state). */
  async function tokenOf(email: string): Promise<string> {
    return (await api<{ accessToken: string }>(null, 'POST', '/auth/login', { type: 'email', email, password: DEMO_PASSWORD })).accessToken
  }

  /** Drives the built-in Vipps emulator's control API (its clock, failures to inject); expects a 200. */
  async function emulator(path: string, body: unknown = {}) {
    const res = await fetch(`${suite.server.url}/vipps-emulator/_control/${path}`, {
      method: 'POST',
      headers: { ...clientIp(), 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    })
    expect(res.status, await res.clone().text()).toBe(200)
  }

  /** A catalog text in the language of the user with this e-mail (as the server has it). */
  function tr(email: string) {
    const lang = serverRows<{ language: string }>('SELECT language FROM users WHERE email_address = ?', email)[0]!.language
    return (english: string) => (lang === 'DA' ? danish(english) : english)
  }

  /**
   * Makes a user a resident of the other demo association (Havnehuset): a copy of an accepted
   * agreement of the demo association, theirs, there (`seq` keeps the external ids apart).
   */
  function residentOfHavnehuset(email: string, seq: number) {
    writeDb((db) => {
      const second = db.prepare<[], { id: string }>("SELECT id FROM companies WHERE cvr <> '10150817' ORDER BY name LIMIT 1").get()!.id
      const user = db.prepare<[string], { id: string }>('SELECT id FROM users WHERE email_address = ?').get(email)!.id
      const row = db.prepare<[], Record<string, unknown>>("SELECT * FROM agreements WHERE status = 'ACCEPTED' LIMIT 1").get()!
      const copy: Record<string, unknown> = {
        ...row,
        id: crypto.randomUUID(),
        company_id: second,
        member_user_id: user,
        external_seq: seq,
        external_id: `HH-${seq}`,
        vipps_agreement_id: null,
      }
      const columns = Object.keys(copy).filter((c) => c in row)
      db.prepare(`INSERT INTO agreements (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`).run(...columns.map((c) => copy[c] as never))
    })
  }

  return { suite, clientIp, journey, serverRows, writeDb, writeHistory, api, tokenOf, emulator, tr, residentOfHavnehuset }
}

/** A screenshot at desktop and phone width (`name-1280`, `name-375`); at 375 px no sideways scroll and no serious axe violation. */
export async function checkScreen(page: Page, name: string) {
  const size = page.viewportSize()!
  await snap(page, `${name}-1280`)
  await page.setViewportSize({ width: 375, height: 812 })
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth)).toBe(true)
  expect(await seriousViolations(page)).toEqual([])
  await snap(page, `${name}-375`)
  await page.setViewportSize(size)
}

/** A screenshot of every page of a context that is about to fail its journey. */
export async function snapAll(context: BrowserContext, name: string) {
  for (const [i, p] of context.pages().entries()) await snap(p, `FAILED-${name}-${i}`).catch(() => undefined)
}

export async function signIn(page: Page, email: string, password = DEMO_PASSWORD) {
  await page.goto('/login')
  await page.getByLabel('Email', { exact: true }).fill(email)
  await page.getByLabel('Password', { exact: true }).fill(password)
  await page.getByRole('button', { name: 'Sign in', exact: true }).click()
  await page.locator('nav.sidebar-nav').waitFor()
}

/** Screenshots at desktop and phone width, for a person to look at. */
/** Opens a screen from the sidebar by its link's name and waits for the screen's heading of the same name. */
export async function openFromSidebar(page: Page, name: string) {
  await page.locator('nav.sidebar-nav').getByRole('link', { name }).click()
  await page.getByRole('heading', { level: 1, name }).waitFor()
}

export async function snapBoth(page: Page, name: string) {
  const size = page.viewportSize()!
  await snap(page, `${name}-1280`)
  await page.setViewportSize({ width: 375, height: 812 })
  await snap(page, `${name}-375`)
  await page.setViewportSize(size)
}

/**
 * The accountant (in Danish) finds a member's failed invoice under Restancer, one row per accepted
 * agreement, and marks it paid outside Vipps MobilePay with a note; the row leaves the overview,
 * which stays open. `snapshot` names the overview's screenshots.
 */
export async function markPaidOutsideAsAccountant(
  page: Page,
  o: { member: string; invoiceNumber: number; acceptedAgreements: number; note: string; snapshot: string },
) {
  await signIn(page, 'kasserer@solgaarden.dk')
  await openFromSidebar(page, danish('Debtors'))
  const row = page.getByRole('row', { name: new RegExp(o.member) })
  await row.waitFor({ timeout: 20_000 })
  expect(await row.innerText()).toContain(danish('Failed'))
  expect(await page.getByRole('row').count()).toBe(1 + o.acceptedAgreements)
  await snapBoth(page, o.snapshot)

  await row
    .getByRole('button', {
      name: new RegExp(
        `^${danish('Mark paid <0>invoice {number}</0>')
          .replace(/<\/?0>/g, '')
          .replace('{number}', String(o.invoiceNumber))}$`,
      ),
    })
    .click()
  const dialog = page.getByRole('dialog')
  await dialog.getByLabel(danish('How was it paid?')).fill(o.note)
  await dialog.getByRole('button', { name: danish('Mark as paid') }).click()
  await page.getByText(danish('Invoice {number} is marked as paid outside Vipps MobilePay.').replace('{number}', String(o.invoiceNumber))).waitFor()
  await row.waitFor({ state: 'detached' })
}

/**
 * The accountant (in Danish) refunds 100 kr. of a collected charge, all of it on its "Aconto varme"
 * line: one credit note, whose only line carries that line's own description, shown on its page;
 * then the quarter's statistics (on the emulator's clock). `snapshot` prefixes the screenshots.
 */
export async function refundOneLineAsAccountant(
  page: Page,
  rows: <T>(sql: string, ...params: unknown[]) => T[],
  o: { agreementId: string; chargeId: string; snapshot: string },
) {
  await signIn(page, 'kasserer@solgaarden.dk')
  await page.goto(`/charges/${o.agreementId}`)
  await page
    .getByRole('link', { name: new RegExp(`^${danish('Refund <0>{description}</0>').split(' ')[0]}`) })
    .first()
    .waitFor({ timeout: 20_000 })
  await snapBoth(page, `${o.snapshot}charges-da`)
  await page.goto(`/refunds/create?chargeId=${o.chargeId}&agreementId=${o.agreementId}`)
  await page.getByRole('checkbox', { name: /Aconto varme/ }).check()
  await page.getByLabel(danish('Amount (DKK)')).fill('100,00')
  await page.getByLabel(danish('Description'), { exact: true }).fill('Varmeregnskab 2026')
  await page.getByRole('button', { name: danish('Create refund') }).click()
  await page.getByText(danish('Refund created successfully!'), { exact: false }).waitFor({ timeout: 30_000 })

  const notes = rows<{ id: string; description: string }>("SELECT * FROM invoices WHERE charge_id = ? AND kind = 'CREDIT_NOTE'", o.chargeId)
  expect(notes).toHaveLength(1)
  const note = notes[0]!
  expect(note.description).toBe('Varmeregnskab 2026')
  const lines = rows<{ description: string; total_incl_vat_ore: number; type: string }>(
    'SELECT description, total_incl_vat_ore, type FROM invoice_lines WHERE invoice_id = ? ORDER BY position',
    note.id,
  )
  expect(lines).toEqual([{ description: 'Aconto varme', total_incl_vat_ore: 10_000, type: 'HEAT' }])

  await page.goto(`/invoices/${note.id}`)
  await page.getByRole('heading', { level: 1, name: new RegExp(danish('Credit note')) }).waitFor({ timeout: 20_000 })
  await page.getByRole('rowheader', { name: 'Aconto varme' }).waitFor()
  await snapBoth(page, `${o.snapshot}credit-note-da`)

  // The quarter on the emulator's clock (the page's own "current year" follows the browser's).
  await page.goto('/statistics')
  await page.getByLabel(danish('Start date')).fill('2026-11-01')
  await page.getByLabel(danish('End date')).fill('2027-03-31')
  await page.locator('#statistics').waitFor({ timeout: 20_000 })
  await snapBoth(page, `${o.snapshot}statistics-da`)
}

/** The signed-in user's bearer token, as the app keeps it, to call the API as that user. */
export async function bearerTokenOf(page: Page): Promise<string> {
  const token = await page.evaluate(() => {
    for (const store of [localStorage, sessionStorage])
      for (let i = 0; i < store.length; i++) {
        const value = store.getItem(store.key(i)!) ?? ''
        const m = /"(?:accessToken|token)"\s*:\s*"([^"]+)"/.exec(value)
        if (m) return m[1]
      }
    return null
  })
  expect(token).toBeTruthy()
  return token!
}

/** The indicator's state: 'synced' once nothing waits and the last pull finished. */
export const syncState = (page: Page) => page.locator('.sync-indicator:visible').getAttribute('data-state')
