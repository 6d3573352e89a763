/**
 * `snapshot(db, fn)` on a file database (server/db/client.ts): reads that share the read-only
 * connection each see one moment, even when their awaits interleave and a write commits between.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { sql } from 'drizzle-orm'
import { afterEach, describe, expect, it } from 'vitest'
import { inReadScope } from './read-scope'
import { openDatabase, snapshot, transaction, type SqliteDatabase_ } from './client'

const opened: Array<{ database: SqliteDatabase_; folder: string }> = []
afterEach(() => {
  for (const { database, folder } of opened.splice(0)) {
    database.close()
    rmSync(folder, { recursive: true, force: true })
  }
})

function fileDatabase(): SqliteDatabase_ {
  const folder = mkdtempSync(join(tmpdir(), 'bk-snapshot-'))
  const database = openDatabase(join(folder, 'x.db'))
  opened.push({ database, folder })
  database.sqlite.exec('CREATE TABLE t (n integer)')
  return database
}

const count = async (database: SqliteDatabase_) => (await database.db.values<[number]>(sql`SELECT count(*) FROM t`))[0]![0]

describe('snapshot on a file database', () => {
  it('keeps two interleaving reads on the reader each on its own moment', async () => {
    const database = fileDatabase()
    let letWriteIn!: () => void
    const writeMayCommit = new Promise<void>((resolve) => (letWriteIn = resolve))
    let committed!: () => void
    const writeCommitted = new Promise<void>((resolve) => (committed = resolve))
    const first = inReadScope(() =>
      snapshot(database.db, async () => {
        const before = await count(database)
        letWriteIn()
        // Another read starts and a write commits while this one is still open.
        await writeCommitted
        return [before, await count(database)]
      }),
    )
    await writeMayCommit
    const second = inReadScope(() => snapshot(database.db, async () => [await count(database), await count(database)]))
    await transaction(database.db, async () => void (await database.db.run(sql`INSERT INTO t VALUES (1)`)))
    committed()
    // The first saw its moment throughout; the second waited for it, then saw the commit.
    expect(await first).toEqual([0, 0])
    expect(await second).toEqual([1, 1])
  })

  it('runs inside a write transaction at once, seeing the write', async () => {
    const database = fileDatabase()
    const seen = await transaction(database.db, async () => {
      await database.db.run(sql`INSERT INTO t VALUES (1)`)
      return snapshot(database.db, () => count(database))
    })
    expect(seen).toBe(1)
  })
})
