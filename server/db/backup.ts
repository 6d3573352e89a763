import { existsSync, linkSync, mkdirSync, rmSync, statSync, unlinkSync, writeFileSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import Database from 'better-sqlite3'

export interface BackupResult {
  path: string
  bytes: number
  ms: number
}

/**
 * A consistent copy of the SQLite file while the server keeps running
 * (docs/decisions/0052-online-backups-of-the-sqlite-file.md). SQLite's online backup API copies one snapshot: committed transactions, WAL
 * included, never a half-written one; a write by another process while it copies makes it start
 * again, so the copy is always of one moment. Copying the file with `cp` is not safe: the file
 * and its `-wal` are two files that a writer changes between the two reads.
 *
 * The copy is written beside its target under a temporary name, checked (`integrity_check`),
 * turned into a self-contained file (rollback journal, no `-wal` needed) and only then linked
 * into place, so a backup that fails half-way never leaves a file that looks like a backup. An
 * existing target is refused, never overwritten.
 *
 * The copy holds every member's personal data: it is readable by its owner only (0600, in a
 * folder made 0700 when this makes it), as the server's secret key and attachments are, whatever
 * the umask. The file is made empty with that mode before SQLite writes into it, so it is never
 * readable by others, not even half-written.
 */
export async function backupDatabase(source: string, target: string): Promise<BackupResult> {
  const started = performance.now()
  const to = resolve(target)
  if (!existsSync(source)) throw new Error(`no database at ${source}`)
  if (existsSync(to)) throw new Error(`${to} exists already; a backup never overwrites a file`)
  mkdirSync(dirname(to), { recursive: true, mode: 0o700 })
  const partial = `${to}.partial`
  rmSync(partial, { force: true })
  writeFileSync(partial, '', { mode: 0o600, flag: 'wx' })
  const db = new Database(source, { readonly: true, fileMustExist: true })
  try {
    await db.backup(partial)
  } finally {
    db.close()
  }
  try {
    const copy = new Database(partial)
    try {
      const check = copy.pragma('integrity_check', { simple: true })
      if (check !== 'ok') throw new Error(`the copy failed its integrity check: ${String(check)}`)
      copy.pragma('journal_mode = DELETE')
    } finally {
      copy.close()
    }
    // A hard link fails if the name was taken meanwhile (a rename would replace that file): the
    // no-overwrite promise holds even against another backup started at the same moment.
    try {
      linkSync(partial, to)
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EEXIST') throw new Error(`${to} exists already; a backup never overwrites a file`, { cause: err })
      throw err
    }
    unlinkSync(partial)
  } catch (err) {
    rmSync(partial, { force: true })
    throw err
  }
  return { path: to, bytes: statSync(to).size, ms: performance.now() - started }
}

/** `app-2026-11-24T05-30-00Z.db`: sorts by time, no characters a file system refuses. */
export const backupFileName = (now: Date): string => `app-${now.toISOString().slice(0, 19).replaceAll(':', '-')}Z.db`
