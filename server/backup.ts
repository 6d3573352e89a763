/**
 * `npm run backup [target]`: a consistent copy of the SQLite database at DATABASE_PATH while the
 * server runs (server/db/backup.ts). Without a target the copy goes to BACKUP_DIR (default
 * `./data/backups`) as `app-<UTC time>.db`. Prints where it went; exits 1 with the reason when it
 * could not make a checked copy. Restoring is described in README.md ("Backups").
 */
import { join } from 'node:path'
import { backupDatabase, backupFileName } from './db/backup'
import { parseConfig } from './env'

async function main() {
  const config = parseConfig(process.env)
  const target = process.argv[2] ?? join(process.env.BACKUP_DIR ?? './data/backups', backupFileName(new Date()))
  const r = await backupDatabase(config.databasePath, target)
  process.stdout.write(`backup: ${r.path} (${(r.bytes / 1024 / 1024).toFixed(1)} MB, integrity ok) in ${Math.round(r.ms)} ms\n`)
}

main().catch((err: unknown) => {
  process.stderr.write(`backup failed: ${(err as Error).message}\n`)
  process.exit(1)
})
