import { describe, expect, it } from 'vitest'
import { connectionOf, engineOf } from '../../db/client'
import { testApp } from '../../test/harness'
import { countsSql, periodEvents, screenPageSql } from './bookkeeping.repository'
import { splitSql, undatedSql } from './journal-totals'

describe('the journal’s plan', () => {
  it('reads a period’s events through the two partial indexes, never every invoice of the company', async () => {
    const t = await testApp()
    // SQLite's plan; PostgreSQL plans by its statistics (the same indexes exist there: migration bookkeeping_closed_periods).
    if (engineOf(t.db)) return
    const plan = connectionOf(t.db)
      .prepare(`EXPLAIN QUERY PLAN SELECT * FROM (${periodEvents}) e ORDER BY e.day, e.number`)
      .all({ companyId: 'c', from: '2026-01-01', to: '2026-12-31' })
      .map((r) => (r as { detail: string }).detail)
      .join('\n')
    expect(plan, plan).toMatch(/invoices_company_executed_paid \(company_id=\? AND payment_date>\? AND payment_date<\?\)/)
    expect(plan, plan).toMatch(/invoices_company_paid_outside \(company_id=\? AND settled_on>\? AND settled_on<\?\)/)
    expect(plan, plan).not.toMatch(/SCAN i\b(?! USING)/)
  })
  it('reads a page by walking each index in order and stopping when the page is full (no sort of the whole period)', async () => {
    const t = await testApp()
    if (engineOf(t.db)) return
    const rows = connectionOf(t.db)
      .prepare(`EXPLAIN QUERY PLAN ${screenPageSql}`)
      .all({ companyId: 'c', from: '2026-01-01', to: '2026-12-31', afterDay: '', afterNumber: 0, afterEvent: '', onlyNew: 1, limit: 100 }) as {
      id: number
      parent: number
      detail: string
    }[]
    const plan = rows.map((r) => r.detail).join('\n')
    expect(plan, plan).toMatch(/SEARCH i USING INDEX invoices_company_executed_paid/)
    expect(plan, plan).toMatch(/SEARCH i USING INDEX invoices_company_paid_outside/)
    // Inside each branch (a co-routine) the index gives the order: no sort there, only of the ≤ limit rows merged.
    const coroutines = new Set(rows.filter((r) => r.detail.startsWith('CO-ROUTINE')).map((r) => r.id))
    expect(coroutines.size).toBe(2)
    expect(rows.filter((r) => coroutines.has(r.parent) && r.detail.includes('TEMP B-TREE'))).toEqual([])
  })
  it('reads the totals’ corrections through partial indexes of only those documents, and the counts from the index alone (decision 0071)', async () => {
    const t = await testApp()
    if (engineOf(t.db)) return
    const planOf = (sql: string) =>
      connectionOf(t.db)
        .prepare(`EXPLAIN QUERY PLAN ${sql}`)
        .all({ companyId: 'c', from: '2026-01-01', to: '2026-12-31' })
        .map((r) => (r as { detail: string }).detail)
        .join('\n')
    const split = planOf(splitSql('sqlite'))
    expect(split, split).toMatch(/SEARCH i USING INDEX invoices_company_executed_split \(company_id=\? AND payment_date>\? AND payment_date<\?\)/)
    expect(split, split).toMatch(/SEARCH i USING INDEX invoices_company_paid_outside/)
    const undated = planOf(undatedSql('sqlite'))
    expect(undated, undated).toMatch(/SEARCH i USING INDEX invoices_company_executed_undated \(company_id=\? AND issue_date>\? AND issue_date<\?\)/)
    const counts = planOf(countsSql)
    expect(counts, counts).toMatch(/SEARCH i USING COVERING INDEX invoices_company_executed_paid \(company_id=\? AND payment_date>\? AND payment_date<\?\)/)
    for (const plan of [split, undated, counts]) expect(plan, plan).not.toMatch(/SCAN i\b(?! USING)/)
  })
})
