/**
 * Copies a SQLite database of the app into an empty, migrated PostgreSQL database (docs/decisions/0054-postgresql-schema-beside-sqlite.md):
 * how an association that outgrew one machine moves (`npm run db:copy-to-postgres`), and how the
 * tests and the bench put a seeded database on PostgreSQL. Tables go in foreign-key order, in
 * chunks, as one transaction. The statistics pre-aggregates are not copied: PostgreSQL's triggers
 * build them from the invoice lines as they arrive (drizzle/pg/0002_statistics_triggers.sql), the
 * same sums SQLite's triggers made. The change log's seq continues after the copied ones.
 */
import type Database from 'better-sqlite3'
import { getTableColumns, is } from 'drizzle-orm'
import { getTableConfig, SQLiteTable } from 'drizzle-orm/sqlite-core'
import type pg from 'pg'
import * as agreements from './schema/agreements'
import * as bookkeeping from './schema/bookkeeping'
import * as assemblies from './schema/assemblies'
import * as companies from './schema/companies'
import * as documents from './schema/documents'
import * as erasures from './schema/erasures'
import * as forum from './schema/forum'
import * as households from './schema/households'
import * as invoices from './schema/invoices'
import * as knowledge from './schema/knowledge'
import * as lending from './schema/lending'
import * as market from './schema/market'
import * as messages from './schema/messages'
import * as notifications from './schema/notifications'
import * as oidc from './schema/oidc'
import * as payments from './schema/payments'
import * as platform from './schema/platform'
import * as statements from './schema/statements'
import * as statistics from './schema/statistics'
import * as sync from './schema/sync'
import * as users from './schema/users'

/** Built by PostgreSQL's triggers from the copied invoice lines. */
const builtByTriggers = new Set(['charge_statistics', 'charge_statistics_months'])

const ROWS_PER_INSERT = 1000

/** Every table of the schema, each after the tables it refers to. */
export function tablesInForeignKeyOrder(): SQLiteTable[] {
  const tables = [
    agreements,
    assemblies,
    companies,
    documents,
    erasures,
    forum,
    households,
    invoices,
    knowledge,
    lending,
    market,
    messages,
    notifications,
    oidc,
    payments,
    platform,
    statements,
    statistics,
    sync,
    users,
    // Last: the closed months' triggers refuse invoices dated in a closed month, so those come first.
    bookkeeping,
  ]
    .flatMap((module) => Object.values(module))
    .filter((value): value is SQLiteTable => is(value, SQLiteTable))
  const byName = new Map(tables.map((t) => [getTableConfig(t).name, t]))
  const ordered: SQLiteTable[] = []
  const placed = new Set<string>()
  const place = (table: SQLiteTable, path: string[]) => {
    const { name, foreignKeys } = getTableConfig(table)
    if (placed.has(name)) return
    if (path.includes(name)) throw new Error(`foreign keys in a cycle: ${[...path, name].join(' → ')}`)
    for (const fk of foreignKeys) {
      const target = getTableConfig(fk.reference().foreignTable).name
      if (target !== name) place(byName.get(target)!, [...path, name])
    }
    placed.add(name)
    ordered.push(table)
  }
  for (const table of tables) place(table, [])
  return ordered
}

/** Copies every row; answers the rows copied per table. The target must be migrated and empty. */
export async function copySqliteToPostgres(sqlite: Database.Database, pool: pg.Pool): Promise<Record<string, number>> {
  const copied: Record<string, number> = {}
  const client = await pool.connect()
  try {
    await client.query('BEGIN')
    for (const table of tablesInForeignKeyOrder()) {
      const { name } = getTableConfig(table)
      if (builtByTriggers.has(name)) continue
      const columns = Object.values(getTableColumns(table))
      // JSON is stored as text in SQLite: parsed here so PostgreSQL's json column gets the value, not a string.
      const json = columns.filter((c) => c.columnType === 'SQLiteTextJson').map((c) => c.name)
      const rows = sqlite.prepare(`SELECT * FROM "${name}"`).iterate() as IterableIterator<Record<string, unknown>>
      let chunk: Record<string, unknown>[] = []
      let n = 0
      const flush = async () => {
        if (!chunk.length) return
        const list = columns.map((c) => `"${c.name}"`).join(', ')
        // json_populate_recordset casts each field to its column's type (0/1 to boolean, text to json, …).
        await client.query(`INSERT INTO "${name}" (${list}) SELECT ${list} FROM json_populate_recordset(NULL::"${name}", $1::json)`, [JSON.stringify(chunk)])
        n += chunk.length
        chunk = []
      }
      for (const row of rows) {
        for (const column of json) if (typeof row[column] === 'string') row[column] = JSON.parse(row[column])
        chunk.push(row)
        if (chunk.length === ROWS_PER_INSERT) await flush()
      }
      await flush()
      copied[name] = n
    }
    // The change log's seq goes on past every seq SQLite ever gave out (clients' cursors): the rows
    // left, what compaction removed (the rows may all be gone), and AUTOINCREMENT's counter.
    const given = Math.max(
      ...[
        'SELECT max(seq) AS n FROM change_log',
        "SELECT value AS n FROM sync_state WHERE key = 'compactedThrough'",
        "SELECT seq AS n FROM sqlite_sequence WHERE name = 'change_log'",
      ].map((q) => Number((sqlite.prepare(q).get() as { n: number | null } | undefined)?.n ?? 0)),
    )
    await client.query(`SELECT setval(pg_get_serial_sequence('change_log', 'seq'), $1, $2)`, [Math.max(given, 1), given > 0])
    await client.query('COMMIT')
    return copied
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined)
    throw error
  } finally {
    client.release()
  }
}
