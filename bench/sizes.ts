/**
 * The speed of work at the size the tests build, part `sizes` of `npm run bench` (bench/run.ts)
 * or alone: `node --import tsx bench/sizes.ts`. The tests hold what is correct at that size (how
 * many statements, nobody told twice); how long it takes is a figure here, printed with its target
 * and a baseline measured in the same run (docs/ARCHITECTURE.md "Tests", docs/BENCHMARKS.md). On
 * the demo as `npm start` runs it (server/main.ts on a SQLite file, the jobs running):
 *   1. the demo history of charges at first start (decision 0070), from the server's own log line
 *      `demo history of charges` — target ≤ 1 s; baseline: the same server's start, spawn to its
 *      first answer on /api/health, without the history;
 *   2. the personal-data download (decision 0069) of a member with 5,000 notifications and 500
 *      invoices with their lines, JSON and HTML over HTTP, median of 3 — target ≤ 1 s each;
 *      baseline: the same rows read straight with SQL and serialized to JSON in this process;
 *   3. the account statements (decision 0068) to 2,000 members — this year's, an interim
 *      statement while the year runs (decision 0081) — from the request to the sendout marked
 *      sent by the `statements` job (every 2 s, batches of 200) — target ≤ 20 s; baseline: the
 *      year before's yearly statement to the demo association's own few members, the same way
 *      (the job's interval and a run's fixed cost).
 */
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { v7 } from 'uuid'
import { DEMO_PASSWORD, startServer, type RunningServer } from '../e2e/harness'
import { atMost, finish, runPart } from './report'
import { count, size } from './scale'

const MEMBER = 'beboer01@solgaarden.dk'
const ADMIN = 'admin@solgaarden.dk'
const NOTIFICATIONS = size(5000, 200)
const INVOICES = size(500, 20)
const MEMBERS = size(2000, 50)
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!

type Row = Record<string, unknown>

/** Inserts copies of `row` into `table`, each changed by `change(i)`; columns as the row has them. */
function insertCopies(db: Database.Database, table: string, row: Row, n: number, change: (i: number) => Row) {
  const columns = Object.keys(row)
  const insert = db.prepare(`INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`)
  for (let i = 0; i < n; i++) {
    const copy = { ...row, ...change(i) }
    insert.run(...columns.map((c) => copy[c] as never))
  }
}

/** The server's SQLite file, for writing test data while it runs (WAL mode allows it). */
function serverDb(server: RunningServer): Database.Database {
  const db = new Database(join(server.dir, 'app.db'))
  db.pragma('busy_timeout = 30000')
  return db
}

async function signIn(server: RunningServer, email: string): Promise<string> {
  const res = await fetch(`${server.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ type: 'email', email, password: DEMO_PASSWORD }),
  })
  if (!res.ok) throw new Error(`${email} could not sign in: ${res.status}`)
  return ((await res.json()) as { accessToken: string }).accessToken
}

/** 1. The demo history at first start, and the start without it. */
async function demoHistory(server: RunningServer) {
  const line = server
    .output()
    .split('\n')
    .find((l) => l.includes('demo history of charges'))
  const ms = Number(/"ms":(\d+)/.exec(line ?? '')?.[1])
  if (!Number.isFinite(ms)) throw new Error(`no "demo history of charges" line with its ms in the server's output:\n${server.output().slice(-2000)}`)
  const bare = Date.now()
  const without = await startServer({ LOG_LEVEL: 'error', DEMO_HISTORY: '0' })
  const startMs = Date.now() - bare
  await without.stop()
  rmSync(without.dir, { recursive: true, force: true })
  atMost(
    'demo-history',
    'demo history of charges at first start (3 months through the engine and the emulator)',
    ms,
    'ms',
    1000,
    `the server's start without it, spawn to /api/health: ${startMs} ms`,
  )
}

/** 2. The personal-data download of a member with 5,000 notifications and 500 invoices. */
async function personalData(server: RunningServer) {
  const db = serverDb(server)
  const userId = db.prepare<[string], { id: string }>('SELECT id FROM users WHERE email_address = ?').get(MEMBER)!.id
  db.transaction(() => {
    const notice = db.prepare<[], Row>('SELECT * FROM notifications LIMIT 1').get()!
    insertCopies(db, 'notifications', notice, NOTIFICATIONS, () => ({ id: v7(), user_id: userId }))
    const invoice = db.prepare<[], Row>("SELECT * FROM invoices WHERE kind = 'INVOICE' LIMIT 1").get()!
    const lines = db.prepare<[unknown], Row>('SELECT * FROM invoice_lines WHERE invoice_id = ?').all(invoice.id)
    for (let i = 0; i < INVOICES; i++) {
      const id = v7()
      insertCopies(db, 'invoices', invoice, 1, () => ({ id, number: 900_000 + i, member_user_id: userId }))
      for (const line of lines) insertCopies(db, 'invoice_lines', line, 1, () => ({ invoice_id: id, id: v7() }))
    }
  })()

  // Baseline: what the download must read at least, straight from the file, and its JSON.
  const floor: number[] = []
  for (let run = 0; run < 3; run++) {
    const t = performance.now()
    const rows = {
      notifications: db.prepare('SELECT * FROM notifications WHERE user_id = ?').all(userId),
      invoices: db.prepare('SELECT * FROM invoices WHERE member_user_id = ?').all(userId),
      lines: db.prepare('SELECT l.* FROM invoice_lines l JOIN invoices i ON i.id = l.invoice_id WHERE i.member_user_id = ?').all(userId),
    }
    JSON.stringify(rows)
    floor.push(performance.now() - t)
  }
  db.close()

  const token = await signIn(server, MEMBER)
  const time = async (path: string, check: (body: string) => void) => {
    const runs: number[] = []
    for (let run = 0; run < 3; run++) {
      const t = performance.now()
      const res = await fetch(`${server.url}/api${path}`, { headers: { Authorization: `Bearer ${token}`, 'Accept-Language': 'da' } })
      const body = await res.text()
      runs.push(performance.now() - t)
      if (!res.ok) throw new Error(`${path}: ${res.status} ${body.slice(0, 200)}`)
      check(body)
    }
    return median(runs)
  }
  const json = await time('/account/personal-data', (body) => {
    const data = JSON.parse(body) as { notifications: unknown[]; invoices: unknown[] }
    if (data.notifications.length < NOTIFICATIONS || data.invoices.length < INVOICES)
      throw new Error(`the download holds ${data.notifications.length} notifications and ${data.invoices.length} invoices`)
  })
  const html = await time('/account/personal-data.html', (body) => {
    if (body.length < NOTIFICATIONS * 20) throw new Error(`the HTML download is ${body.length} characters`)
  })
  const base = `the same rows read with SQL and serialized: ${median(floor).toFixed(0)} ms`
  atMost('download-json', `personal-data download, JSON, ${count(NOTIFICATIONS)} notifications and ${INVOICES} invoices (median of 3)`, json, 'ms', 1000, base)
  atMost('download-html', `personal-data download, HTML, the same member (median of 3)`, html, 'ms', 1000, base)
}

/** 3. The yearly account statements to 2,000 members. */
async function statements(server: RunningServer) {
  const db = serverDb(server)
  // Copies of a member of the demo association with an accepted agreement, and of that agreement.
  const agreement = db
    .prepare<[], Row>(
      "SELECT a.* FROM agreements a JOIN companies c ON c.id = a.company_id WHERE a.status = 'ACCEPTED' AND c.acronym = 'ABF Solgården' ORDER BY a.external_seq LIMIT 1",
    )
    .get()!
  const member = db.prepare<[unknown], Row>('SELECT * FROM users WHERE id = ?').get(agreement.member_user_id)!
  const companyId = agreement.company_id as string
  const year = Number(new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Copenhagen', year: 'numeric' }).format(new Date()))
  const ids = Array.from({ length: MEMBERS }, () => v7())
  db.transaction(() => {
    insertCopies(db, 'users', member, MEMBERS, (i) => ({
      id: ids[i],
      email_address: `member${i}@example.dk`,
      full_name: `Member ${i}`,
      ...('mobile_key' in member ? { mobile_key: null } : {}),
    }))
    insertCopies(db, 'agreements', agreement, MEMBERS, (i) => ({
      id: v7(),
      member_user_id: ids[i],
      external_seq: 100_000 + i,
      vipps_agreement_id: null,
      termination_date: null,
      start_payment_date: `${year}-01-01`,
    }))
  })()

  const token = await signIn(server, ADMIN)
  const sendout = async (forYear: number, interim = false) => {
    const t = performance.now()
    const res = await fetch(`${server.url}/api/companies/${companyId}/account-statement-sendouts/${forYear}${interim ? '/interim' : ''}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Idempotency-Key': v7() },
    })
    if (res.status !== 202) throw new Error(`the sendout of ${forYear}: ${res.status} ${await res.text()}`)
    const row = db.prepare<[string, number], { sent_at: string | null; recipients: number | null }>(
      'SELECT sent_at, recipients FROM statement_sendouts WHERE company_id = ? AND year = ? AND resend_of_id IS NULL ORDER BY requested_at DESC LIMIT 1',
    )
    const deadline = Date.now() + 300_000
    for (;;) {
      const done = row.get(companyId, forYear)
      if (done?.sent_at) return { ms: performance.now() - t, recipients: done.recipients ?? 0 }
      if (Date.now() > deadline) throw new Error(`the sendout of ${forYear} was not sent within 5 minutes`)
      await new Promise((r) => setTimeout(r, 50))
    }
  }
  const small = await sendout(year - 1)
  const large = await sendout(year, true)
  db.close()
  if (large.recipients < MEMBERS) throw new Error(`the sendout told ${large.recipients} members`)
  atMost(
    'statements',
    `yearly account statements to ${count(large.recipients)} members, request to sent (the statements job, every 2 s)`,
    large.ms,
    'ms',
    20_000,
    `the year before's to the demo's ${small.recipients} members: ${small.ms.toFixed(0)} ms`,
  )
}

export async function sizesBenchmark() {
  // The demo as `npm start` makes it, with its history; info logs carry the history's line.
  const server = await startServer({ LOG_LEVEL: 'info', DEMO_HISTORY: '1' })
  try {
    await demoHistory(server)
    await personalData(server)
    await statements(server)
  } finally {
    await server.stop()
    rmSync(server.dir, { recursive: true, force: true })
  }
}

if (process.argv[1]?.endsWith('bench/sizes.ts')) {
  await runPart('sizes', sizesBenchmark)
  finish()
}
