/**
 * The billing benchmark (docs/BENCHMARKS.md, decision 0029), run by `npm run bench` (bench/run.ts) or alone:
 * `node --import tsx bench/billing.ts`. It seeds 300,000 ACCEPTED agreements (BENCH_AGREEMENTS) (two parts each) in
 * 50 active companies into a fresh SQLite file in a child process, then, in another child process
 * (so its peak RSS is the run's own), times:
 *   1. the first billing run: charges, invoices with lines, gap-free numbers, outbox rows and
 *      change-log rows written for the 90 % of agreements due — target ≥ 5,000 agreements/s;
 *   2. a second run a week later, when the other 10 % (first due a week after the rest) come due
 *      and the 90 % are not due again — target ≤ 20 % of the first run's time;
 *   3. the peak RSS of that process — target ≤ 300 MB.
 * Baseline, measured on the same file in a process of its own just before (so its rows in memory
 * are not in the billing process's peak): reading the same agreements with their parts, members
 * and addresses without writing anything.
 */
import { execFileSync } from 'node:child_process'
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import Database from 'better-sqlite3'
import pino from 'pino'
import { v7 } from 'uuid'
import { atLeast, atMost, finish, runPart } from './report'
import { count, size } from './scale'

const AGREEMENTS = Number(process.env.BENCH_AGREEMENTS ?? size(300_000, 5_000))
const COMPANIES = 50
const NOW = '2026-11-28T09:00:00.000Z'
/** The agreements' first payment date (the kill -9 test seeds them due tomorrow of the real clock). */
const FIRST_DUE = process.env.BENCH_FIRST_DUE ?? '2026-12-01'
/**
 * Every 10th agreement first due a week later (only when `BENCH_LATER_DUE` is set, as the bench
 * does; the kill -9 test seeds them all due the same day): the second run's work.
 */
const LATER_DUE = process.env.BENCH_LATER_DUE
const SECOND_RUN_AT = '2026-12-05T09:00:00.000Z'
const LATER_DUE_DATE = '2026-12-08'
/** When the agreements were made: never after their first payment date (billing skips periods before an agreement existed). */
const CREATED = FIRST_DUE < NOW.slice(0, 10) ? `${FIRST_DUE}T00:00:00.000Z` : NOW

async function seed(path: string) {
  const { openDatabase } = await import('../server/db/client')
  openDatabase(path).close()
  const db = new Database(path)
  db.pragma('journal_mode = WAL')
  db.pragma('synchronous = NORMAL')
  const company = db.prepare(
    "INSERT INTO companies (id, name, acronym, cvr, union_type, status, version, created_at, updated_at) VALUES (?, ?, ?, ?, 'COOP', 'ACTIVE', 1, ?, ?)",
  )
  const provider = db.prepare(
    "INSERT INTO payment_providers (id, company_id, type, is_active, is_test, provider_name, merchant_serial_number, client_id, client_secret_sealed, subscription_key_sealed, use_test_mode, version, created_at, updated_at) VALUES (?, ?, 'VIPPS', 1, 1, 'Vipps', '123456', 'c', 'x', 'x', 1, 1, ?, ?)",
  )
  const address = db.prepare(
    "INSERT INTO addresses (id, company_id, street, number, zip, city, country, created_at) VALUES (?, ?, 'Solvej', ?, '2100', 'København Ø', 'Denmark', ?)",
  )
  const user = db.prepare(
    "INSERT INTO users (id, full_name, email_address, mobile_number, language, system_role, version, created_at, updated_at) VALUES (?, ?, ?, '+4512345678', 'DA', 'USER', 1, ?, ?)",
  )
  const agreement = db.prepare(
    `INSERT INTO agreements (id, company_id, external_seq, member_user_id, payment_provider_id, status, price_ore, currency, payment_period, start_payment_date, next_regular_payment_date, final_payment_required, vipps_agreement_id, version, created_at, updated_at) VALUES (?, ?, ?, ?, ?, 'ACCEPTED', 515050, 'DKK', 'MONTHLY', @due, @due, 0, ?, 1, ?, ?)`,
  )
  const part = db.prepare('INSERT INTO agreement_parts (agreement_id, id, position, type, description, price_ore, vat_rate) VALUES (?, ?, ?, ?, ?, ?, ?)')
  const link = db.prepare('INSERT INTO agreement_addresses (agreement_id, address_id, position) VALUES (?, ?, 0)')
  const perCompany = AGREEMENTS / COMPANIES
  for (let c = 0; c < COMPANIES; c++) {
    db.transaction(() => {
      const companyId = v7()
      const providerId = v7()
      company.run(companyId, `Andelsboligforeningen ${c + 1}`, `ABF ${c + 1}`, String(10000000 + c), NOW, NOW)
      provider.run(providerId, companyId, NOW, NOW)
      const addresses = Array.from({ length: 20 }, (_, i) => {
        const id = v7()
        address.run(id, companyId, String(i + 1), NOW)
        return id
      })
      for (let i = 0; i < perCompany; i++) {
        const userId = v7()
        const id = v7()
        user.run(userId, `Beboer ${c}-${i}`, `beboer-${c}-${i}@example.dk`, NOW, NOW)
        const due = LATER_DUE && i % 10 === 9 ? LATER_DUE_DATE : FIRST_DUE
        agreement.run(id, companyId, 1001 + i, userId, providerId, `agr_${c}_${i}`, CREATED, CREATED, { due })
        part.run(id, v7(), 0, 'COMMON_EXPENSES', 'Boligafgift', 450_000, 0)
        part.run(id, v7(), 1, 'HEAT', 'Aconto varme', 65_050, 25)
        link.run(id, addresses[i % addresses.length])
      }
    })()
  }
  db.close()
}

/**
 * The baseline, in a process of its own (before the measured one, on the same file, so both find
 * the file equally warm in the OS cache): the due agreements with parts, member and address read,
 * nothing written. Apart, so its rows in memory do not count in the billing process's peak RSS.
 */
async function baseline(path: string) {
  const { openDatabase } = await import('../server/db/client')
  const database = openDatabase(path)
  const t0 = performance.now()
  const ids = database.sqlite
    .prepare("SELECT id, member_user_id FROM agreements WHERE status = 'ACCEPTED' AND next_regular_payment_date <= '2026-12-01' ORDER BY id")
    .all() as { id: string; member_user_id: string }[]
  const parts = database.sqlite.prepare('SELECT * FROM agreement_parts WHERE agreement_id = ?')
  const member = database.sqlite.prepare('SELECT * FROM users WHERE id = ?')
  const addr = database.sqlite.prepare('SELECT ad.* FROM agreement_addresses aa JOIN addresses ad ON ad.id = aa.address_id WHERE aa.agreement_id = ?')
  for (const r of ids) {
    parts.all(r.id)
    member.get(r.member_user_id)
    addr.get(r.id)
  }
  const ms = performance.now() - t0
  process.stdout.write(JSON.stringify({ baseline: ms, baselineRows: ids.length, maxRssKb: process.resourceUsage().maxRSS }) + '\n')
  database.close()
}

/** Every rowid table's largest rowid: what a run added is what lies above it afterwards (billing writes no WITHOUT ROWID table). */
function maxRowids(db: Database.Database): Record<string, number> {
  const tables = db
    .prepare(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '__drizzle%' AND sql NOT LIKE '%WITHOUT ROWID%' AND sql NOT LIKE 'CREATE VIRTUAL%'",
    )
    .pluck()
    .all() as string[]
  return Object.fromEntries(tables.map((t) => [t, (db.prepare(`SELECT coalesce(max(rowid), 0) FROM "${t}"`).pluck().get() as number) ?? 0]))
}

async function measure(path: string) {
  const { openDatabase } = await import('../server/db/client')
  const { createApp } = await import('../server/app')
  const { parseConfig } = await import('../server/env')
  const { TestClock } = await import('../server/lib/clock')
  const database = openDatabase(path)
  const clock = new TestClock(NOW)
  const config = parseConfig({ APP_ENV: 'test', DATABASE_PATH: path, APP_SECRET_KEY: 'bench', PUBLIC_URL: 'http://localhost:3000' })
  const { services } = createApp({ config, database, clock, log: pino({ level: 'silent' }) })

  const before = maxRowids(database.sqlite)
  const t1 = performance.now()
  const first = await services.billing.run()
  const firstMs = performance.now() - t1
  const afterFirst = maxRowids(database.sqlite)
  clock.set(SECOND_RUN_AT)
  const t2 = performance.now()
  const second = await services.billing.run()
  const secondMs = performance.now() - t2
  const counts = database.sqlite
    .prepare(
      "SELECT (SELECT count(*) FROM charges) AS charges, (SELECT count(*) FROM invoices) AS invoices, (SELECT count(*) FROM invoice_lines) AS lines, (SELECT count(*) FROM provider_outbox WHERE status = 'pending') AS queued, (SELECT max(last_number) FROM invoice_counters) AS maxNumber",
    )
    .get()
  /** The rows the first run added, table by table (rowids above `before`, up to `afterFirst`): the write floor inserts these. */
  const added = Object.fromEntries(
    Object.keys(afterFirst)
      .filter((t) => afterFirst[t]! > (before[t] ?? 0))
      .map((t) => [t, { from: before[t] ?? 0, to: afterFirst[t]! }]),
  )
  process.stdout.write(JSON.stringify({ first, firstMs, second, secondMs, counts, added, maxRssKb: process.resourceUsage().maxRSS }) + '\n')
  database.close()
}

/**
 * The write floor, in a process of its own on a copy of the file made before the run: the rows the
 * first run added (read from the measured file, `added` by table) inserted with plain prepared
 * statements, 500 agreements' worth to a transaction as the run commits them, and the due
 * agreements' next payment date moved on with one UPDATE each — what writing the run's results
 * costs this database with no billing logic at all.
 */
function writeFloor(path: string, measuredPath: string, addedJson: string) {
  const added = JSON.parse(addedJson) as Record<string, { from: number; to: number }>
  const db = new Database(path)
  db.pragma('journal_mode = WAL')
  db.pragma('synchronous = NORMAL')
  // The rows are known to be consistent (the run wrote them): a floor need not look their parents up.
  db.pragma('foreign_keys = OFF')
  db.exec(`ATTACH DATABASE '${measuredPath.replaceAll("'", "''")}' AS run`)
  // As many transactions as the run commits: one for each 500 agreements billed.
  const batches = Math.max(1, Math.ceil((added.charges!.to - added.charges!.from) / 500))
  const t0 = performance.now()
  let rows = 0
  const plans = Object.entries(added).map(([table, range]) => {
    const columns = (db.prepare(`SELECT name FROM pragma_table_info('${table}')`).pluck().all() as string[]).map((c) => `"${c}"`)
    return {
      range,
      read: db.prepare(`SELECT ${columns.join(', ')} FROM run."${table}" WHERE rowid > ? AND rowid <= ? ORDER BY rowid`).raw(),
      insert: db.prepare(`INSERT INTO main."${table}" (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`),
    }
  })
  // The agreements the first run billed: due on the first date before it, and moved on since.
  const due = db
    .prepare(
      'SELECT r.id, r.next_regular_payment_date, r.version, r.updated_at FROM run.agreements r JOIN main.agreements m ON m.id = r.id WHERE r.rowid > ? AND r.rowid <= ? AND m.next_regular_payment_date = ? AND r.version <> m.version',
    )
    .raw()
  const update = db.prepare('UPDATE main.agreements SET next_regular_payment_date = ?, version = ?, updated_at = ? WHERE id = ?')
  const agreementsMax = db.prepare('SELECT max(rowid) FROM main.agreements').pluck().get() as number
  for (let b = 0; b < batches; b++) {
    db.transaction(() => {
      for (const { range, read, insert } of plans) {
        const span = Math.ceil((range.to - range.from) / batches)
        for (const row of read.all(range.from + b * span, Math.min(range.to, range.from + (b + 1) * span)) as unknown[][]) {
          insert.run(...row)
          rows++
        }
      }
      const span = Math.ceil(agreementsMax / batches)
      for (const [id, next, version, updatedAt] of due.all(b * span, (b + 1) * span, FIRST_DUE) as unknown[][]) update.run(next, version, updatedAt, id)
    })()
  }
  const ms = performance.now() - t0
  process.stdout.write(JSON.stringify({ ms, rows }) + '\n')
  db.close()
}

export async function billingBenchmark() {
  const dir = mkdtempSync(join(tmpdir(), 'bk-bench-billing-'))
  const path = join(dir, 'app.db')
  const floorPath = join(dir, 'floor.db')
  const self = resolve(import.meta.dirname, 'billing.ts')
  try {
    execFileSync(process.execPath, ['--import', 'tsx', self, 'seed', path], { stdio: 'inherit', env: { ...process.env, BENCH_LATER_DUE: '1' } })
    copyFileSync(path, floorPath)
    const child = (...args: string[]) =>
      JSON.parse(
        execFileSync(process.execPath, ['--import', 'tsx', self, ...args], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 })
          .trim()
          .split('\n')
          .pop()!,
      )
    const b = child('baseline', path)
    const r = child('measure', path)
    const floor = child('floor', floorPath, path, JSON.stringify(r.added)) as { ms: number; rows: number }
    const later = AGREEMENTS / 10
    const rate = (AGREEMENTS - later) / (r.firstMs / 1000)
    const baselineRate = b.baselineRows / (b.baseline / 1000)
    const floorRate = (AGREEMENTS - later) / (floor.ms / 1000)
    atLeast(
      'billing-rate',
      `billing run, ${count(AGREEMENTS - later)} of ${count(AGREEMENTS)} agreements due in ${COMPANIES} companies (both runs: ${r.counts.charges} charges, ${r.counts.invoices} invoices, ${r.counts.lines} lines, ${r.counts.queued} provider calls queued)`,
      rate,
      'agreements/s',
      5000,
      `${baselineRate.toFixed(0)} agreements/s to only read them`,
    )
    atLeast(
      'billing-vs-write-floor',
      'billing run against its write floor: the same rows inserted by plain statements',
      (rate / floorRate) * 100,
      '% of the floor',
      50,
      `write floor ${floorRate.toFixed(0)} agreements/s (${count(floor.rows)} rows in ${(floor.ms / 1000).toFixed(1)} s)`,
    )
    if (r.first.charges !== AGREEMENTS - later || r.second.charges !== later || r.counts.maxNumber !== AGREEMENTS / COMPANIES)
      throw new Error(`the runs billed ${r.first.charges} and ${r.second.charges} agreements, last invoice number ${r.counts.maxNumber}`)
    atMost(
      'billing-second-run',
      `second run a week later (${count(r.second.charges)} agreements due, the other ${count(AGREEMENTS - later)} not)`,
      (r.secondMs / r.firstMs) * 100,
      '% of the first',
      20,
      `${r.secondMs.toFixed(0)} ms vs ${r.firstMs.toFixed(0)} ms for the first run`,
    )
    atMost(
      'billing-rss',
      'peak RSS of the billing process',
      r.maxRssKb / 1024,
      'MB',
      300,
      `the whole server process, database cache included; the baseline's read-only process ${(b.maxRssKb / 1024).toFixed(0)} MB`,
    )
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

const [mode, path, ...rest] = process.argv.slice(2)
if (mode === 'seed') await seed(path!)
else if (mode === 'baseline') await baseline(path!)
else if (mode === 'measure') await measure(path!)
else if (mode === 'floor') writeFloor(path!, rest[0]!, rest[1]!)
else if (process.argv[1]?.endsWith('bench/billing.ts')) {
  await runPart('billing', billingBenchmark)
  finish()
}
