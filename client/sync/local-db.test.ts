import Dexie from 'dexie'
import { afterEach, describe, expect, it } from 'vitest'
import { LocalDb, deleteLocalDb, localDbName } from './local-db'

const userId = crypto.randomUUID()
afterEach(() => deleteLocalDb(userId))

/** The store as version 3 of the schema made it (before version 4 dropped the unread indexes). */
async function versionThreeStore() {
  const old = new Dexie(localDbName(userId))
  old.version(1).stores({
    agreements: 'id, companyId, status',
    charges: 'id, agreementId, companyId',
    invoices: 'id, companyId, issueDate',
    notifications: 'id, createdAt',
    companies: 'id',
    addresses: 'id, companyId',
    members: 'id, companyId',
    paymentProviders: 'id, companyId',
    outbox: '++seq, &mutationId, status, entity, entityId',
    meta: 'key',
  })
  old.version(2).stores({ messages: 'id, companyId, status' })
  old.version(3).stores({ snapshots: 'key' })
  await old.table('agreements').put({ id: 'a', companyId: 'c', status: 'ACCEPTED', _version: 1 })
  await old.table('messages').put({ id: 'm', companyId: 'c', status: 'SENT', _version: 1 })
  await old.table('meta').put({ key: 'cursor', value: 'c7' })
  old.close()
}

const indexesOf = (db: LocalDb, store: string) => [...db.backendDB().transaction(store).objectStore(store).indexNames].sort()

describe('LocalDb upgrade', () => {
  it('keeps the rows and the cursor of a version 3 store and drops the indexes no query uses', async () => {
    await versionThreeStore()
    const db = new LocalDb(userId)
    await db.open()
    expect(await db.agreements.get('a')).toEqual({ id: 'a', companyId: 'c', status: 'ACCEPTED', _version: 1 })
    expect(await db.messages.get('m')).toMatchObject({ id: 'm' })
    expect((await db.meta.get('cursor'))!.value).toBe('c7')
    expect(indexesOf(db, 'agreements')).toEqual(['companyId'])
    expect(indexesOf(db, 'charges')).toEqual(['agreementId'])
    expect(indexesOf(db, 'invoices')).toEqual(['companyId'])
    expect(indexesOf(db, 'messages')).toEqual([])
    expect(await db.agreements.where('companyId').equals('c').count()).toBe(1)
    db.close()
  })
})
