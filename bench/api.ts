/**
 * The API figures (docs/BENCHMARKS.md; `npm run bench`, or alone: `node --import tsx bench/api.ts`):
 * the product server and a bare floor server (bench/floor-server.ts: plain Hono + better-sqlite3,
 * the same queries, byte-identical JSON) each run as a child process on its own copy of the same
 * seeded SQLite file (bench/api-seed.ts: 100,000 agreements in 20 companies), so memory and the
 * event loop are each process's own. Loaded with autocannon, product and floor alternating, after
 * one second of warm-up each:
 *   1. a page of 100 agreements from a company with 5,000, 1 and 8 clients, 5 s each:
 *      req/s ≥ 1/3 of the floor's, p99 ≤ 3× the floor's;
 *   2. a write with Idempotency-Key and change log (mark a notification read, a new one each
 *      request), 1 and 8 clients: req/s ≥ 1/3 of the floor's;
 *   3. a super admin following the `Link` header through all 100,000 agreements (pages of 200):
 *      the event-loop delay's max in that process (monitorEventLoopDelay, BENCH_EVENT_LOOP=1)
 *      ≤ 50 ms, and its peak RSS (/proc/<pid>/status) ≤ 2× the floor's doing the same.
 * Before measuring, the first answer of each pair must be byte-identical, or the bench stops.
 * Then the same on PostgreSQL (skipped with a note without PostgreSQL's binaries, and
 * skipped silently with BENCH_API_POSTGRES=0, for A/B runs of the SQLite rows against older
 * commits): the seeded file copied into a throw-away cluster (`npm run db:copy-to-postgres`'s
 * copy), and that database copied once more for the PostgreSQL floor (bench/floor-server-pg.ts:
 * plain Hono + pg, pipelined, byte-identical JSON). The page and the write with 8 clients, on one
 * product instance and on two at once (4 clients each, summed), against that floor's 8 clients:
 * req/s ≥ 1/3 of the floor's, as on SQLite (docs/BENCHMARKS.md).
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { closeSync, copyFileSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import autocannon from 'autocannon'
import Database from 'better-sqlite3'
import pg from 'pg'
import { seedApiBench, COMPANIES, PER_COMPANY, NOTIFICATIONS } from './api-seed'
import { copySqliteToPostgres } from '../server/db/copy-to-postgres'
import { migratePostgres } from '../server/db/postgres'
import { onServer, postgresBinDir, startPgCluster, type PgCluster } from '../server/test/pg-cluster'
import { build } from 'esbuild'
import { buildServer } from '../scripts/build-server'
import { atLeast, atMost, failed, finish, runPart } from './report'
import { count, size } from './scale'

const root = resolve(import.meta.dirname, '..')
const SECONDS = Number(process.env.BENCH_API_SECONDS ?? size(5, 1))
/** The share of the floor's requests a second the product must reach, and the most CPU a request may cost against the floor's. */
const RATE_SHARE = 2
const CPU_TIMES = 2
/** The super admin's walk stops here if it is not through (its figures then say so and the paging figure misses). */
const WALK_LIMIT_MS = 60_000

interface Server {
  name: 'product' | 'floor'
  url: string
  child: ChildProcess
  logFile: string
  /** Notifications of the administrator not yet marked read in this server's copy. */
  nextNotification: number
  /** Whether the process samples its event-loop delay (server/lib/event-loop-probe.ts). */
  probe: boolean
}

async function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const srv = createServer()
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as { port: number }).port
      srv.close(() => ok(port))
    })
    srv.on('error', fail)
  })
}

/**
 * Both sides run as plain JavaScript, as production does (decision 0075): the product from
 * dist/server/ built now from this checkout, the floors bundled the same way beside it, so neither
 * pays for a TypeScript loader in its CPU time or memory.
 */
async function buildBoth(): Promise<void> {
  await buildServer()
  await build({
    absWorkingDir: root,
    entryPoints: { 'floor-server': 'bench/floor-server.ts', 'floor-server-pg': 'bench/floor-server-pg.ts' },
    outdir: join(root, 'dist/bench'),
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    logLevel: 'warning',
  })
}
const script = (name: 'product' | 'floor-server' | 'floor-server-pg') => join(root, name === 'product' ? 'dist/server/main.js' : `dist/bench/${name}.js`)

async function start(name: Server['name'], args: string[], env: Record<string, string>, logFile: string, port: number, probe = false): Promise<Server> {
  const out = openSync(logFile, 'a')
  const child = spawn(process.execPath, args, { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', out, out] })
  closeSync(out)
  const url = `http://127.0.0.1:${port}`
  const deadline = Date.now() + 120_000
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${name} exited early:\n${readFileSync(logFile, 'utf8').slice(-3000)}`)
    if (
      await fetch(`${url}/api/health`).then(
        (r) => r.ok,
        () => false,
      )
    )
      return { name, url, child, logFile, nextNotification: 0, probe }
    await new Promise((r) => setTimeout(r, 200))
  }
  throw new Error(`${name} did not start:\n${readFileSync(logFile, 'utf8').slice(-3000)}`)
}

/** The product's environment on `database` (a SQLite file or a PostgreSQL URL); `n` keeps each instance's own files apart. */
function productEnv(dir: string, port: number, database: { DATABASE_PATH: string } | { DATABASE_URL: string }, n = ''): Record<string, string> {
  return {
    APP_ENV: 'production',
    PORT: String(port),
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    ...database,
    MAIL_OUTBOX_DIR: join(dir, `mail${n}`),
    ATTACHMENTS_DIR: join(dir, 'attachments'),
    APP_SECRET_KEY: 'bench-api-secret-key-0123456789abcdef',
    DEMO_DATA: '0',
  }
}

async function stop(server: Server | undefined) {
  if (!server || server.child.exitCode !== null) return
  const exited = new Promise((r) => server.child.once('exit', r))
  server.child.kill('SIGTERM')
  await exited
}

const rssMb = (pid: number): number => {
  const kb = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]
  return Number(kb) / 1024
}

/** Asks the process for its event-loop delay since the last ask (server/lib/event-loop-probe.ts) and starts it over. */
async function eventLoopDelay(server: Server): Promise<{ max: number; p99: number }> {
  const before = readFileSync(server.logFile, 'utf8').length
  server.child.kill('SIGUSR2')
  for (let i = 0; i < 50; i++) {
    await new Promise((r) => setTimeout(r, 100))
    const line = /event-loop-delay (\{.*\})/.exec(readFileSync(server.logFile, 'utf8').slice(before))
    if (line) return JSON.parse(line[1]!) as { max: number; p99: number }
  }
  throw new Error(`${server.name} printed no event-loop delay`)
}

/** Same request to both, answers compared byte for byte: the floor must do the product's work, no less. */
async function sameAnswer(what: string, request: (server: Server) => Promise<Response>, product: Server, floor: Server): Promise<void> {
  const [a, b] = [await request(product), await request(floor)]
  const [ta, tb] = [await a.text(), await b.text()]
  if (a.status !== 200 || b.status !== 200 || ta !== tb) {
    const at = [...ta].findIndex((ch, i) => ch !== tb[i])
    throw new Error(
      `${what}: the floor's answer is not the product's (status ${a.status} vs ${b.status}, ${ta.length} vs ${tb.length} bytes, first difference at ${at}):\n` +
        `product: …${ta.slice(Math.max(0, at - 200), at + 200)}…\nfloor:   …${tb.slice(Math.max(0, at - 200), at + 200)}…`,
    )
  }
}

/** The CPU time (user + system) the process has used so far, in ms, from /proc/<pid>/stat. */
const TICKS_PER_SECOND = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100
function cpuMs(pid: number): number {
  // The fields after the command's name (which may hold spaces) start at its closing parenthesis.
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND
}

interface Load {
  reqPerSec: number
  p99: number
  /** CPU time of the server process per request answered, ms. */
  cpuPerRequest: number
  /** The server's event-loop delay during the load (null where the process has no probe). */
  delay: { max: number; p99: number } | null
}

async function load(server: Server, connections: number, seconds: number, path: string, token: string, write = false): Promise<Load> {
  const headers = { Authorization: `Bearer ${token}` }
  if (server.probe) await eventLoopDelay(server)
  const cpuBefore = cpuMs(server.child.pid!)
  const result = await autocannon({
    url: server.url,
    connections,
    duration: seconds,
    headers,
    requests: [
      write ?
        {
          method: 'PATCH',
          setupRequest: (req) => {
            if (server.nextNotification >= NOTIFICATIONS) throw new Error(`${server.name}: out of unread notifications`)
            const id = notificationIds[server.nextNotification++]!
            return { ...req, path: `/api/notifications/${id}/read`, headers: { ...headers, 'Idempotency-Key': randomUUID() } }
          },
        }
      : { method: 'GET', path },
    ],
  })
  if (result.errors || result.non2xx || result.timeouts)
    throw new Error(`${server.name} ${path}: ${result.errors} errors, ${result.non2xx} non-2xx answers, ${result.timeouts} timeouts`)
  const cpu = cpuMs(server.child.pid!) - cpuBefore
  return {
    reqPerSec: result.requests.average,
    p99: result.latency.p99,
    cpuPerRequest: cpu / Math.max(1, result.requests.total),
    delay: server.probe ? await eventLoopDelay(server) : null,
  }
}

/**
 * Follows the `Link` header from the first page to the last, sampling the process's RSS. Stops
 * after WALK_LIMIT_MS (the figures then cover the part read, and say so).
 */
async function walk(server: Server, token: string): Promise<{ ms: number; rows: number; complete: boolean; peakRssMb: number }> {
  let peakRssMb = rssMb(server.child.pid!)
  const sampler = setInterval(() => (peakRssMb = Math.max(peakRssMb, rssMb(server.child.pid!))), 50)
  const t0 = performance.now()
  let rows = 0
  let next: string | null = '/api/agreement?limit=200'
  try {
    while (next && performance.now() - t0 < WALK_LIMIT_MS) {
      const res: Response = await fetch(server.url + next, { headers: { Authorization: `Bearer ${token}` } })
      if (!res.ok) throw new Error(`${server.name} ${next}: ${res.status}`)
      rows += ((await res.json()) as unknown[]).length
      next = /<([^>]+)>;\s*rel="next"/.exec(res.headers.get('Link') ?? '')?.[1] ?? null
    }
  } finally {
    clearInterval(sampler)
  }
  return { ms: performance.now() - t0, rows, complete: next === null, peakRssMb }
}

let notificationIds: string[] = []

async function walkWithDelay(server: Server, token: string) {
  await eventLoopDelay(server)
  const w = await walk(server, token)
  return { ...w, delay: await eventLoopDelay(server) }
}

/** The rate row of `p` against the floor `f`: requests a second, at least a share of the floor's. */
function rateRows(row: string, what: string, p: Load, f: Load, floorName = 'floor'): void {
  atLeast(
    row,
    `${what}, req/s`,
    p.reqPerSec,
    'req/s',
    f.reqPerSec / RATE_SHARE,
    `${floorName} ${f.reqPerSec.toFixed(0)} req/s, p99 ${f.p99} ms; product p99 ${p.p99} ms`,
    ` (1/${RATE_SHARE} floor)`,
  )
}
function cpuRow(row: string, what: string, p: Load, f: Load, floorName = 'floor'): void {
  atMost(
    row,
    `${what}, CPU per request`,
    p.cpuPerRequest,
    'ms',
    f.cpuPerRequest * CPU_TIMES,
    `${floorName} ${f.cpuPerRequest.toFixed(2)} ms (${(p.cpuPerRequest / f.cpuPerRequest).toFixed(1)}×)`,
    ` (${CPU_TIMES}× floor)`,
  )
}
/**
 * The event-loop delay under a load: its p99 ≤ 50 ms, or ≤ 1.5× the floor's where the floor,
 * doing the same work, cannot keep 50 ms either (8 clients answered in one turn of the loop wait
 * for each other on any server). The max is printed beside it: one collection can make it.
 */
function delayRow(row: string, what: string, p: Load, f: Load): void {
  const target = Math.max(50, f.delay!.p99 * 1.5)
  atMost(
    row,
    `event-loop delay p99 ${what}`,
    p.delay!.p99,
    'ms',
    target,
    `floor p99 ${f.delay!.p99} ms (max ${f.delay!.max} ms); product max ${p.delay!.max} ms`,
    target > 50 ? ' (1.5× floor)' : '',
  )
}

export async function apiBenchmark(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'bk-bench-api-'))
  let product: Server | undefined
  let floor: Server | undefined
  try {
    const t0 = performance.now()
    await buildBoth()
    const seeded = await seedApiBench(join(dir, 'product.db'))
    notificationIds = seeded.notificationIds
    copyFileSync(join(dir, 'product.db'), join(dir, 'floor.db'))
    copyFileSync(join(dir, 'product.db'), join(dir, 'pg-source.db'))
    console.log(`api bench: built, seeded ${count(COMPANIES * PER_COMPANY)} agreements in ${((performance.now() - t0) / 1000).toFixed(1)} s`)
    const [productPort, floorPort] = [await freePort(), await freePort()]
    const env = { ...productEnv(dir, productPort, { DATABASE_PATH: join(dir, 'product.db') }), BENCH_EVENT_LOOP: '1' }
    product = await start('product', [script('product')], env, join(dir, 'product.log'), productPort, true)
    floor = await start('floor', [script('floor-server'), join(dir, 'floor.db'), String(floorPort)], {}, join(dir, 'floor.log'), floorPort, true)
    const pair = [product, floor] as const
    const admin = seeded.adminToken
    const pagePath = `/api/agreement?companyId=${seeded.companyId}&limit=100`
    const get = (path: string, token: string) => (s: Server) => fetch(s.url + path, { headers: { Authorization: `Bearer ${token}` } })

    await sameAnswer('agreements page of 100', get(pagePath, admin), product, floor)
    await sameAnswer('super admin first page of 200', get('/api/agreement?limit=200', seeded.superAdminToken), product, floor)
    const firstKey = randomUUID()
    await sameAnswer(
      'mark a notification read',
      (s) =>
        fetch(`${s.url}/api/notifications/${notificationIds[s.nextNotification++]}/read`, {
          method: 'PATCH',
          headers: { Authorization: `Bearer ${admin}`, 'Idempotency-Key': firstKey },
        }),
      product,
      floor,
    )
    console.log('api bench: first answers byte-identical (agreements page, super admin page, write)')

    const page = `agreements page of 100 from ${count(PER_COMPANY)}`
    for (const s of pair) await load(s, 1, 1, pagePath, admin)
    {
      const [p, f] = [await load(product, 1, SECONDS, pagePath, admin), await load(floor, 1, SECONDS, pagePath, admin)]
      rateRows('page-1-client-req', `${page}, 1 client`, p, f)
      atMost('page-1-client-p99', `${page}, 1 client, p99`, p.p99, 'ms', Math.max(1, f.p99) * 3, `floor p99 ${f.p99} ms`, ' (3× floor)')
    }
    {
      const [p, f] = [await load(product, 8, SECONDS, pagePath, admin), await load(floor, 8, SECONDS, pagePath, admin)]
      rateRows('page-8-clients-req', `${page}, 8 clients`, p, f)
      atMost('page-8-clients-p99', `${page}, 8 clients, p99`, p.p99, 'ms', Math.max(1, f.p99) * 3, `floor p99 ${f.p99} ms`, ' (3× floor)')
      cpuRow('page-8-clients-cpu', `${page}, 8 clients`, p, f)
      delayRow('page-8-clients-event-loop', `under 8 clients paging`, p, f)
    }

    const write = 'write with Idempotency-Key + change log (mark read)'
    for (const s of pair) await load(s, 1, 1, '', admin, true)
    {
      const [p, f] = [await load(product, 1, SECONDS, '', admin, true), await load(floor, 1, SECONDS, '', admin, true)]
      rateRows('write-1-client-req', `${write}, 1 client`, p, f)
    }
    {
      const [p, f] = [await load(product, 8, SECONDS, '', admin, true), await load(floor, 8, SECONDS, '', admin, true)]
      rateRows('write-8-clients-req', `${write}, 8 clients`, p, f)
      cpuRow('write-8-clients-cpu', `${write}, 8 clients`, p, f)
      delayRow('write-8-clients-event-loop', 'under 8 clients writing', p, f)
    }

    const total = COMPANIES * PER_COMPANY
    const [pw, fw] = [await walkWithDelay(product, seeded.superAdminToken), await walkWithDelay(floor, seeded.superAdminToken)]
    const read = (w: typeof pw) =>
      w.complete ? `all in ${(w.ms / 1000).toFixed(1)} s` : `stopped after ${(w.ms / 1000).toFixed(0)} s at ${count(w.rows)} rows`
    const walkName = `while a super admin pages ${count(total)} agreements (200 a page)`
    const base = `product ${read(pw)}, floor ${read(fw)}`
    atLeast(
      'walk-complete',
      `agreements a super admin pages through (200 a page, ${WALK_LIMIT_MS / 1000} s at most)`,
      pw.complete ? pw.rows : 0,
      'rows',
      total,
      base,
    )
    atMost('walk-event-loop', `event-loop delay max ${walkName}`, pw.delay.max, 'ms', 50, `floor ${fw.delay.max} ms max (p99 ${fw.delay.p99} ms); ${base}`)
    atMost('walk-rss', `server RSS ${walkName}`, pw.peakRssMb, 'MB', fw.peakRssMb * 2, `floor ${fw.peakRssMb.toFixed(0)} MB`, ' (2× floor)')
    await stop(product)
    product = undefined
    if (process.env.BENCH_API_POSTGRES !== '0') await postgresRows(dir, admin, pagePath)
  } finally {
    await stop(product)
    await stop(floor)
    rmSync(dir, { recursive: true, force: true })
  }
}

/** The seeded file copied into PostgreSQL as database `bench`, and that copied once more as `floor` (the PostgreSQL floor's own). */
async function copyIntoPostgres(dir: string, cluster: PgCluster): Promise<{ product: string; floor: string }> {
  const t0 = performance.now()
  const product = await cluster.createDatabase('bench')
  const pool = new pg.Pool({ connectionString: product, max: 2 })
  const sqlite = new Database(join(dir, 'pg-source.db'), { readonly: true })
  try {
    await migratePostgres(pool)
    await copySqliteToPostgres(sqlite, pool)
    await pool.query('ANALYZE')
  } finally {
    sqlite.close()
    await pool.end()
  }
  // A file-level copy of the whole database, statistics included (nothing may be connected to `bench`).
  await onServer(cluster.url, (c) => c.query('CREATE DATABASE floor TEMPLATE bench'))
  console.log(`api bench: copied into PostgreSQL (and the floor's copy) in ${((performance.now() - t0) / 1000).toFixed(1)} s`)
  return { product, floor: cluster.urlFor('floor') }
}

/** The page and the write on PostgreSQL, on one product instance and on two at once, against the PostgreSQL floor (see the file's comment). */
async function postgresRows(dir: string, admin: string, pagePath: string) {
  if (!postgresBinDir()) {
    for (const row of [
      'pg-page-1-instance',
      'pg-page-1-instance-cpu',
      'pg-page-2-instances',
      'pg-write-1-instance',
      'pg-write-1-instance-cpu',
      'pg-write-2-instances',
    ])
      failed(row, `PostgreSQL: ${row}`, 'no PostgreSQL binaries (initdb): install Debian\'s "postgresql"')
    return
  }
  const cluster = await startPgCluster()
  const servers: Server[] = []
  try {
    const urls = await copyIntoPostgres(dir, cluster)
    const startInstance = async (n: number) => {
      const port = await freePort()
      const server = await start(
        'product',
        [script('product')],
        productEnv(dir, port, { DATABASE_URL: urls.product }, `-pg-${n}`),
        join(dir, `product-pg-${n}.log`),
        port,
      )
      // The instances share one database: each marks its own range of the unread notifications.
      server.nextNotification = n * (NOTIFICATIONS / 2)
      servers.push(server)
      return server
    }
    const one = await startInstance(0)
    const floorPort = await freePort()
    const floor = await start('floor', [script('floor-server-pg'), urls.floor, String(floorPort)], {}, join(dir, 'floor-pg.log'), floorPort)
    servers.push(floor)
    await sameAnswer('PostgreSQL: agreements page of 100', (s) => fetch(s.url + pagePath, { headers: { Authorization: `Bearer ${admin}` } }), one, floor)
    const key = randomUUID()
    const markRead = (s: Server) =>
      fetch(`${s.url}/api/notifications/${notificationIds[s.nextNotification++]}/read`, {
        method: 'PATCH',
        headers: { Authorization: `Bearer ${admin}`, 'Idempotency-Key': key },
      })
    await sameAnswer('PostgreSQL: mark a notification read', markRead, one, floor)
    console.log('api bench: PostgreSQL first answers byte-identical (agreements page, write)')

    for (const s of [one, floor]) {
      await load(s, 1, 1, pagePath, admin)
      await load(s, 1, 1, '', admin, true)
    }
    const [page1, floorPage] = [await load(one, 8, SECONDS, pagePath, admin), await load(floor, 8, SECONDS, pagePath, admin)]
    const [write1, floorWrite] = [await load(one, 8, SECONDS, '', admin, true), await load(floor, 8, SECONDS, '', admin, true)]
    const two = await startInstance(1)
    await load(two, 1, 1, pagePath, admin)
    const both = async (write: boolean) => {
      const loads = await Promise.all([one, two].map((s) => load(s, 4, SECONDS, write ? '' : pagePath, admin, write)))
      return {
        reqPerSec: loads[0]!.reqPerSec + loads[1]!.reqPerSec,
        p99: Math.max(loads[0]!.p99, loads[1]!.p99),
        cpuPerRequest: (loads[0]!.cpuPerRequest + loads[1]!.cpuPerRequest) / 2,
        delay: null,
      }
    }
    const page2 = await both(false)
    const write2 = await both(true)
    const pgPage = `agreements page of 100 from ${count(PER_COMPANY)}, 8 clients`
    const pgWrite = 'write with Idempotency-Key + change log, 8 clients'
    rateRows('pg-page-1-instance', `PostgreSQL, 1 instance: ${pgPage}`, page1, floorPage, 'PostgreSQL floor')
    cpuRow('pg-page-1-instance-cpu', `PostgreSQL, 1 instance: ${pgPage}`, page1, floorPage, 'PostgreSQL floor')
    rateRows('pg-page-2-instances', `PostgreSQL, 2 instances: ${pgPage}`, page2, floorPage, 'PostgreSQL floor')
    rateRows('pg-write-1-instance', `PostgreSQL, 1 instance: ${pgWrite}`, write1, floorWrite, 'PostgreSQL floor')
    cpuRow('pg-write-1-instance-cpu', `PostgreSQL, 1 instance: ${pgWrite}`, write1, floorWrite, 'PostgreSQL floor')
    rateRows('pg-write-2-instances', `PostgreSQL, 2 instances: ${pgWrite}`, write2, floorWrite, 'PostgreSQL floor')
  } catch (error) {
    for (const s of servers) console.error(`${s.logFile}:\n${readFileSync(s.logFile, 'utf8').slice(-2000)}`)
    throw error
  } finally {
    for (const s of servers) await stop(s)
    await cluster.stop()
  }
}

if (process.argv[1]?.endsWith('bench/api.ts')) {
  await runPart('api', apiBenchmark)
  finish()
}
