import { and, asc, gt } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { connectionOf, engineOf } from '../../db/client'
import { changeLog } from '../../db/schema/sync'
import { testApp } from '../../test/harness'
import type { Actor } from '../access/actor'
import { visibleLog } from './sync.service'

describe('the change log pull’s plan', () => {
  it('reads the rows for everyone through an index, never every company’s rows since the cursor', async () => {
    const t = await testApp()
    // SQLite's plan; PostgreSQL plans by its statistics (the same index exists there: schema parity).
    if (engineOf(t.db)) return
    for (const companies of [[], [{ id: '00000000-0000-7000-8000-000000000001', role: 'ADMINISTRATOR', name: 'Solgården' }]] as Actor['companies'][]) {
      const actor: Actor = {
        userId: 'u',
        sessionId: 's',
        fullName: 'U',
        emailAddress: 'u@example.dk',
        language: 'DA',
        systemRole: 'USER',
        currentCompanyId: null,
        companies,
      }
      const query = t.db
        .select()
        .from(changeLog)
        .where(and(gt(changeLog.seq, 0), visibleLog(actor)))
        .orderBy(asc(changeLog.seq))
        .limit(500)
        .toSQL()
      const plan = connectionOf(t.db)
        .prepare(`EXPLAIN QUERY PLAN ${query.sql}`)
        .all(...(query.params as unknown[]))
        .map((r) => (r as { detail: string }).detail)
        .join('\n')
      expect(plan, plan).toMatch(
        /change_log_user_company_seq \(user_id=\? AND company_id=\? AND seq>\?\)|change_log_user_company_seq \(user_id=\? AND company_id=\?/,
      )
      expect(plan, plan).not.toMatch(/SCAN change_log\b(?! USING)/)
    }
  })
})
