import { and, asc, gt } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { connectionOf, engineOf, type Db } from '../../db/client'
import { changeLog } from '../../db/schema/sync'
import { testApp } from '../../test/harness'
import type { Actor } from '../../access/actor'
import { writeChange } from './change-log'
import { visibleLog } from './sync.service'

const SOLGAARDEN = '00000000-0000-7000-8000-000000000001'
const HAVNEHUSET = '00000000-0000-7000-8000-000000000002'

const actor = (userId: string, companies: Actor['companies'] = []): Actor => ({
  userId,
  sessionId: 's',
  fullName: 'U',
  emailAddress: `${userId}@example.dk`,
  language: 'DA',
  systemRole: 'USER',
  currentCompanyId: null,
  companies,
})

const pullQuery = (db: Db, who: Actor, residentIn: string[] = []) =>
  db
    .select()
    .from(changeLog)
    .where(and(gt(changeLog.seq, 0), visibleLog(who, residentIn)))
    .orderBy(asc(changeLog.seq))
    .limit(500)

/** SQLite's plan of a pull; PostgreSQL plans by its statistics (the same indexes exist there: schema parity). */
function planOf(db: Db, who: Actor, residentIn: string[] = []): string {
  const query = pullQuery(db, who, residentIn).toSQL()
  return connectionOf(db)
    .prepare(`EXPLAIN QUERY PLAN ${query.sql}`)
    .all(...(query.params as unknown[]))
    .map((r) => (r as { detail: string }).detail)
    .join('\n')
}

describe('the change log pull’s plan', () => {
  it('reads the rows for everyone through an index, never every company’s rows since the cursor', async () => {
    const t = await testApp()
    if (engineOf(t.db)) return
    for (const companies of [[], [{ id: SOLGAARDEN, role: 'ADMINISTRATOR', name: 'Solgården' }]] as Actor['companies'][]) {
      const plan = planOf(t.db, actor('u', companies))
      expect(plan, plan).toMatch(
        /change_log_user_company_seq \(user_id=\? AND company_id=\? AND seq>\?\)|change_log_user_company_seq \(user_id=\? AND company_id=\?/,
      )
      expect(plan, plan).not.toMatch(/SCAN change_log\b(?! USING)/)
    }
  })

  it('reads a resident’s rows for members through their own index, never the staff’s rows of the association', async () => {
    const t = await testApp()
    if (engineOf(t.db)) return
    const plan = planOf(t.db, actor('u'), [SOLGAARDEN])
    expect(plan, plan).toMatch(/change_log_members_seq \(company_id=\? AND seq>\?\)/)
    expect(plan, plan).not.toMatch(/SCAN change_log\b(?! USING)/)
  })
})

describe('who reads a change-log row', () => {
  it('a row for the members reaches the association’s staff and residents; a staff row only its staff; neither another association', async () => {
    const t = await testApp()
    const at = t.clock.now().toISOString()
    await writeChange(t.db, 'listing', 'for-members', 'upsert', { companyId: SOLGAARDEN, members: true }, at)
    await writeChange(t.db, 'charge', 'for-staff', 'upsert', { companyId: SOLGAARDEN }, at)
    await writeChange(t.db, 'listing', 'elsewhere', 'upsert', { companyId: HAVNEHUSET, members: true }, at)
    await writeChange(t.db, 'notification', 'own', 'upsert', { userId: 'resident' }, at)
    const seen = async (who: Actor, residentIn: string[] = []) => (await pullQuery(t.db, who, residentIn).all()).map((r) => r.entityId).sort()
    expect(await seen(actor('resident'), [SOLGAARDEN])).toEqual(['for-members', 'own'])
    expect(await seen(actor('board', [{ id: SOLGAARDEN, role: 'BOARDMEMBER', name: 'Solgården' }]))).toEqual(['for-members', 'for-staff'])
    expect(await seen(actor('outsider'))).toEqual([])
    await expect(writeChange(t.db, 'listing', 'nobody', 'upsert', { userId: 'resident', members: true }, at)).rejects.toThrow(/members of no company/)
  })
})
