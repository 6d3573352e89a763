/**
 * The repositories' sqlite-core builders render PostgreSQL's SQL through `SqliteDialectForPostgres`
 * (decision 0074): numbered parameters and bare conflict targets, the rest as SQLite's dialect
 * writes it. Running the queries on PostgreSQL is pg-executor.slow.test.ts's part.
 */
import { eq, sql } from 'drizzle-orm'
import { integer, SQLiteAsyncDialect, sqliteTable, text, type BaseSQLiteDatabase } from 'drizzle-orm/sqlite-core'
import { SqliteRemoteDatabase, SQLiteRemoteSession } from 'drizzle-orm/sqlite-proxy'
import { describe, expect, it } from 'vitest'
import { SqliteDialectForPostgres } from './pg-dialect'

const counters = sqliteTable('counters', {
  companyId: text('company_id').notNull(),
  year: integer('year').notNull(),
  value: integer('value').notNull().default(0),
  note: text('note'),
})

/** A handle that only renders (nothing runs). */
const handle = (dialect: SQLiteAsyncDialect): BaseSQLiteDatabase<'async', unknown> =>
  new SqliteRemoteDatabase<Record<string, never>>('async', dialect, new SQLiteRemoteSession(() => Promise.resolve({ rows: [] }), dialect, undefined), undefined)
const pg = handle(new SqliteDialectForPostgres())
const lite = handle(new SQLiteAsyncDialect())

describe('SqliteDialectForPostgres', () => {
  it('numbers parameters $1, $2, … across a query, its subqueries and raw templates', () => {
    const query = (db: BaseSQLiteDatabase<'async', unknown>) =>
      db
        .select({ value: counters.value })
        .from(counters)
        .where(sql`${counters.companyId} = ${'c1'} AND ${counters.note} <> 'why?' AND ${counters.year} IN (${db.select({ y: sql`${2026}` }).from(counters)})`)
        .limit(5)
        .offset(10)
        .toSQL()
    expect(query(pg)).toEqual({
      sql: `select "value" from "counters" where "counters"."company_id" = $1 AND "counters"."note" <> 'why?' AND "counters"."year" IN ((select $2 from "counters")) limit $3 offset $4`,
      params: ['c1', 2026, 5, 10],
    })
    // SQLite's own dialect is untouched.
    expect(query(lite).sql).toContain(`"company_id" = ? AND "counters"."note" <> 'why?'`)
  })

  it('names the conflict target bare, with and without a WHERE, and leaves the rest as SQLite writes it', () => {
    const upsert = (db: BaseSQLiteDatabase<'async', unknown>) =>
      db
        .insert(counters)
        .values([
          { companyId: 'c1', year: 2026, value: 1 },
          { companyId: 'c2', year: 2026, value: 1 },
        ])
        .onConflictDoUpdate({
          target: [counters.companyId, counters.year],
          set: { value: sql`${counters.value} + excluded.value` },
          setWhere: eq(counters.note, 'open'),
        })
        .returning({ value: counters.value })
        .toSQL()
    expect(upsert(pg)).toEqual({
      sql:
        `insert into "counters" ("company_id", "year", "value", "note") values ($1, $2, $3, null), ($4, $5, $6, null) ` +
        `on conflict ("company_id", "year") do update set "value" = "counters"."value" + excluded.value where "counters"."note" = $7 returning "value"`,
      params: ['c1', 2026, 1, 'c2', 2026, 1, 'open'],
    })
    expect(upsert(lite).sql).toContain(`on conflict ("counters"."company_id", "counters"."year") do update`)

    expect(pg.insert(counters).values({ companyId: 'c1', year: 2026 }).onConflictDoNothing({ target: counters.companyId }).toSQL().sql).toBe(
      `insert into "counters" ("company_id", "year", "value", "note") values ($1, $2, $3, null) on conflict ("company_id") do nothing`,
    )
    expect(pg.insert(counters).values({ companyId: 'c1', year: 2026 }).onConflictDoNothing().toSQL().sql).toBe(
      `insert into "counters" ("company_id", "year", "value", "note") values ($1, $2, $3, null) on conflict do nothing`,
    )
    expect(
      pg
        .insert(counters)
        .values({ companyId: 'c1', year: 2026 })
        .onConflictDoUpdate({ target: counters.companyId, targetWhere: sql`year > 2000`, set: { note: 'again' } })
        .toSQL().sql,
    ).toContain(`on conflict ("company_id") where year > 2000 do update set "note" = $4`)
  })
})
