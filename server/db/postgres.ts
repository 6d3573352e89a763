/**
 * The server's database on PostgreSQL (DATABASE_URL, docs/decisions/0057-one-query-text-two-engines.md): the pool and drizzle handle of
 * server/db/pg-executor.ts, migrated with drizzle/pg. Several instances may start together: the
 * migrations run under a session advisory lock, so one applies them and the others wait and then
 * find nothing left to do.
 */
import { drizzle } from 'drizzle-orm/node-postgres'
import { migrate } from 'drizzle-orm/node-postgres/migrator'
import type pg from 'pg'
import type { Database_, Db } from './client'
import { openPgDatabase, type SESSION_LIMITS } from './pg-executor'
import { fromRoot } from '../lib/project-root'

const migrationsFolder = fromRoot('drizzle', 'pg')

/** Any fixed number: the advisory lock under which one instance migrates at a time. */
const MIGRATION_LOCK = 0x62_6b_6d_67 // "bkmg"

export async function openPostgres(
  url: string,
  options: { max?: number; idleTimeoutMillis?: number; migrate?: boolean; limits?: Partial<typeof SESSION_LIMITS> } = {},
): Promise<Database_> {
  const database = openPgDatabase(url, options)
  try {
    // A test's copy of an already migrated template skips the check (server/test/pg-template.ts).
    if (options.migrate !== false) await migratePostgres(database.pool)
  } catch (error) {
    await database.close()
    throw error
  }
  return { db: database.db as unknown as Db, engine: 'postgres', url, pool: database.pool, close: () => database.close() }
}

/** Applies drizzle/pg's migrations not yet applied, one instance at a time. */
export async function migratePostgres(pool: pg.Pool): Promise<void> {
  const client = await pool.connect()
  // A connection that breaks while migrating fails the migration (and the start), not the process.
  const failed = (error: Error) => void error
  client.on('error', failed)
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK])
    try {
      await requireIcu(client)
      await migrate(drizzle(client), { migrationsFolder })
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK])
    }
  } finally {
    client.off('error', failed)
    client.release()
  }
}

/**
 * Searches fold letters with ICU's root collation (`und-x-icu`, server/db/statement.ts): a
 * PostgreSQL built without ICU would fail every search, so the start fails instead, saying why.
 */
async function requireIcu(client: pg.PoolClient): Promise<void> {
  const { rowCount } = await client.query("SELECT 1 FROM pg_collation WHERE collname = 'und-x-icu'")
  if (!rowCount) throw new Error('This PostgreSQL has no ICU collations (und-x-icu): use a build with ICU, as Debian, Ubuntu and the managed services ship')
}
