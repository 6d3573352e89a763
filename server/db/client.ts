import { mkdirSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import Database from 'better-sqlite3'
import { drizzle, type BetterSQLite3Database } from 'drizzle-orm/better-sqlite3'
import { migrate } from 'drizzle-orm/better-sqlite3/migrator'

export type Db = BetterSQLite3Database

/**
 * The better-sqlite3 connection under a drizzle handle (the database or a transaction on it), for
 * the few writers that keep prepared statements (sync/change-log.ts, vipps/provider-outbox.ts).
 */
export const connectionOf = (db: Db): Database.Database =>
  (db as { $client?: Database.Database }).$client ?? (db as unknown as { session: { client: Database.Database } }).session.client

export interface Database_ {
  db: Db
  sqlite: Database.Database
  close(): void
}

const migrationsFolder = resolve(dirname(fileURLToPath(import.meta.url)), '../../drizzle')

/**
 * Opens (and creates) the SQLite file, turns on WAL and foreign keys, and applies the generated
 * migrations in drizzle/. `:memory:` gives a private database for a test.
 */
export function openDatabase(path: string): Database_ {
  if (path !== ':memory:') mkdirSync(dirname(resolve(path)), { recursive: true })
  const sqlite = new Database(path)
  sqlite.pragma('journal_mode = WAL')
  sqlite.pragma('foreign_keys = ON')
  sqlite.pragma('busy_timeout = 5000')
  sqlite.pragma('synchronous = NORMAL')
  const db = drizzle(sqlite)
  migrate(db, { migrationsFolder })
  return { db, sqlite, close: () => sqlite.close() }
}
