/** Tests: a new, empty offline store for every test, deleted after it. */
import { afterEach, beforeEach } from 'vitest'
import { LocalDb, deleteLocalDb } from './local-db'

export function freshLocalDbEachTest(set: (db: LocalDb, userId: string) => void): void {
  let db: LocalDb
  let userId: string
  beforeEach(() => {
    userId = crypto.randomUUID()
    db = new LocalDb(userId)
    set(db, userId)
  })
  afterEach(async () => {
    db.close()
    await deleteLocalDb(userId)
  })
}
