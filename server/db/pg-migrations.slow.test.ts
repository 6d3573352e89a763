/**
 * drizzle/pg on a throw-away PostgreSQL cluster (docs/decisions/0054-postgresql-schema-beside-sqlite.md):
 * the migrations apply with drizzle's node-postgres migrator and give the tables of
 * server/db/schema-pg, the statistics triggers exist under SQLite's names, and the same writes
 * give the same day rows and month sums on both engines, SQLite's computed here beside them.
 * Skipped without PostgreSQL's binaries, unless REQUIRE_POSTGRES=1 (CI), where that fails.
 */
import Database from 'better-sqlite3'
import { is } from 'drizzle-orm'
import { drizzle as drizzleSqlite } from 'drizzle-orm/better-sqlite3'
import { migrate as migrateSqlite } from 'drizzle-orm/better-sqlite3/migrator'
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres'
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator'
import { getTableConfig, PgTable } from 'drizzle-orm/pg-core'
import { readdirSync } from 'node:fs'
import { join, resolve } from 'node:path'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { drizzleDir } from '../test/migrations'
import { postgresBinDir, startPgCluster, type PgCluster } from '../test/pg-cluster'

const pgMigrations = resolve(import.meta.dirname, '../../drizzle/pg')
const required = process.env.REQUIRE_POSTGRES === '1'
const installed = postgresBinDir() !== undefined

if (!installed && !required)
  console.warn(
    'pg-migrations.slow.test.ts skipped: no PostgreSQL binaries (initdb); install Debian\'s "postgresql" or set PG_BIN (REQUIRE_POSTGRES=1 makes this a failure)',
  )

/** int8 (bigint øre) as a number, as drizzle's `mode: 'number'` reads it; node-postgres gives text by default. */
const numbers: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: string) =>
    oid === 20 ? Number : pg.types.getTypeParser(oid, format as 'text')) as pg.CustomTypesConfig['getTypeParser'],
}

/** The same statement on both engines: `?` placeholders, numbered for PostgreSQL. */
interface Both {
  run(sql: string, ...params: unknown[]): Promise<void>
  /** Rows of both engines: [SQLite's, PostgreSQL's]. */
  all(sql: string): Promise<[unknown[], unknown[]]>
}

const MONTHS = `SELECT company_id, year, month, consumer_address, hot_and_cold_water, hot_water, cold_water, heating, addition, common_expenses, fee, other
  FROM charge_statistics_months ORDER BY company_id, year, month, consumer_address`
const DAYS = `SELECT company_id, day, agreement_id, consumer_address, hot_and_cold_water, hot_water, cold_water, heating, addition, common_expenses, fee, other
  FROM charge_statistics ORDER BY company_id, day, agreement_id, consumer_address`

describe.skipIf(!installed && !required)('PostgreSQL migrations (drizzle/pg)', () => {
  let cluster: PgCluster | undefined
  let pool: pg.Pool
  let sqlite: Database.Database
  let both: Both

  beforeAll(async () => {
    if (!installed) throw new Error('REQUIRE_POSTGRES=1 but no PostgreSQL binaries (initdb) were found: install Debian\'s "postgresql" or set PG_BIN')
    cluster = await startPgCluster()
    pool = new pg.Pool({ connectionString: await cluster.createDatabase('migrations'), max: 2 })
    await migratePg(drizzlePg(pool), { migrationsFolder: pgMigrations })
    sqlite = new Database(':memory:')
    migrateSqlite(drizzleSqlite(sqlite), { migrationsFolder: drizzleDir })
    both = {
      async run(sql, ...params) {
        sqlite.prepare(sql).run(...params)
        let n = 0
        await pool.query(
          sql.replace(/\?/g, () => `$${++n}`),
          params,
        )
      },
      async all(sql) {
        return [sqlite.prepare(sql).all(), (await pool.query({ text: sql, types: numbers })).rows]
      },
    }
  })

  afterAll(async () => {
    await pool?.end()
    sqlite?.close()
    await cluster?.stop()
  })

  it('creates the tables, columns and indexes of server/db/schema-pg', async () => {
    const dir = resolve(import.meta.dirname, 'schema-pg')
    const tables: PgTable[] = []
    for (const file of readdirSync(dir))
      tables.push(...Object.values((await import(join(dir, file))) as Record<string, unknown>).filter((v): v is PgTable => is(v, PgTable)))
    const expected = tables.map((t) => getTableConfig(t)).sort((a, b) => (a.name < b.name ? -1 : 1))
    expect(expected.length).toBeGreaterThanOrEqual(30)

    const columns = await pool.query<{ table_name: string; column_name: string; is_nullable: string; data_type: string }>(
      `SELECT table_name, column_name, is_nullable, data_type FROM information_schema.columns WHERE table_schema = 'public' ORDER BY table_name, column_name`,
    )
    const columnNames = columns.rows.map((r) => `${r.table_name}.${r.column_name} ${r.data_type}${r.is_nullable === 'NO' ? ' not null' : ''}`)
    // The knowledge bank's search is a table of the schema on both engines (decision 0085): no column or index beside it.
    expect(columnNames).toEqual(expected.flatMap((t) => t.columns.map((c) => `${t.name}.${c.name} ${c.getSQLType()}${c.notNull ? ' not null' : ''}`)).sort())

    const indexes = await pool.query<{ name: string; primary: boolean }>(
      `SELECT c.relname AS name, i.indisprimary AS primary FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
       JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'public'`,
    )
    expect(
      indexes.rows
        .filter((r) => !r.primary)
        .map((r) => r.name)
        .sort(),
    ).toEqual(expected.flatMap((t) => t.indexes.map((i) => i.config.name!)).sort())
    // Every name as drizzle has it: PostgreSQL cuts identifiers longer than 63 bytes.
    expect(
      indexes.rows
        .filter((r) => r.primary)
        .map((r) => r.name)
        .sort(),
    ).toEqual(expected.map((t) => (t.primaryKeys[0] ? t.primaryKeys[0].getName() : `${t.name}_pkey`)).sort())
  })

  it('has the triggers of the SQLite migrations, under the same names', async () => {
    const onSqlite = sqlite.prepare(`SELECT name FROM sqlite_master WHERE type = 'trigger' ORDER BY name`).all() as { name: string }[]
    const onPg = await pool.query<{ tgname: string }>(`SELECT tgname FROM pg_trigger WHERE NOT tgisinternal ORDER BY tgname`)
    expect(onSqlite.length).toBeGreaterThan(0)
    expect(onPg.rows.map((r) => r.tgname)).toEqual(onSqlite.map((r) => r.name))
  })

  it('keeps the month sums from the day rows as SQLite does', async () => {
    const day = `INSERT INTO charge_statistics (company_id, day, agreement_id, consumer_address, heating, common_expenses, fee) VALUES (?, ?, ?, ?, ?, ?, ?)`
    const same = async () => {
      const [onSqlite, onPg] = await both.all(MONTHS)
      expect(onPg).toEqual(onSqlite)
      return onSqlite
    }
    // The day rows of statistics-month-sums.migration.test.ts, then the later one it adds.
    await both.run(day, 'c1', '2025-11-03', 'a1', 'Vej 1', 100, 1_000, 0)
    await both.run(day, 'c1', '2025-12-31', 'a2', 'Vej 1', 10, 0, 0)
    await both.run(day, 'c1', '2026-02-10', 'a1', 'Vej 1', 5, 0, -7)
    await both.run(day, 'c1', '2026-02-20', 'a1', 'Vej 2', 0, 50, 0)
    await both.run(day, 'c2', '2026-02-20', 'a9', '', 1, 1, 1)
    await both.run(day, 'c1', '2025-12-01', 'a3', 'Vej 1', 1, 0, 0)
    // Addresses whose order differs between byte order and a language collation.
    await both.run(day, 'c1', '2026-02-11', 'a4', 'vej 3', 2, 0, 0)
    await both.run(day, 'c1', '2026-02-12', 'a5', 'Æblevej 1', 3, 0, 0)
    const rows = await same()
    expect(rows).toContainEqual(
      expect.objectContaining({ company_id: 'c1', year: 2025, month: 12, consumer_address: 'Vej 1', heating: 111, common_expenses: 1_000 }),
    )
    expect(rows.filter((r) => (r as { company_id: string; year: number }).company_id === 'c1' && (r as { year: number }).year === 2026).length).toBe(4 * 11)

    // An upsert on an existing day row (how the invoice triggers write): the difference moves the sums.
    await both.run(
      `INSERT INTO charge_statistics (company_id, day, agreement_id, consumer_address, heating) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (company_id, day, agreement_id, consumer_address) DO UPDATE SET heating = charge_statistics.heating + excluded.heating`,
      'c1',
      '2026-02-10',
      'a1',
      'Vej 1',
      20,
    )
    await same()
    // A day row moved to another day and year; one removed.
    await both.run(`UPDATE charge_statistics SET day = ? WHERE company_id = ? AND day = ? AND agreement_id = ?`, '2026-03-05', 'c1', '2025-11-03', 'a1')
    await same()
    await both.run(`DELETE FROM charge_statistics WHERE company_id = ?`, 'c2')
    expect((await same()).filter((r) => (r as { company_id: string }).company_id === 'c2').every((r) => (r as { heating: number }).heating === 0)).toBe(true)
  })

  it('keeps the day rows and month sums from the invoices as SQLite does', async () => {
    await both.run(`DELETE FROM charge_statistics`)
    await both.run(`DELETE FROM charge_statistics_months`)
    const invoice = async (id: string, kind: string, status: string, paymentDate: string | null, address: string | null) =>
      await both.run(
        `INSERT INTO invoices (id, company_id, kind, number, agreement_id, charge_id, member_user_id, issue_date, due_date, status, description,
           company_name, company_cvr, consumer_name, consumer_address, consumer_email_address, subtotal_ore, vat_ore, total_ore, vat_rate, payment_date, created_at, updated_at)
         VALUES (?, 'c1', ?, ?, 'a1', 'ch-' || ?, 'u1', '2026-01-10', '2026-01-20', ?, 'Rent', 'A/B Test', '12345678', 'Member', ?, 'm@example.com', 0, 0, 0, 0, ?, '2026-01-10T00:00:00.000Z', '2026-01-10T00:00:00.000Z')`,
        id,
        kind,
        Number(id.replace(/\D/g, '')),
        id,
        status,
        address,
        paymentDate,
      )
    let position = 0
    const line = async (invoiceId: string, type: string, ore: number) =>
      await both.run(
        `INSERT INTO invoice_lines (invoice_id, position, id, article_number, type, description, quantity, unit, price_per_unit_ore, vat_rate, vat_ore, total_incl_vat_ore)
         VALUES (?, ?, ?, '1', ?, 'Line', 1, 'pcs', ?, 0, 0, ?)`,
        invoiceId,
        ++position,
        `l${position}`,
        type,
        ore,
        ore,
      )
    const same = async () => {
      const [daysSqlite, daysPg] = await both.all(DAYS)
      expect(daysPg).toEqual(daysSqlite)
      const [monthsSqlite, monthsPg] = await both.all(MONTHS)
      expect(monthsPg).toEqual(monthsSqlite)
      return daysSqlite
    }

    // Lines added to an executed invoice, and to one that executes later.
    await invoice('i1', 'INVOICE', 'EXECUTED', '2026-01-15', 'Vej 1')
    await line('i1', 'HEAT', 1_000)
    await line('i1', 'FEE', 50)
    await invoice('i2', 'INVOICE', 'CREATED', null, null)
    await line('i2', 'COMMON_EXPENSES', 300)
    expect(await same()).toEqual([expect.objectContaining({ day: '2026-01-15', consumer_address: 'Vej 1', heating: 1_000, fee: 50 })])
    await both.run(`UPDATE invoices SET status = 'EXECUTED', payment_date = '2026-02-03' WHERE id = 'i2'`)
    await same()
    // A credit note counts negative; a payment date corrected back into the previous year.
    await invoice('i3', 'CREDIT_NOTE', 'EXECUTED', '2026-02-01', 'Vej 1')
    await line('i3', 'HEAT', 400)
    await same()
    await both.run(`UPDATE invoices SET payment_date = '2025-12-30' WHERE id = 'i1'`)
    await same()
    // Leaving EXECUTED, an update that changes nothing counted, and a deleted credit note.
    await both.run(`UPDATE invoices SET status = 'FAILED' WHERE id = 'i2'`)
    await both.run(`UPDATE invoices SET description = 'Rent again', status = 'EXECUTED' WHERE id = 'i1'`)
    await same()
    await both.run(`DELETE FROM invoices WHERE id = 'i3'`)
    const days = await same()
    expect(days).toContainEqual(expect.objectContaining({ day: '2025-12-30', heating: 1_000, fee: 50 }))
  })

  it('refuses a database whose text is not in byte order', async () => {
    const client = new pg.Client({ connectionString: cluster!.url })
    await client.connect()
    try {
      // A collation other than C: the cluster has no language locales installed for certain, but it has ICU's root.
      await client.query(`CREATE DATABASE not_bytes TEMPLATE template0 LOCALE_PROVIDER icu ICU_LOCALE 'und' LOCALE 'C'`)
    } finally {
      await client.end()
    }
    const wrong = new pg.Pool({ connectionString: cluster!.urlFor('not_bytes'), max: 1 })
    try {
      await expect(migratePg(drizzlePg(wrong), { migrationsFolder: pgMigrations })).rejects.toThrow(/byte order/)
      // Nothing was left behind: the migrations run in one transaction.
      expect((await wrong.query(`SELECT count(*)::int AS n FROM information_schema.tables WHERE table_schema = 'public'`)).rows).toEqual([{ n: 0 }])
    } finally {
      await wrong.end()
    }
  })
})
