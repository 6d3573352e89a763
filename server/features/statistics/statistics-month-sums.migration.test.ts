/**
 * Migration 0015 fills the running month sums from the day rows already in charge_statistics
 * (docs/decisions/0051-statistics-month-sums.md), so statistics read after the upgrade match
 * those read before it.
 */
import Database from 'better-sqlite3'
import { drizzle } from 'drizzle-orm/better-sqlite3'
import { migrate } from 'drizzle-orm/better-sqlite3/migrator'
import { describe, expect, it } from 'vitest'
import { drizzleDir, migrationsUpTo } from '../../test/migrations'

describe('migration: statistics month sums', () => {
  it('backfills running sums per year, month and address from the existing day rows', () => {
    const sqlite = new Database(':memory:')
    const db = drizzle(sqlite)
    migrate(db, { migrationsFolder: migrationsUpTo('0014_list_order_indexes') })
    const day = sqlite.prepare(
      `INSERT INTO charge_statistics (company_id, day, agreement_id, consumer_address, heating, common_expenses, fee) VALUES (?, ?, ?, ?, ?, ?, ?)`,
    )
    day.run('c1', '2025-11-03', 'a1', 'Vej 1', 100, 1_000, 0)
    day.run('c1', '2025-12-31', 'a2', 'Vej 1', 10, 0, 0)
    day.run('c1', '2026-02-10', 'a1', 'Vej 1', 5, 0, -7)
    day.run('c1', '2026-02-20', 'a1', 'Vej 2', 0, 50, 0)
    day.run('c2', '2026-02-20', 'a9', '', 1, 1, 1)

    migrate(db, { migrationsFolder: drizzleDir })
    const rows = sqlite
      .prepare(
        "SELECT company_id || ' ' || year || '-' || month || ' ' || consumer_address AS k, heating, common_expenses, fee FROM charge_statistics_months ORDER BY company_id, year, month, consumer_address",
      )
      .all() as { k: string; heating: number; common_expenses: number; fee: number }[]
    const sums = Object.fromEntries(rows.map((r) => [r.k, [r.heating, r.common_expenses, r.fee]]))
    expect(sums).toEqual({
      'c1 2025-11 Vej 1': [100, 1_000, 0],
      'c1 2025-12 Vej 1': [110, 1_000, 0],
      // A new year starts from 0.
      ...Object.fromEntries(
        [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12].flatMap((m) => [
          [`c1 2026-${m} Vej 1`, [5, 0, -7]],
          [`c1 2026-${m} Vej 2`, [0, 50, 0]],
        ]),
      ),
      ...Object.fromEntries([2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12].map((m) => [`c2 2026-${m} `, [1, 1, 1]])),
    })

    // From now on the triggers keep them: a later day row adds to its month and the rest of the year.
    day.run('c1', '2025-12-01', 'a3', 'Vej 1', 1, 0, 0)
    expect(sqlite.prepare("SELECT month, heating FROM charge_statistics_months WHERE company_id = 'c1' AND year = 2025 ORDER BY month").all()).toEqual([
      { month: 11, heating: 100 },
      { month: 12, heating: 111 },
    ])
  })
})
