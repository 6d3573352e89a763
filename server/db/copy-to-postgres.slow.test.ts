/**
 * A billed SQLite database copied into PostgreSQL (server/db/copy-to-postgres.ts) holds the same
 * rows, and PostgreSQL's triggers rebuild the same statistics pre-aggregates from the copied
 * invoice lines. Skipped without PostgreSQL's binaries unless REQUIRE_POSTGRES=1 (CI).
 */
import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import Database from 'better-sqlite3'
import { format } from 'date-fns'
import { getTableConfig } from 'drizzle-orm/sqlite-core'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { postgresBinDir, startPgCluster, type PgCluster } from '../test/pg-cluster'
import { copySqliteToPostgres, tablesInForeignKeyOrder } from './copy-to-postgres'
import { migratePostgres } from './postgres'

const root = resolve(import.meta.dirname, '../..')
const required = process.env.REQUIRE_POSTGRES === '1'
const STATISTICS = [
  'SELECT company_id, day, agreement_id, consumer_address, hot_and_cold_water, hot_water, cold_water, heating, addition, common_expenses, fee, other FROM charge_statistics ORDER BY 1, 2, 3, 4',
  'SELECT * FROM charge_statistics_months ORDER BY 1, 2, 3, 4',
]

describe.skipIf(!postgresBinDir() && !required)('copying a SQLite database into PostgreSQL', () => {
  let cluster: PgCluster
  let dir: string
  beforeAll(async () => {
    cluster = await startPgCluster()
    dir = mkdtempSync(join(tmpdir(), 'bk-copy-'))
  }, 60_000)
  afterAll(async () => {
    await cluster?.stop()
    if (dir) rmSync(dir, { recursive: true, force: true })
  })

  it('keeps every row, and the statistics come out the same', async () => {
    const path = join(dir, 'app.db')
    const tomorrow = format(new Date(Date.now() + 86_400_000), 'yyyy-MM-dd')
    execFileSync(process.execPath, ['--import', 'tsx', 'bench/billing.ts', 'seed', path], {
      cwd: root,
      env: { ...process.env, BENCH_AGREEMENTS: '400', BENCH_FIRST_DUE: tomorrow },
    })
    execFileSync(process.execPath, ['--import', 'tsx', 'server/billing-once.ts'], {
      cwd: root,
      env: { ...process.env, DATABASE_PATH: path, APP_SECRET_KEY: 'copy-test', LOG_LEVEL: 'silent', APP_ENV: 'test', DEMO_DATA: '0' },
    })
    const sqlite = new Database(path)
    // Half the invoices paid: SQLite's triggers count them into the statistics.
    sqlite.exec(`UPDATE invoices SET status = 'EXECUTED', payment_date = issue_date WHERE rowid % 2 = 0`)
    // Housekeeping compacted the whole change log: no row is left, yet clients hold cursors up to its last seq.
    const last = (sqlite.prepare('SELECT max(seq) AS s FROM change_log').get() as { s: number }).s
    expect(last).toBeGreaterThan(0)
    sqlite.exec(
      `DELETE FROM change_log; INSERT INTO sync_state (key, value) VALUES ('compactedThrough', ${last}) ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
    )

    const pool = new pg.Pool({ connectionString: await cluster.createDatabase('copy'), max: 2 })
    try {
      await migratePostgres(pool)
      const copied = await copySqliteToPostgres(sqlite, pool)
      expect(copied.invoices).toBe(400)
      expect(copied.invoice_lines).toBeGreaterThanOrEqual(800)
      for (const table of tablesInForeignKeyOrder()) {
        const { name } = getTableConfig(table)
        const count = (sql: string) => Number(Object.values((sqlite.prepare(sql).get() as object) ?? {})[0])
        const { rows } = await pool.query<{ n: string }>(`SELECT count(*) AS n FROM "${name}"`)
        expect(Number(rows[0]!.n), name).toBe(count(`SELECT count(*) FROM "${name}"`))
      }
      for (const sql of STATISTICS) {
        const lite = sqlite.prepare(sql).raw().all()
        const { rows } = await pool.query({ text: sql, rowMode: 'array' })
        expect(lite.length).toBeGreaterThan(0)
        expect(rows.map((r: unknown[]) => r.map((v) => (typeof v === 'string' && /^-?\d+$/.test(v) ? Number(v) : v)))).toEqual(lite)
      }
      // The change log goes on after every seq SQLite gave out (clients' cursors stay valid).
      await pool.query(`INSERT INTO change_log (entity, entity_id, op, created_at) VALUES ('agreement', 'x', 'upsert', '2026-12-01T00:00:00.000Z')`)
      const { rows: next } = await pool.query<{ s: string }>('SELECT max(seq) AS s FROM change_log')
      expect(Number(next[0]!.s)).toBe(last + 1)
    } finally {
      sqlite.close()
      await pool.end()
    }
  }, 120_000)
})
