/**
 * Billing on PostgreSQL with two processes at once (docs/decisions/0058-postgresql-writes-change-log-and-jobs.md), as two instances would: the seeded
 * agreements are copied into a throw-away cluster, two `npm run billing` processes bill them
 * together, one is killed with SIGKILL mid-run, and a run afterwards (the survivor's next turn)
 * finishes. Then every agreement is billed once per period, with one invoice and one queued
 * provider call per charge, and invoice numbers 1..n per company without a gap: SERIALIZABLE
 * transactions that lose run again, the unique (agreement, due) stops a second charge, and the
 * number counter is a row both take in turn. Skipped without PostgreSQL's binaries unless
 * REQUIRE_POSTGRES=1 (CI).
 */
import { execFileSync, spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import Database from 'better-sqlite3'
import { format } from 'date-fns'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { copySqliteToPostgres } from '../../db/copy-to-postgres'
import { migratePostgres, openPostgres } from '../../db/postgres'
import { postgresBinDir, startPgCluster, type PgCluster } from '../../test/pg-cluster'
import { assertBookkeeping } from './test-helpers'

const root = resolve(import.meta.dirname, '../../..')
const required = process.env.REQUIRE_POSTGRES === '1'
const AGREEMENTS = 3000

describe.skipIf(!postgresBinDir() && !required)('two billing processes on PostgreSQL, one killed', () => {
  let cluster: PgCluster
  let dir: string
  beforeAll(async () => {
    cluster = await startPgCluster()
    dir = mkdtempSync(join(tmpdir(), 'bk-pg-kill-'))
  }, 60_000)
  afterAll(async () => {
    await cluster?.stop()
    if (dir) rmSync(dir, { recursive: true, force: true })
  })

  it('bill every agreement and period once between them, with gap-free invoice numbers', async () => {
    const path = join(dir, 'seed.db')
    const tomorrow = format(new Date(Date.now() + 86_400_000), 'yyyy-MM-dd')
    execFileSync(process.execPath, ['--import', 'tsx', 'bench/billing.ts', 'seed', path], {
      cwd: root,
      env: { ...process.env, BENCH_AGREEMENTS: String(AGREEMENTS), BENCH_FIRST_DUE: tomorrow },
    })
    const url = await cluster.createDatabase('billing')
    const pool = new pg.Pool({ connectionString: url, max: 2 })
    const sqlite = new Database(path, { readonly: true })
    try {
      await migratePostgres(pool)
      await copySqliteToPostgres(sqlite, pool)
    } finally {
      sqlite.close()
    }
    const charges = async () => Number((await pool.query<{ n: string }>('SELECT count(*) AS n FROM charges')).rows[0]!.n)

    const billing = () =>
      spawn(process.execPath, ['--import', 'tsx', 'server/billing-once.ts'], {
        cwd: root,
        env: { ...process.env, DATABASE_URL: url, APP_SECRET_KEY: 'pg-kill-test', LOG_LEVEL: 'silent', APP_ENV: 'test', DEMO_DATA: '0' },
        stdio: ['ignore', 'pipe', 'pipe'],
      })
    const ended = (child: ReturnType<typeof billing>) =>
      new Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>((done) => {
        let stderr = ''
        child.stderr!.on('data', (d) => (stderr += d))
        child.on('exit', (code, signal) => done({ code, signal, stderr }))
      })
    const victim = billing()
    const survivor = billing()
    const outcomes = Promise.all([ended(victim), ended(survivor)])
    // Killed once both are well under way.
    let atKill = 0
    while (victim.exitCode === null && (atKill = await charges()) < 400) await new Promise((r) => setTimeout(r, 10))
    victim.kill('SIGKILL')
    const [killed, finished] = await outcomes
    expect(killed.signal, killed.stderr).toBe('SIGKILL')
    expect(finished.code, finished.stderr).toBe(0)
    expect(atKill).toBeLessThan(AGREEMENTS)

    // What was committed when the victim died is whole: no charge without its invoice and outbox row.
    const database = await openPostgres(url, { max: 2 })
    try {
      await assertBookkeeping(database.db)
      // The next turn (a billing job on the surviving instance) finishes what the dead one held.
      expect(await ended(billing())).toMatchObject({ code: 0 })
      expect(await assertBookkeeping(database.db)).toMatchObject({ regular: AGREEMENTS, invoices: AGREEMENTS })
      const moved = await pool.query<{ n: string }>('SELECT count(*) AS n FROM agreements WHERE next_regular_payment_date > $1', [tomorrow])
      expect(Number(moved.rows[0]!.n)).toBe(AGREEMENTS)
    } finally {
      await database.close()
      await pool.end()
    }
  }, 240_000)
})
