/**
 * `npm run db:copy-to-postgres`: moves the SQLite database at DATABASE_PATH into the PostgreSQL
 * database at DATABASE_URL (README "Run at scale"). Stop the server first; the target is migrated
 * here and must be empty. Prints the rows copied per table.
 */
import Database from 'better-sqlite3'
import pg from 'pg'
import { parseConfig } from './env'
import { copySqliteToPostgres } from './db/copy-to-postgres'
import { migratePostgres } from './db/postgres'

async function main() {
  const config = parseConfig(process.env)
  if (!config.databaseUrl) throw new Error('Set DATABASE_URL to the PostgreSQL database to copy into (and DATABASE_PATH to the SQLite file).')
  const sqlite = new Database(config.databasePath, { readonly: true, fileMustExist: true })
  const pool = new pg.Pool({ connectionString: config.databaseUrl, max: 2 })
  try {
    await migratePostgres(pool)
    const { rows } = await pool.query<{ n: string }>('SELECT count(*) AS n FROM users')
    if (Number(rows[0]!.n) > 0) throw new Error('The PostgreSQL database already has data: copy into an empty database.')
    const copied = await copySqliteToPostgres(sqlite, pool)
    for (const [table, n] of Object.entries(copied)) process.stdout.write(`${table.padEnd(32)} ${n}\n`)
  } finally {
    sqlite.close()
    await pool.end()
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err)
  process.exit(1)
})
