/**
 * `npm run bench:statistics` (docs/BENCHMARKS.md; also part of `npm run bench`), figures printed
 * with their targets and a baseline measured in the same run on the same machine:
 *   1. GET /api/company/{id}/charges-statistics for one company with 200,000 executed charges over
 *      3 years (5,556 agreements and addresses, monthly, 3 part lines each): p50/p95 over 50
 *      requests of the current year, and of the heating-water period (target ≤ 150 ms); then the
 *      same company grown to 800,000 charges (22,224 agreements; target p95 ≤ 300 ms);
 *      baseline: GET /api/health over the same connection, and the same sums computed straight
 *      from invoices ⨝ invoice_lines (what the pre-aggregated table saves).
 *   2. GET /api/bookkeeping/{id}/journal at 200,000 charges (decision 0067), for the current year
 *      and for one month of it: the first page, which carries the period's totals per account
 *      (target ≤ 600 ms for the year, ≤ 150 ms for the month), and a page deep in the period, which
 *      carries only its vouchers (target ≤ 100 ms); baseline: the charge statistics of the same
 *      period, measured in the same run.
 *   3. Export to Excel of a 500-row statistics table in Chromium, click → download (first click
 *      loads the xlsx chunk; target ≤ 1 s); baseline: the page's own re-render of that table.
 */
import { copyFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { v7 } from 'uuid'
import { chromium } from 'playwright-core'
import { CHROMIUM_ARGS, DEMO_PASSWORD, startServer } from '../e2e/harness'
import { sqliteHandle, transaction } from '../server/db/client'
import { historyWriter } from '../server/features/billing/charge-history'
import { pulledAt } from './pulled'
import { atMost, finish, runPart } from './report'
import { count, size } from './scale'

/** Monthly charges per agreement (3 years): 200,000 charges are 5,556 agreements. */
const MONTHS = 36
/** Requests per percentile. */
const REQUESTS = size(50, 5)
/** Charges of the first measurement and of the second (the same company grown by `MORE`). */
const CHARGES = size(200_000, 20_000)
const MORE = size(600_000, 40_000)
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))]!

/** Adds `charges` executed charges (and the agreements they need, external ids from `firstSeq`) to the demo company. */
async function seed(dir: string, charges: number, firstSeq: number): Promise<string> {
  const agreements = Math.ceil(charges / MONTHS)
  const db = new Database(join(dir, 'app.db'))
  db.pragma('busy_timeout = 30000')
  const started = performance.now()
  const template = db
    .prepare<[], Record<string, unknown>>(
      "SELECT a.* FROM agreements a JOIN companies c ON c.id = a.company_id WHERE a.external_seq = 1001 AND c.acronym = 'ABF Solgården'",
    )
    .get()!
  const companyId = template.company_id as string
  const now = new Date().toISOString()
  const insertAddress = db.prepare(
    "INSERT INTO addresses (id, company_id, street, number, floor, side, zip, city, country, created_at) VALUES (?, ?, ?, ?, ?, ?, '2400', 'København NV', 'Denmark', ?)",
  )
  const insertAgreement = db.prepare(
    `INSERT INTO agreements (id, company_id, external_seq, member_user_id, payment_provider_id, status, price_ore, currency, payment_period, start_payment_date, next_regular_payment_date, version, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, 'ACCEPTED', 533000, 'DKK', 'MONTHLY', '2024-01-01', NULL, 1, ?, ?)`,
  )
  const insertPart = db.prepare('INSERT INTO agreement_parts (agreement_id, id, position, type, description, price_ore, vat_rate) VALUES (?, ?, ?, ?, ?, ?, 0)')
  const link = db.prepare('INSERT INTO agreement_addresses (agreement_id, address_id, position) VALUES (?, ?, 0)')
  const ids: string[] = []
  db.transaction(() => {
    for (let i = 0; i < agreements; i++) {
      const id = v7()
      const address = v7()
      insertAddress.run(address, companyId, `Bænkevej ${Math.floor(i / 40) + 1}`, String((i % 40) + 1), String(i % 5), i % 2 ? 'th' : 'tv', now)
      insertAgreement.run(id, companyId, firstSeq + i, template.member_user_id, template.payment_provider_id, now, now)
      insertPart.run(id, v7(), 0, 'COMMON_EXPENSES', 'Boligafgift', 450_000)
      insertPart.run(id, v7(), 1, 'HEAT', 'Aconto varme', 65_000)
      insertPart.run(id, v7(), 2, 'COLD_WATER', 'Aconto vand', 18_000)
      link.run(id, address)
      ids.push(id)
    }
  })()
  const handle = sqliteHandle(db)
  const w = historyWriter(handle, now)
  const lines = [
    { type: 'COMMON_EXPENSES' as const, amount: 450_000 },
    { type: 'HEAT' as const, amount: 65_000 },
    { type: 'COLD_WATER' as const, amount: 18_000 },
  ]
  const year = new Date().getFullYear()
  let n = 0
  for (let m = 0; m < MONTHS; m++) {
    const month = new Date(Date.UTC(year - 2, m, 1))
    await transaction(handle, async () => {
      for (const [i, agreementId] of ids.entries()) {
        if (n >= charges) break
        const day = `${month.toISOString().slice(0, 7)}-${String((i % 28) + 1).padStart(2, '0')}`
        const { chargeId } = await w.charge({ agreementId, paymentDate: day, lines })
        n++
        if (i % 50 === 0) await w.refund({ chargeId, amount: 10_000, paymentDate: day })
      }
    })
  }
  console.log(`seeded ${n} executed charges for ${agreements} agreements in ${((performance.now() - started) / 1000).toFixed(1)} s`)
  // Baseline: the same current-year sums straight from the invoices.
  const direct = db.prepare(
    `SELECT COALESCE(i.consumer_address, '') AS a, l.type, SUM(CASE i.kind WHEN 'CREDIT_NOTE' THEN -l.total_incl_vat_ore ELSE l.total_incl_vat_ore END) AS s
     FROM invoices i JOIN invoice_lines l ON l.invoice_id = i.id WHERE i.company_id = ? AND i.status = 'EXECUTED' AND COALESCE(i.payment_date, i.issue_date) BETWEEN ? AND ? GROUP BY 1, 2`,
  )
  const times: number[] = []
  for (let i = 0; i < 5; i++) {
    const t0 = performance.now()
    direct.all(companyId, `${year}-01-01`, `${year}-12-31`)
    times.push(performance.now() - t0)
  }
  db.close()
  directBaseline = pct(times, 50)
  return companyId
}
let directBaseline = 0

/**
 * The bookkeeping journal's pages (decision 0067): median of `runs` requests of the first page
 * (with the period's totals) and of a page `depth` pages in (vouchers only), for the current year
 * and its June, each against the statistics request of the same period as the baseline.
 */
export async function journalFigures(url: string, headers: Record<string, string>, companyId: string, charges: string, runs = size(9, 2), depth = size(20, 3)) {
  const year = new Date().getFullYear()
  const get = async (path: string) => {
    const t0 = performance.now()
    const res = await fetch(`${url}/api${path}`, { headers })
    const body = (await res.json()) as { nextCursor?: string | null }
    if (!res.ok) throw new Error(`${path}: ${res.status}`)
    return { ms: performance.now() - t0, body }
  }
  const median = async (path: string) => {
    await get(path)
    const xs: number[] = []
    for (let i = 0; i < runs; i++) xs.push((await get(path)).ms)
    return pct(xs, 50)
  }
  for (const [row, label, from, to, firstTarget] of [
    ['journal-year', 'current year', `${year}-01-01`, `${year}-12-31`, 600],
    ['journal-month', 'one month', `${year}-06-01`, `${year}-06-30`, 150],
  ] as const) {
    const first = `/bookkeeping/${companyId}/journal?from=${from}&to=${to}&limit=100`
    let cursor = (await get(first)).body.nextCursor
    for (let i = 1; i < depth && cursor; i++) cursor = (await get(`${first}&cursor=${encodeURIComponent(cursor)}`)).body.nextCursor
    if (!cursor) throw new Error(`journal ${label}: fewer than ${depth + 1} pages`)
    const base = `p50 ${(await median(`/company/${companyId}/charges-statistics?type=custom&startDate=${from}&endDate=${to}`)).toFixed(0)} ms statistics of the same period`
    atMost(`${row}-first-page`, `journal ${label}, ${charges} charges, first page (with totals), p50`, await median(first), 'ms', firstTarget, base)
    atMost(
      `${row}-deep-page`,
      `journal ${label}, ${charges} charges, page ${depth + 1}, p50`,
      await median(`${first}&cursor=${encodeURIComponent(cursor)}`),
      'ms',
      100,
      base,
    )
  }
}

/**
 * `BENCH_STATISTICS=journal` seeds the 200,000 charges and measures only the journal's figures (2.);
 * `BENCH_KEEP_DB=<path>` keeps a copy of the seeded database there (to study a query on it).
 */
const journalOnly = process.env.BENCH_STATISTICS === 'journal'

export async function statisticsBenchmark(): Promise<void> {
  const server = await startServer()
  try {
    const companyId = await seed(server.dir, CHARGES, 5000)
    const login = await fetch(`${server.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ type: 'email', email: 'admin@solgaarden.dk', password: DEMO_PASSWORD }),
    })
    const { accessToken } = (await login.json()) as { accessToken: string }
    const headers = { Authorization: `Bearer ${accessToken}` }
    const time = async (path: string, n: number) => {
      const xs: number[] = []
      for (let i = 0; i < n; i++) {
        const t0 = performance.now()
        const res = await fetch(`${server.url}/api${path}`, { headers })
        await res.json()
        if (!res.ok) throw new Error(`${path}: ${res.status}`)
        xs.push(performance.now() - t0)
      }
      return xs
    }
    const measure = async (charges: number, key: '200k' | '800k', target: number, withP50: boolean) => {
      await time(`/company/${companyId}/charges-statistics`, 3)
      const health = await time('/health', REQUESTS)
      const base = `p50 ${pct(health, 50).toFixed(1)} ms /api/health; ${directBaseline.toFixed(0)} ms summing invoices ⨝ lines directly`
      for (const type of ['current', 'heating-water'] as const) {
        const xs = await time(`/company/${companyId}/charges-statistics?type=${type}`, REQUESTS)
        if (withP50) atMost(`statistics-${type}-${key}-p50`, `statistics ${type}, ${count(charges)} charges, p50`, pct(xs, 50), 'ms', target, base)
        atMost(
          `statistics-${type}-${key}-p95`,
          `statistics ${type}, ${count(charges)} charges, p95`,
          pct(xs, 95),
          'ms',
          target,
          withP50 ? base : `p50 ${pct(xs, 50).toFixed(0)} ms; ${base}`,
        )
      }
    }
    if (!journalOnly) await measure(CHARGES, '200k', 150, true)

    // 2. The bookkeeping journal at 200,000 charges.
    await journalFigures(server.url, headers, companyId, count(CHARGES))
    if (journalOnly) return

    // 3. Export of a 500-row table in Chromium.
    const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS })
    try {
      const context = await browser.newContext({ acceptDownloads: true })
      const page = await context.newPage()
      await page.goto(`${server.url}/login`)
      await page.getByLabel('Email', { exact: true }).fill('admin@solgaarden.dk')
      await page.getByLabel('Password', { exact: true }).fill(DEMO_PASSWORD)
      await page.getByRole('button', { name: 'Sign in', exact: true }).click()
      await page.locator('nav.sidebar-nav').waitFor()
      await page.goto(`${server.url}/statistics`)
      await page.locator('table#statistics tbody tr').first().waitFor({ timeout: 60_000 })
      // The first pull of this company's 200,000 charges runs in this tab now; the export is timed
      // once it has ended (bench/pulled.ts), not against a main thread busy storing rows.
      await pulledAt(page, 300_000, 200)
      // Keep 500 body rows of the real table.
      const rerender = await page.evaluate(() => {
        const t0 = performance.now()
        const body = (document.getElementById('statistics') as HTMLTableElement).tBodies[0]!
        while (body.rows.length > 500) body.deleteRow(-1)
        return performance.now() - t0
      })
      const rows = await page.locator('table#statistics tbody tr').count()
      const exportOnce = async () => {
        const t0 = performance.now()
        await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export to Excel' }).click()])
        const ms = performance.now() - t0
        await page.getByRole('button', { name: 'Export to Excel' }).and(page.locator(':not([disabled])')).waitFor()
        return ms
      }
      const first = await exportOnce()
      const again = [await exportOnce(), await exportOnce(), await exportOnce()]
      atMost(
        'export-first-click',
        `export ${rows}-row table, first click (loads xlsx)`,
        first,
        'ms',
        1000,
        `${rerender.toFixed(0)} ms trimming the table to 500 rows`,
      )
      atMost(
        'export-later-clicks',
        `export ${rows}-row table, later clicks, median`,
        pct(again, 50),
        'ms',
        1000,
        `${rerender.toFixed(0)} ms trimming the table to 500 rows`,
      )
    } finally {
      await browser.close()
    }

    // 4. The same company grown to 800,000 charges.
    await seed(server.dir, MORE, 5000 + Math.ceil(CHARGES / MONTHS))
    await measure(CHARGES + MORE, '800k', 300, false)
  } catch (err) {
    console.error(`server output:\n${server.output().slice(-4000)}`)
    throw err
  } finally {
    await server.stop()
    if (process.env.BENCH_KEEP_DB) copyFileSync(join(server.dir, 'app.db'), process.env.BENCH_KEEP_DB)
    rmSync(server.dir, { recursive: true, force: true })
  }
}

if (process.argv[1]?.endsWith('bench/statistics.ts')) {
  await runPart('statistics', statisticsBenchmark)
  finish()
}
