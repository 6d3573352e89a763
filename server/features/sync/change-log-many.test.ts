import { describe, expect, it } from 'vitest'
import { asc, eq } from 'drizzle-orm'
import { transaction } from '../../db/client'
import { changeLog } from '../../db/schema/sync'
import { testApp } from '../../test/harness'
import { recordChangesFor } from './change-log'

describe('recordChangesFor', () => {
  it('logs one change for every user given, in order, in whole statements and the rest one by one', async () => {
    const t = await testApp()
    const users = Array.from({ length: 253 }, (_, i) => `user-${String(i).padStart(3, '0')}`)
    await t.lock.run(() => transaction(t.db, () => recordChangesFor(t.db, t.clock, 'document', ['doc-1'], 'upsert', users)))
    const rows = await t.db.select().from(changeLog).where(eq(changeLog.entityId, 'doc-1')).orderBy(asc(changeLog.seq)).all()
    expect(rows.map((r) => r.userId)).toEqual(users)
    expect(new Set(rows.map((r) => `${r.entity}/${r.op}/${r.companyId}/${r.createdAt}`))).toEqual(
      new Set([`document/upsert/null/${t.clock.now().toISOString()}`]),
    )
    await t.lock.run(() => transaction(t.db, () => recordChangesFor(t.db, t.clock, 'document', ['doc-2'], 'delete', [])))
    expect(await t.db.select().from(changeLog).where(eq(changeLog.entityId, 'doc-2')).all()).toEqual([])
  })
})
