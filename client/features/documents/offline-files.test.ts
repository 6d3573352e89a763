import { describe, expect, it } from 'vitest'
import { freshLocalDbEachTest } from '../../sync/fresh-local-db'
import type { LocalDb } from '../../sync/local-db'
import { keepFile, keptFile, pruneFiles } from './offline-files'

let db: LocalDb
freshLocalDbEachTest((d) => (db = d))

const blob = (size: number) => new Blob([new Uint8Array(size)], { type: 'application/pdf' })
const doc = (id: string, fileId = `${id}-f1`) => ({ id, fileId, contentType: 'application/pdf' })
const tick = () => new Promise((r) => setTimeout(r, 2))

describe('files kept for offline reading', () => {
  it('keeps a file under its file id, and a replaced file (new id) is not the kept one', async () => {
    expect(await keepFile(db, doc('a'), blob(10))).toBe(true)
    expect((await keptFile(db, doc('a')))?.size).toBe(10)
    expect(await keptFile(db, doc('a', 'a-f2'))).toBeUndefined()
  })

  it('stays under the cap: the files opened longest ago go first, never the one just kept', async () => {
    await keepFile(db, doc('a'), blob(40), 100)
    await tick()
    await keepFile(db, doc('b'), blob(40), 100)
    await tick()
    // Opening a marks it as recent: b is now the oldest.
    await keptFile(db, doc('a'))
    await tick()
    await keepFile(db, doc('c'), blob(40), 100)
    expect((await db.documentFiles.toArray()).map((f) => f.id).sort()).toEqual(['a-f1', 'c-f1'])
    // Larger than the whole cap: not kept, nothing else evicted.
    expect(await keepFile(db, doc('d'), blob(101), 100)).toBe(false)
    expect(await db.documentFiles.count()).toBe(2)
  })

  it('drops copies of documents the user no longer has, or whose file was replaced', async () => {
    await db.documents.bulkPut([
      { id: 'a', fileId: 'a-f1', _version: 1 },
      { id: 'b', fileId: 'b-f2', _version: 2 },
    ])
    await keepFile(db, doc('a'), blob(5))
    await keepFile(db, doc('b', 'b-f1'), blob(5))
    await keepFile(db, doc('gone'), blob(5))
    expect(await pruneFiles(db)).toBe(2)
    expect((await db.documentFiles.toArray()).map((f) => f.id)).toEqual(['a-f1'])
  })
})

describe('files kept for offline reading, and the pull', () => {
  it('a document deleted by the pull (or a reset) takes its kept file with it', async () => {
    const { applyChanges } = await import('../../sync/pull')
    await keepFile(db, doc('a'), blob(5))
    await keepFile(db, doc('b'), blob(5))
    await applyChanges(db, [{ entity: 'document', id: 'a', op: 'delete' }], 'c1', false, Date.now())
    expect((await db.documentFiles.toArray()).map((f) => f.id)).toEqual(['b-f1'])
    await applyChanges(db, [], 'c2', true, Date.now())
    expect(await db.documentFiles.count()).toBe(0)
  })
})
