/**
 * The product as an operator runs it at scale (README "Run at scale", decision 0058): two instances of
 * `server/main.ts` on one PostgreSQL database behind a load balancer (server/test/round-robin-proxy.ts),
 * the standalone Vipps emulator (`npm run emulator`) shared through VIPPS_BASE_URL. Through the
 * balancer, so writes land on both: agreements are created and accepted, and the member approves
 * each on the emulator's page; billing makes their charges; while they are being sent to Vipps the
 * instance doing the sending is killed with SIGKILL, and a writer and a sync client carry on.
 * Afterwards the survivor has finished: every agreement is billed once for the period, invoice
 * numbers are gap-free, the emulator and the database agree on every charge (sent once, charged
 * once, same amount and status), every write the writer was answered for exists once, and the sync
 * client's copy is exactly what a fresh pull gives. Skipped without PostgreSQL's binaries unless
 * REQUIRE_POSTGRES=1 (CI).
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { and, asc, eq, gte, inArray, like } from 'drizzle-orm'
import pg from 'pg'
import { v7 as uuidv7 } from 'uuid'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { vippsWebhookEvents } from '../shared/contract/webhooks'
import { plusDays } from '../shared/domain/billing-period'
import type { Database_ } from './db/client'
import { JOB_LOCKS } from './db/pg-executor'
import { openPostgres } from './db/postgres'
import { agreementParts, agreements, charges, providerOutbox } from './db/schema/agreements'
import { addresses, companies } from './db/schema/companies'
import { paymentProviders } from './db/schema/payments'
import { DEMO_CVR, DEMO_PASSWORD } from './db/seed'
import { assertBookkeeping } from './features/billing/test-helpers'
import { systemClock, todayInCopenhagen } from './lib/clock'
import { postgresBinDir, startPgCluster, type PgCluster } from './test/pg-cluster'
import { emulatorControl, freePort, startEmulator, startEntry, stopProcess, type Started } from './test/processes'
import { roundRobinProxy, type Balancer } from './test/round-robin-proxy'

const required = process.env.REQUIRE_POSTGRES === '1'
/** Agreements billed in the test: more than the provider outbox sends in one turn (50). */
const AGREEMENTS = 80
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

interface Answer {
  status: number
  json: any
}

describe.skipIf(!postgresBinDir() && !required)('two instances on PostgreSQL behind a load balancer, one killed', () => {
  let cluster: PgCluster
  let dir: string
  let emulator: Started
  let emulatorUrl: string
  let balancer: Balancer
  let database: Database_
  let locks: pg.Pool
  const instances: { name: string; port: number; started: Started }[] = []

  /** A request through the balancer; a write is repeated with its Idempotency-Key while the answer is lost (502, a broken connection). */
  async function api(method: string, path: string, token?: string, body?: unknown): Promise<Answer> {
    const key = method === 'GET' ? undefined : uuidv7()
    for (let attempt = 1; ; attempt++) {
      try {
        const res = await fetch(`${balancer.url}/api${path}`, {
          method,
          headers: {
            ...(token ? { Authorization: `Bearer ${token}` } : {}),
            ...(key ? { 'Idempotency-Key': key } : {}),
            ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
          },
          body: body === undefined ? undefined : JSON.stringify(body),
        })
        if (res.status > 502 || res.status === 500) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}\n${logs()}`)
        if (res.status !== 502 || attempt >= 20) return { status: res.status, json: await res.json().catch(() => undefined) }
      } catch (err) {
        if (attempt >= 20) throw err
      }
      await pause(100)
    }
  }

  const control = (method: 'GET' | 'POST', path: string, body?: unknown) => emulatorControl(emulatorUrl)(method, path, body)

  /** The end of each instance's output, for a failure's message. */
  const logs = () => instances.map((i) => `${i.name}:\n${i.started.output().slice(-4000)}`).join('\n')

  /** Waits until `check` answers true, polling; fails with `what` and the instances' output after `timeoutMs`. */
  async function until(what: string, check: () => Promise<boolean>, timeoutMs = 60_000, everyMs = 100): Promise<void> {
    const end = Date.now() + timeoutMs
    while (!(await check())) {
      if (Date.now() > end) throw new Error(`${what}: not within ${timeoutMs / 1000} s\n${logs()}`)
      await pause(everyMs)
    }
  }

  beforeAll(async () => {
    cluster = await startPgCluster()
    const url = await cluster.createDatabase('instances')
    dir = mkdtempSync(join(tmpdir(), 'bk-instances-'))
    const emulatorPort = await freePort()
    emulatorUrl = `http://localhost:${emulatorPort}`
    emulator = await startEmulator(emulatorPort, join(dir, 'vipps-emulator.json'))
    const ports = [await freePort(), await freePort()]
    balancer = await roundRobinProxy(ports)
    // Each instance names its connections, so the test can tell which one holds a job's turn.
    const start = async (n: number, demoData: boolean) => {
      const name = `instance-${n}`
      const env = {
        APP_ENV: 'test',
        PORT: String(ports[n]),
        PUBLIC_URL: balancer.url,
        DATABASE_URL: `${url}&application_name=${name}`,
        APP_SECRET_KEY: 'multi-instance-test-secret-key-0123456789',
        VIPPS_BASE_URL: emulatorUrl,
        DEMO_DATA: demoData ? '1' : '0',
        MAIL_OUTBOX_DIR: join(dir, 'mail'),
        ATTACHMENTS_DIR: join(dir, 'attachments'),
        LOG_LEVEL: 'info',
        // The killed instance's claimed sends are taken over when their lease runs out: soon, here.
        CLAIM_LEASE_SECONDS: '5',
      }
      instances.push({ name, port: ports[n]!, started: await startEntry('server/main.ts', env, '"msg":"listening"', 90_000) })
    }
    // Both at once, as a deploy starts them: one migrates and seeds the demo, the other waits or finds it done.
    await Promise.all([start(0, true), start(1, true)])
    database = await openPostgres(url, { max: 2 })
    locks = new pg.Pool({ connectionString: url, max: 1 })
  }, 240_000)

  afterAll(async () => {
    for (const i of instances) await stopProcess(i.started.child, 'SIGKILL')
    if (emulator) await stopProcess(emulator.child, 'SIGKILL')
    await balancer?.close()
    await locks?.end()
    await database?.close()
    await cluster?.stop()
    if (dir) rmSync(dir, { recursive: true, force: true })
  })

  it('bills every agreement once, the emulator and the database agree, and no write or change is lost or doubled', async () => {
    const testStart = new Date().toISOString()
    const { db } = database
    for (const i of instances) expect((await (await fetch(`http://127.0.0.1:${i.port}/api/health`)).json()) as unknown).toMatchObject({ engine: 'postgres' })

    const login = async (email: string) => {
      const res = await api('POST', '/auth/login', undefined, { type: 'email', email, password: DEMO_PASSWORD })
      expect(res.status, JSON.stringify(res.json)).toBe(200)
      return res.json.accessToken as string
    }
    const admin = await login('admin@solgaarden.dk')
    const residents = await Promise.all(
      Array.from({ length: 15 }, (_, k) => `beboer${String(k + 1).padStart(2, '0')}@solgaarden.dk`).map(async (email) => ({
        email,
        token: await login(email),
      })),
    )
    const company = (await db.select().from(companies).where(eq(companies.cvr, DEMO_CVR)).get())!.id
    const provider = (await db.select().from(paymentProviders).where(eq(paymentProviders.companyId, company)).get())!.id
    const addressIds = (await db.select({ id: addresses.id }).from(addresses).where(eq(addresses.companyId, company)).orderBy(asc(addresses.id)).all()).map(
      (a) => a.id,
    )
    const hook = await api('POST', `/webhook/register/${provider}`, await login('superadmin@boligkasse.dk'), {
      webhookUrl: `${balancer.url}/api/webhooks/vipps/${provider}`,
      events: [...vippsWebhookEvents],
    })
    expect(hook.status, JSON.stringify(hook.json)).toBe(201)

    // A sync client pulling throughout, through the balancer, as the installed app does.
    const puller = syncClient(api, admin)
    const pulling = puller.run()

    // Agreements due in two days (inside billing's three-day lead): created by the administrator,
    // accepted by their member, approved on the emulator’s page, eight at a time (in one association: they contend for its numbers).
    const due = plusDays(todayInCopenhagen(systemClock), 2)
    const payload = (k: number, startPaymentDate: string, description: string) => ({
      id: uuidv7(),
      memberName: `Medlem ${k}`,
      emailAddress: residents[k % residents.length]!.email,
      companyId: company,
      paymentProviderId: provider,
      linkedAddress: [addressIds[k % addressIds.length]],
      currency: 'DKK',
      startPaymentDate,
      paymentPeriod: 'MONTHLY',
      parts: [{ type: 'COMMON_EXPENSES', description, price: 100_000 + k }],
    })
    const billed: string[] = []
    const makeOne = async (k: number) => {
      const created = await api('POST', '/agreement', admin, payload(k, due, `Boligafgift ${k}`))
      expect(created.status, JSON.stringify(created.json)).toBe(201)
      const accepted = await api('POST', `/agreement/${created.json.id}/accept`, residents[k % residents.length]!.token)
      expect(accepted.status, JSON.stringify(accepted.json)).toBe(200)
      const approved = await fetch(accepted.json.confirmationUrl as string, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ action: 'approve' }).toString(),
        redirect: 'manual',
      })
      expect(approved.status).toBe(303)
      billed.push(created.json.id as string)
    }
    for (let k = 0; k < AGREEMENTS; k += 8) await Promise.all([k, k + 1, k + 2, k + 3, k + 4, k + 5, k + 6, k + 7].filter((n) => n < AGREEMENTS).map(makeOne))

    // The emulator's webhooks (and the instances' polling) make them ACCEPTED with their Vipps agreement.
    await until('every agreement ACCEPTED', async () => {
      const rows = await db
        .select({ status: agreements.status, vipps: agreements.vippsAgreementId })
        .from(agreements)
        .where(inArray(agreements.id, billed))
        .all()
      return rows.length === AGREEMENTS && rows.every((r) => r.status === 'ACCEPTED' && r.vipps)
    })

    // A writer carries on through the kill: agreements starting later (not billed now), each
    // repeated with its key until answered; every one it was answered for must exist once.
    let writing = true
    const written: string[] = []
    const writer = (async () => {
      const later = plusDays(due, 60)
      for (let k = 0; writing; k++) {
        const res = await api('POST', '/agreement', admin, payload(k, later, `Writer ${k}`))
        expect(res.status, JSON.stringify(res.json)).toBe(201)
        written.push(`Writer ${k}`)
      }
    })()

    // Billing makes the charges on whichever instance's turn it is; the provider outbox sends them
    // to the emulator. The instance holding the outbox's turn is killed mid-way through the sends.
    const ours = () => db.select().from(charges).where(inArray(charges.agreementId, billed)).all()
    const sends = async () => {
      const rows = await db
        .select({ status: providerOutbox.status })
        .from(providerOutbox)
        .where(and(eq(providerOutbox.kind, 'CREATE_CHARGE'), inArray(providerOutbox.agreementId, billed)))
        .all()
      return { sent: rows.filter((r) => r.status === 'sent').length, pending: rows.filter((r) => r.status === 'pending').length }
    }
    const sending = async () => {
      const { rows } = await locks.query<{ name: string }>(
        `SELECT a.application_name AS name FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
          WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 2 AND l.classid = $1
            AND l.objid = (hashtext('job:agreements-vipps')::bigint & 4294967295)`,
        [JOB_LOCKS],
      )
      return rows[0]?.name
    }
    let victim: (typeof instances)[number] | undefined
    let atKill = { sent: 0, pending: 0 }
    await until(
      'an instance in the middle of sending the charges',
      async () => {
        const holder = await sending()
        atKill = await sends()
        if (!holder || atKill.sent === 0 || atKill.pending === 0) return false
        victim = instances.find((i) => i.name === holder)!
        victim.started.child.kill('SIGKILL')
        return true
      },
      90_000,
      // Often: a turn of 50 sends may take well under a second.
      5,
    )
    const survivor = instances.find((i) => i !== victim)!
    await new Promise((resolve) =>
      victim!.started.child.exitCode === null && victim!.started.child.signalCode === null ? victim!.started.child.once('exit', resolve) : resolve(undefined),
    )
    expect(victim!.started.child.signalCode).toBe('SIGKILL')

    // The survivor's next turns send the rest, and again what the victim had in flight (same key: one charge at Vipps).
    await until('every charge sent', async () => {
      const s = await sends()
      return s.sent === AGREEMENTS && s.pending === 0
    })
    writing = false
    await writer

    // The emulator's day comes: it charges, tells the product by webhook, and the survivor records it.
    await control('POST', 'clock', { set: `${due}T08:00:00.000Z` })
    await control('POST', 'process-due')
    await control('POST', 'deliver-webhooks', { all: true })
    await until('every charge EXECUTED', async () => (await ours()).every((c) => c.status === 'EXECUTED' && c.vippsStatus === 'CHARGED'))
    await puller.stop()
    await pulling

    // Billed once per period, each charge with its invoice and one send; invoice numbers 1..n.
    await assertBookkeeping(db)
    const mine = await ours()
    expect(mine.map((c) => [c.kind, c.due]).sort()).toEqual(Array.from({ length: AGREEMENTS }, () => ['REGULAR', due]))
    const failed = await db.select().from(providerOutbox).where(eq(providerOutbox.status, 'failed')).all()
    expect(failed, JSON.stringify(failed)).toEqual([])

    // The emulator and the database agree on every charge made in the test: same ids, agreement, amount, status.
    const state = await control('GET', 'state')
    const atVipps = Object.values(state.charges as Record<string, { id: string; agreementId: string; amount: number; status: string }>)
    const made = await db.select().from(charges).where(gte(charges.createdAt, testStart)).all()
    const vippsAgreement = new Map(
      (await db.select({ id: agreements.id, vipps: agreements.vippsAgreementId }).from(agreements).all()).map((a) => [a.id, a.vipps]),
    )
    expect(atVipps.map((c) => ({ id: c.id, agreementId: c.agreementId, amount: c.amount, status: c.status })).sort((x, y) => x.id.localeCompare(y.id))).toEqual(
      made
        .map((c) => ({ id: c.vippsChargeId, agreementId: vippsAgreement.get(c.agreementId), amount: c.amountOre, status: c.vippsStatus }))
        .sort((x, y) => x.id!.localeCompare(y.id!)),
    )

    // Every write the writer was answered for, once, though an instance died under some of them.
    const parts = await db.select({ description: agreementParts.description }).from(agreementParts).where(like(agreementParts.description, 'Writer %')).all()
    expect(parts.map((p) => p.description).sort()).toEqual([...written].sort())

    // The sync client's copy is what a fresh pull gives now: nothing missed, nothing stale.
    expect(puller.problems).toEqual([])
    const fresh = syncClient(api, admin)
    await fresh.drain()
    expect(puller.copy.size).toBe(fresh.copy.size)
    expect(Object.fromEntries(puller.copy)).toEqual(Object.fromEntries(fresh.copy))

    // Not vacuous: both instances answered, the kill came mid-send, and the client pulled throughout.
    for (const port of [victim!.port, survivor.port]) expect(balancer.answered.get(port)).toBeGreaterThan(50)
    expect(atKill.sent).toBeGreaterThan(0)
    expect(atKill.pending).toBeGreaterThan(0)
    expect(written.length).toBeGreaterThan(5)
    expect(puller.pages).toBeGreaterThan(20)
    expect(survivor.started.child.exitCode).toBeNull()
  }, 300_000)
})

/**
 * A client of GET /api/sync keeping a copy (entity/id → version and data), as client/sync/pull.ts
 * does; `problems` collects what must not happen: a reset, or a row going back to an older version.
 */
function syncClient(api: (method: string, path: string, token?: string) => Promise<Answer>, token: string) {
  const copy = new Map<string, { version: number; data: unknown }>()
  const problems: string[] = []
  let cursor: string | undefined
  let running = true
  let pages = 0
  async function page(): Promise<boolean> {
    const res = await api('GET', `/sync?limit=100${cursor ? `&cursor=${cursor}` : ''}`, token)
    if (res.status !== 200) throw new Error(`GET /api/sync: ${res.status} ${JSON.stringify(res.json)}`)
    pages++
    if (res.json.reset && cursor) problems.push(`reset at page ${pages}`)
    for (const change of res.json.changes as { entity: string; id: string; op: string; version?: number; data?: unknown }[]) {
      const key = `${change.entity}/${change.id}`
      if (change.op === 'delete') copy.delete(key)
      else {
        const had = copy.get(key)
        if (had && had.version > change.version!) problems.push(`${key} went back from version ${had.version} to ${change.version}`)
        copy.set(key, { version: change.version!, data: change.data })
      }
    }
    cursor = res.json.cursor as string
    return res.json.hasMore as boolean
  }
  const drain = async () => {
    while (await page());
  }
  return {
    copy,
    problems,
    get pages() {
      return pages
    },
    drain,
    async run() {
      while (running) {
        if (!(await page())) await pause(100)
      }
      await drain()
    },
    stop: async () => {
      running = false
    },
  }
}
