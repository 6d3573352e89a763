import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { onTestFinished } from 'vitest'

/** The migrations folder of this checkout: all of them. */
export const drizzleDir = resolve(import.meta.dirname, '../../drizzle')

/**
 * The migrations folder as it was up to `tag` (the journal cut after it), for a migration test
 * that writes old data, then migrates the rest. Removed when the test ends.
 */
export function migrationsUpTo(tag: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'bk-migrations-'))
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }))
  cpSync(drizzleDir, dir, { recursive: true })
  const journal = JSON.parse(readFileSync(join(dir, 'meta/_journal.json'), 'utf8')) as { entries: { tag: string }[] }
  const at = journal.entries.findIndex((e) => e.tag === tag)
  if (at < 1) throw new Error(`no migration ${tag} after the first`)
  writeFileSync(join(dir, 'meta/_journal.json'), JSON.stringify({ ...journal, entries: journal.entries.slice(0, at + 1) }))
  return dir
}
