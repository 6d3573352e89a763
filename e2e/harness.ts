/**
 * End-to-end harness: runs the real server (built client, SQLite file, .eml mail folder) on a free
 * port in a temporary folder, and Debian's Chromium through playwright-core.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { simpleParser } from 'mailparser'
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core'
import { freePort } from '../server/test/processes'

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]
export const DEMO_PASSWORD = 'Gaardlaug-2025'

const root = resolve(import.meta.dirname, '..')

export interface RunningServer {
  url: string
  dir: string
  mailDir: string
  output: () => string
  stop(): Promise<void>
  start(): Promise<void>
}

/** Starts `server/main.ts` like `npm start` does (without rebuilding), on its own data folder. */
export async function startServer(env: Record<string, string> = {}): Promise<RunningServer> {
  const dir = mkdtempSync(join(tmpdir(), 'boligkasse-e2e-'))
  const port = await freePort()
  const url = `http://127.0.0.1:${port}`
  const mailDir = join(dir, 'mail')
  let child: ChildProcess | undefined
  let out = ''

  async function start() {
    child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
      cwd: root,
      env: {
        ...process.env,
        PORT: String(port),
        PUBLIC_URL: url,
        DATABASE_PATH: join(dir, 'app.db'),
        MAIL_OUTBOX_DIR: mailDir,
        APP_ENV: 'development',
        DEMO_DATA: '1',
        // Journeys write the charge history they check; e2e/demo-history.e2e.ts turns the demo's own on (decision 0070).
        DEMO_HISTORY: '0',
        LOG_LEVEL: 'warn',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    child.stdout!.on('data', (d) => (out += d))
    child.stderr!.on('data', (d) => (out += d))
    const deadline = Date.now() + 60_000
    while (Date.now() < deadline) {
      if (child.exitCode !== null) throw new Error(`server exited early:\n${out}`)
      try {
        if ((await fetch(`${url}/api/health`)).ok) return
      } catch {
        // not listening yet
      }
      await new Promise((r) => setTimeout(r, 200))
    }
    throw new Error(`server did not start:\n${out}`)
  }

  async function stop() {
    if (!child || child.exitCode !== null) return
    const exited = new Promise((r) => child!.once('exit', r))
    child.kill('SIGTERM')
    await exited
  }

  await start()
  return { url, dir, mailDir, output: () => out, stop, start }
}

const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath, args: CHROMIUM_ARGS })
}

/**
 * A browser with a profile folder that outlives it: closing and launching it again with the same
 * folder is a browser restart (IndexedDB, localStorage and the service worker are kept).
 */
export async function launchProfile(
  userDataDir: string,
  baseURL: string,
  options: { viewport?: { width: number; height: number }; headers?: Record<string, string> } = {},
) {
  return chromium.launchPersistentContext(userDataDir, {
    executablePath,
    args: CHROMIUM_ARGS,
    baseURL,
    locale: 'en-GB',
    viewport: options.viewport ?? { width: 1280, height: 900 },
    extraHTTPHeaders: options.headers,
  })
}

export async function newPage(browser: Browser, baseURL: string, viewport = { width: 1280, height: 900 }): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL, viewport, locale: 'en-GB' })
  const page = await context.newPage()
  return { context, page }
}

/** The newest e-mail to an address in the .eml folder, parsed, waiting up to 10 s for it. */
export async function latestMailTo(mailDir: string, to: string, after = 0) {
  const deadline = Date.now() + 10_000
  while (Date.now() < deadline) {
    let files: string[] = []
    try {
      files = readdirSync(mailDir).filter((f) => f.endsWith('.eml'))
    } catch {
      // folder not made yet
    }
    const candidates = files
      .map((f) => ({ f, t: statSync(join(mailDir, f)).mtimeMs }))
      .filter((x) => x.t >= after)
      .sort((a, b) => b.t - a.t)
    for (const { f } of candidates) {
      const mail = await simpleParser(readFileSync(join(mailDir, f)))
      const recipients = [mail.to]
        .flat()
        .flatMap((a) => a?.value ?? [])
        .map((v) => v.address)
      if (recipients.includes(to)) return mail
    }
    await new Promise((r) => setTimeout(r, 200))
  }
  throw new Error(`no mail to ${to} in ${mailDir}`)
}

/** Saves a screenshot under test-results/ for a person to look at. */
export async function snap(page: Page, name: string) {
  await page.screenshot({ path: join(root, 'test-results', `${name}.png`), fullPage: true })
}

/** Runs a journey in a fresh browser context; on failure it saves a screenshot first. */
export async function withPage<T>(
  browser: Browser,
  baseURL: string,
  name: string,
  fn: (page: Page) => Promise<T>,
  viewport?: { width: number; height: number },
): Promise<T> {
  const { context, page } = await newPage(browser, baseURL, viewport)
  try {
    return await fn(page)
  } catch (err) {
    await snap(page, `FAILED-${name.replace(/\W+/g, '-')}`).catch(() => undefined)
    throw err
  } finally {
    await context.close()
  }
}

/** The Danish text of an English catalog id, read from the client's da.po. */
export function danish(english: string): string {
  const po = readFileSync(join(root, 'client/locales/da.po'), 'utf8')
  const esc = english.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/"/g, '\\\\"')
  const m = new RegExp(`msgid "${esc}"\\nmsgstr "((?:[^"\\\\]|\\\\.)*)"`).exec(po)
  return m?.[1] || english
}
