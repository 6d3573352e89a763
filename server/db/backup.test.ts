import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { execFileSync } from 'node:child_process'
import Database from 'better-sqlite3'
import { afterEach, describe, expect, it } from 'vitest'
import { backupDatabase, backupFileName } from './backup'

const folders: string[] = []
afterEach(() => {
  for (const f of folders.splice(0)) rmSync(f, { recursive: true, force: true })
})

/** A WAL database with committed rows still in its -wal (no checkpoint), as a running server has. */
function liveDatabase() {
  const dir = mkdtempSync(join(tmpdir(), 'bk-backup-'))
  folders.push(dir)
  const path = join(dir, 'app.db')
  const db = new Database(path)
  db.pragma('journal_mode = WAL')
  db.pragma('wal_autocheckpoint = 0')
  db.exec('CREATE TABLE charges (id INTEGER PRIMARY KEY, amount_ore INTEGER NOT NULL)')
  const insert = db.prepare('INSERT INTO charges (amount_ore) VALUES (?)')
  db.transaction(() => {
    for (let i = 1; i <= 1000; i++) insert.run(i * 100)
  })()
  return { dir, path, db }
}

const sumOf = (path: string) => {
  const db = new Database(path, { readonly: true })
  try {
    return db.prepare<[], { n: number; sum: number }>('SELECT count(*) AS n, sum(amount_ore) AS sum FROM charges').get()!
  } finally {
    db.close()
  }
}

describe('backupDatabase', () => {
  it('copies what is committed, WAL included, and leaves out a transaction still open', async () => {
    const { dir, path, db } = liveDatabase()
    expect(existsSync(`${path}-wal`)).toBe(true)
    db.exec('BEGIN')
    db.prepare('INSERT INTO charges (amount_ore) VALUES (?)').run(999_999)
    const target = join(dir, 'backups', 'copy.db')
    const r = await backupDatabase(path, target)
    db.exec('ROLLBACK')
    db.close()
    expect(r.path).toBe(target)
    expect(sumOf(target)).toEqual({ n: 1000, sum: 50_050_000 })
    // Self-contained: no -wal beside the copy, and it opens on its own.
    expect(existsSync(`${target}-wal`)).toBe(false)
    expect(existsSync(`${target}.partial`)).toBe(false)
    const copy = new Database(target, { readonly: true })
    expect(copy.pragma('journal_mode', { simple: true })).toBe('delete')
    copy.close()
    // Members' personal data: for the owner only, whatever the umask.
    expect((statSync(target).mode & 0o777).toString(8)).toBe('600')
    expect((statSync(join(dir, 'backups')).mode & 0o777).toString(8)).toBe('700')
  })

  it('gets one moment while another connection keeps writing', async () => {
    const { dir, path, db } = liveDatabase()
    const insert = db.prepare('INSERT INTO charges (amount_ore) VALUES (100)')
    let writes = 0
    const writer = setInterval(() => {
      insert.run()
      writes++
    }, 1)
    const target = join(dir, 'during.db')
    try {
      await backupDatabase(path, target)
    } finally {
      clearInterval(writer)
      db.close()
    }
    const { n, sum } = sumOf(target)
    // Whatever moment it caught, the copy is whole: the first 1,000 rows and some of the later ones.
    expect(n).toBeGreaterThanOrEqual(1000)
    expect(n).toBeLessThanOrEqual(1000 + writes)
    expect(sum).toBe(50_050_000 + (n - 1000) * 100)
  })

  it('never overwrites a file and says why', async () => {
    const { dir, path, db } = liveDatabase()
    db.close()
    const target = join(dir, 'taken.db')
    writeFileSync(target, 'an older backup')
    await expect(backupDatabase(path, target)).rejects.toThrow(/exists already/)
    await expect(backupDatabase(join(dir, 'none.db'), join(dir, 'x.db'))).rejects.toThrow(/no database/)
    expect(existsSync(join(dir, 'x.db'))).toBe(false)
  })

  it('names a copy by its UTC time in a form every file system takes', () => {
    expect(backupFileName(new Date('2026-11-24T05:30:07.123Z'))).toBe('app-2026-11-24T05-30-07Z.db')
  })

  it('runs as `npm run backup` against DATABASE_PATH', () => {
    const { dir, path, db } = liveDatabase()
    db.close()
    const out = execFileSync(process.execPath, ['--import', 'tsx', 'server/backup.ts'], {
      env: { ...process.env, DATABASE_PATH: path, BACKUP_DIR: join(dir, 'backups'), APP_ENV: 'development' },
      encoding: 'utf8',
    })
    const written = /^backup: (\S+) \(/.exec(out)?.[1]
    expect(written).toMatch(/backups\/app-.*Z\.db$/)
    expect(sumOf(written!)).toEqual({ n: 1000, sum: 50_050_000 })
  })
})
