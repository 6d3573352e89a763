/**
 * The same drizzle queries (sqlite-core builders, the constructs the repositories use) on SQLite and,
 * through the executor and its dialect (server/db/pg-dialect.ts), on a throw-away PostgreSQL
 * cluster: the answers must be equal (decisions 0057, 0074). Skipped without PostgreSQL's binaries unless REQUIRE_POSTGRES=1 (CI).
 */
import { Socket } from 'node:net'
import Database from 'better-sqlite3'
import { and, asc, count, desc, eq, inArray, isNull, like, max, or, sql, sum } from 'drizzle-orm'
import { integer, sqliteTable, text, type BaseSQLiteDatabase } from 'drizzle-orm/sqlite-core'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { postgresBinDir, startPgCluster, type PgCluster } from '../test/pg-cluster'
import { hasErrorCode, isSerializationFailure, snapshot, sqliteHandle, transaction, type Db as AppDb } from './client'
import { openPgDatabase, type PgDatabase } from './pg-executor'
import { statement } from './statement'

const people = sqliteTable('people', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  isAdmin: integer('is_admin', { mode: 'boolean' }).notNull().default(false),
  createdAt: text('created_at').notNull(),
})
const charges = sqliteTable('charges', {
  id: text('id').primaryKey(),
  personId: text('person_id')
    .notNull()
    .references(() => people.id),
  amountOre: integer('amount_ore').notNull(),
  note: text('note'),
  paid: integer('paid', { mode: 'boolean' }).notNull().default(false),
  version: integer('version').notNull().default(1),
  history: text('history', { mode: 'json' }).$type<{ at: string; status: string }[]>(),
})

const sqliteDdl = `
  CREATE TABLE people (id text PRIMARY KEY, name text NOT NULL, is_admin integer NOT NULL DEFAULT 0, created_at text NOT NULL);
  CREATE TABLE charges (id text PRIMARY KEY, person_id text NOT NULL REFERENCES people(id), amount_ore integer NOT NULL, note text,
    paid integer NOT NULL DEFAULT 0, version integer NOT NULL DEFAULT 1, history text);`
const pgDdl = `
  CREATE TABLE people (id text PRIMARY KEY, name text NOT NULL, is_admin boolean NOT NULL DEFAULT false, created_at text NOT NULL);
  CREATE TABLE charges (id text PRIMARY KEY, person_id text NOT NULL REFERENCES people(id), amount_ore bigint NOT NULL, note text,
    paid boolean NOT NULL DEFAULT false, version integer NOT NULL DEFAULT 1, history json);`

/** Either driver's handle, as the converted repositories will hold it (decision 0057). */
type Db = BaseSQLiteDatabase<'sync' | 'async', unknown>

/** Every construct once; each step's answer is collected and compared across the engines. */
async function scenario(db: Db, inTransaction: <T>(fn: () => Promise<T>) => Promise<T>) {
  const answers: Record<string, unknown> = {}
  await db.insert(people).values([
    { id: 'p1', name: 'Søren Ærø', isAdmin: true, createdAt: '2026-01-01T08:00:00.000Z' },
    { id: 'p2', name: "Anne O'Hara", createdAt: '2026-01-02T08:00:00.000Z' },
    { id: 'p3', name: 'Bo ? Lund', createdAt: '2026-01-03T08:00:00.000Z' },
  ])
  answers.insertReturning = await db
    .insert(charges)
    .values([
      { id: 'c1', personId: 'p1', amountOre: 533000 },
      { id: 'c2', personId: 'p1', amountOre: 65000, note: 'Aconto varme' },
      { id: 'c3', personId: 'p2', amountOre: 18000, paid: true, history: [{ at: '2026-01-02', status: 'EXECUTED' }] },
    ])
    .returning()
  answers.upsert = await db
    .insert(charges)
    .values({ id: 'c1', personId: 'p1', amountOre: 1 })
    .onConflictDoUpdate({ target: charges.id, set: { note: 'changed', version: sql`${charges.version} + 1` } })
    .returning({ id: charges.id, note: charges.note, version: charges.version, amountOre: charges.amountOre })
  answers.ignored = await db.insert(charges).values({ id: 'c2', personId: 'p2', amountOre: 2 }).onConflictDoNothing().returning()
  answers.ignoredOnTarget = await db.insert(charges).values({ id: 'c2', personId: 'p2', amountOre: 2 }).onConflictDoNothing({ target: charges.id }).returning()
  answers.get = await db.select().from(charges).where(eq(charges.id, 'c2')).get()
  answers.getNone = await db.select().from(charges).where(eq(charges.id, 'nope')).get()
  answers.booleansAndNulls = await db
    .select({ id: charges.id })
    .from(charges)
    .where(and(eq(charges.paid, false), isNull(charges.note)))
    .all()
  answers.join = await db
    .select({ name: people.name, admin: people.isAdmin, amount: charges.amountOre })
    .from(charges)
    .innerJoin(people, eq(people.id, charges.personId))
    .where(or(inArray(charges.id, ['c1', 'c3']), like(people.name, 'Bo%')))
    .orderBy(desc(people.createdAt), asc(charges.id))
    .limit(10)
    .offset(0)
    .all()
  answers.leftJoinGroup = await db
    .select({ id: people.id, charges: count(charges.id), total: sum(charges.amountOre), last: max(charges.id) })
    .from(people)
    .leftJoin(charges, eq(charges.personId, people.id))
    .groupBy(people.id)
    .orderBy(people.id)
    .all()
  // Raw SQL reads positional rows (`values`): drizzle maps a raw `all` only on SQLite (decision 0057).
  answers.rawTemplate = await db.values(sql`SELECT ${people.name} AS name FROM ${people} WHERE ${people.id} = ${'p3'}`)
  // Rows without ORDER BY come in any order, on either engine.
  answers.update = (await db.update(charges).set({ paid: true }).where(eq(charges.personId, 'p1')).returning({ id: charges.id, paid: charges.paid })).sort(
    (a, b) => a.id.localeCompare(b.id),
  )
  answers.delete = await db.delete(charges).where(eq(charges.id, 'c3')).returning({ id: charges.id })
  // How many rows a plain `run()` touched: repositories decide on it (a webhook seen before, a
  // sign-in removed, `.run().changes === 1`).
  const changed = (result: unknown) => (result as { changes?: unknown }).changes
  answers.runChanges = [
    changed(await db.update(charges).set({ note: 'seen' }).where(eq(charges.personId, 'p1')).run()),
    changed(await db.insert(charges).values({ id: 'c2', personId: 'p2', amountOre: 2 }).onConflictDoNothing().run()),
    changed(await db.delete(charges).where(eq(charges.id, 'nope')).run()),
  ]

  // A transaction that fails leaves nothing behind; one that succeeds keeps all of it.
  await inTransaction(async () => {
    await db.insert(people).values({ id: 'p4', name: 'Kept', createdAt: '2026-01-04T08:00:00.000Z' })
    await db.insert(charges).values({ id: 'c4', personId: 'p4', amountOre: 100 })
  })
  await expect(
    inTransaction(async () => {
      await db.insert(people).values({ id: 'p5', name: 'Rolled back', createdAt: '2026-01-05T08:00:00.000Z' })
      await db.insert(charges).values({ id: 'c5', personId: 'missing', amountOre: 1 })
    }),
  ).rejects.toThrow()
  // A nested one that fails and is caught undoes only its own part.
  await inTransaction(async () => {
    await db.insert(people).values({ id: 'p6', name: 'Outer', createdAt: '2026-01-06T08:00:00.000Z' })
    await inTransaction(async () => {
      await db.insert(people).values({ id: 'p7', name: 'Inner', createdAt: '2026-01-07T08:00:00.000Z' })
      await db.insert(charges).values({ id: 'c7', personId: 'missing', amountOre: 1 })
    }).catch(() => undefined)
    await db.insert(charges).values({ id: 'c6', personId: 'p6', amountOre: 600 })
  })
  answers.afterTransactions = await db.select({ id: people.id }).from(people).orderBy(people.id).all()
  return answers
}

const required = process.env.REQUIRE_POSTGRES === '1'
describe.skipIf(!postgresBinDir() && !required)('the same queries on SQLite and PostgreSQL', () => {
  let cluster: PgCluster
  let pgDb: PgDatabase
  let url: string
  beforeAll(async () => {
    cluster = await startPgCluster()
    url = await cluster.createDatabase('executor')
    pgDb = openPgDatabase(url)
    await pgDb.pool.query(pgDdl)
  }, 60_000)
  afterAll(async () => {
    await pgDb?.close()
    await cluster?.stop()
  })

  it('gives the same answers', async () => {
    const sqlite = new Database(':memory:')
    sqlite.pragma('foreign_keys = ON')
    sqlite.exec(sqliteDdl)
    // Both through the app's own `transaction(db, fn)` (a savepoint when already inside one).
    const lite = sqliteHandle(sqlite)
    const onSqlite = await scenario(lite as unknown as Db, (fn) => transaction(lite, fn))
    const onPg = await scenario(pgDb.db, (fn) => transaction(pgDb.db as unknown as AppDb, fn))
    expect(onPg).toEqual(onSqlite)
    // Not vacuous: the scenario saw rows and both transactions' outcomes.
    expect(onSqlite.afterTransactions).toEqual([{ id: 'p1' }, { id: 'p2' }, { id: 'p3' }, { id: 'p4' }, { id: 'p6' }])
    expect(onSqlite.runChanges).toEqual([2, 0, 0])
    sqlite.close()
  })

  it('runs raw statements (server/db/statement.ts) alike, in the transaction in progress', async () => {
    const byIds = statement<{ ids: string; min: number }, { id: string; fullName: string; at: number; paid: number }>(
      (d) => `SELECT p.id, ${d.fold('p.name')} AS "fullName", ${d.position('p.name', "'r'")} AS at,
                     CASE WHEN EXISTS (SELECT 1 FROM charges c WHERE c.person_id = p.id AND ${d.unindexed('c.paid')}) THEN 1 ELSE 0 END AS paid
              FROM ${d.jsonValues('@ids', 'j')} JOIN people p ON p.id = j.value WHERE length(p.name) >= @min ORDER BY p.id`,
    )
    const names = statement<[string], string>('SELECT name FROM people WHERE id > ? ORDER BY id', { pluck: true })
    const arrays = statement<[], string>(
      (d) => `SELECT ${d.jsonArraysInOrder(['id', 'amount_ore'], 'id')} FROM (SELECT id, amount_ore FROM charges ORDER BY id) x`,
      {
        pluck: true,
      },
    )
    const rename = statement<[string, string], never>('UPDATE people SET name = ? WHERE id = ?')
    const run = async (db: AppDb) => {
      await db.insert(people).values([
        { id: 'r1', name: 'SØREN Ærø', createdAt: '2026-03-01T08:00:00.000Z' },
        { id: 'r2', name: 'Bo', createdAt: '2026-03-02T08:00:00.000Z' },
      ])
      await db.insert(charges).values({ id: 'rc1', personId: 'r1', amountOre: 5, paid: true })
      const rows = await byIds.all(db, { ids: JSON.stringify(['r2', 'r1', 'nobody']), min: 1 })
      const first = await names.get(db, ['r'])
      const touched = await transaction(db, async () => (await rename.run(db, ['Bo Lund', 'r2'])).changes)
      const rolledBack = await transaction(db, async () => {
        await rename.run(db, ['Gone', 'r1'])
        throw new Error('undo')
      }).catch(() => names.all(db, ['r']))
      return { rows, first, touched, rolledBack, arrays: JSON.parse((await arrays.get(db, []))!) as unknown }
    }
    const sqlite = new Database(':memory:')
    sqlite.exec(sqliteDdl)
    const onSqlite = await run(sqliteHandle(sqlite))
    await pgDb.pool.query('DELETE FROM charges; DELETE FROM people')
    expect(await run(pgDb.db as unknown as AppDb)).toEqual(onSqlite)
    expect(onSqlite).toEqual({
      rows: [
        { id: 'r1', fullName: 'søren ærø', at: 8, paid: 1 },
        { id: 'r2', fullName: 'bo', at: 0, paid: 0 },
      ],
      first: 'SØREN Ærø',
      touched: 1,
      rolledBack: ['SØREN Ærø', 'Bo Lund'],
      arrays: [['rc1', 5]],
    })
    sqlite.close()
  })

  it('runs write transactions SERIALIZABLE, and again when PostgreSQL gives one up: no lost update', async () => {
    await pgDb.pool.query("CREATE TABLE counters (id text PRIMARY KEY, v integer NOT NULL); INSERT INTO counters VALUES ('c', 0)")
    const db = pgDb.db as unknown as AppDb
    let runs = 0
    // Ten read-then-write transactions at once (as on several instances): each reads, waits, writes what it read + 1.
    const outcomes = await Promise.allSettled(
      Array.from({ length: 10 }, () =>
        transaction(db, async () => {
          runs++
          const [v] = await pgDb.db.get<[number]>(sql`SELECT v FROM counters WHERE id = 'c'`)
          await new Promise((resolve) => setTimeout(resolve, 5))
          await pgDb.db.run(sql`UPDATE counters SET v = ${v + 1} WHERE id = 'c'`)
        }),
      ),
    )
    const committed = outcomes.filter((o) => o.status === 'fulfilled').length
    const [final] = await pgDb.db.get<[number]>(sql`SELECT v FROM counters WHERE id = 'c'`)
    // Every committed increment counts (READ COMMITTED would lose most of them); the losers ran again.
    expect(final).toBe(committed)
    expect(committed).toBeGreaterThanOrEqual(5)
    expect(runs).toBeGreaterThan(committed)
    for (const o of outcomes) if (o.status === 'rejected') expect(isSerializationFailure(o.reason)).toBe(true)
    // Without its retry, a transaction that loses fails with 40001.
    await expect(
      Promise.all(
        [1, 2].map(() =>
          transaction(
            db,
            async () => {
              const [v] = await pgDb.db.get<[number]>(sql`SELECT v FROM counters WHERE id = 'c'`)
              await new Promise((resolve) => setTimeout(resolve, 20))
              await pgDb.db.run(sql`UPDATE counters SET v = ${v + 1} WHERE id = 'c'`)
            },
            { retry: false },
          ),
        ),
      ),
    ).rejects.toSatisfy(isSerializationFailure)
  })

  it('bounds what a frozen instance holds: others wait at most lock_timeout for its row, and its open transaction ends after idle_in_transaction_session_timeout', async () => {
    await pgDb.pool.query("CREATE TABLE held (id text PRIMARY KEY, v integer NOT NULL); INSERT INTO held VALUES ('h', 0)")
    const limits = { lockTimeoutMs: 200, idleInTransactionMs: 1000 }
    const [frozen, other] = [openPgDatabase(url, { limits }), openPgDatabase(url, { limits })]
    try {
      const settings = await other.pool.query<{ lock: string; idle: string }>(
        "SELECT current_setting('lock_timeout') AS lock, current_setting('idle_in_transaction_session_timeout') AS idle",
      )
      expect(settings.rows[0]).toEqual({ lock: '200ms', idle: '1s' })
      // An instance takes the row in a transaction, then stops (a frozen process, a paused VM).
      let thaw: (() => void) | undefined
      const stuck = transaction(frozen.db as unknown as AppDb, async () => {
        await frozen.db.run(sql`UPDATE held SET v = 1 WHERE id = 'h'`)
        await new Promise<void>((resolve) => (thaw = resolve))
      })
      stuck.catch(() => undefined)
      while (!thaw) await new Promise((resolve) => setTimeout(resolve, 10))
      const write = () => transaction(other.db as unknown as AppDb, async () => void (await other.db.run(sql`UPDATE held SET v = 2 WHERE id = 'h'`)))
      // Refused by lock_timeout (55P03: lock not available) rather than kept waiting for the frozen
      // instance, which without it would be until its session ended, and then succeed.
      await expect(write()).rejects.toSatisfy((error) => hasErrorCode(error, ['55P03']))
      // A second idle inside its transaction, and the server ends the frozen session, its lock with
      // it: the write goes through once that has happened (each try refused after lock_timeout).
      await expect
        .poll(() =>
          write().then(
            () => 'written',
            (error: unknown) => (hasErrorCode(error, ['55P03']) ? 'still locked' : error),
          ),
        )
        .toBe('written')
      thaw()
      await expect(stuck).rejects.toThrow()
      expect((await other.pool.query<{ v: number }>('SELECT v FROM held')).rows[0]!.v).toBe(2)
    } finally {
      await frozen.close()
      await other.close()
    }
  })

  it('never passes a transaction PostgreSQL aborted as committed', async () => {
    const db = pgDb.db as unknown as AppDb
    // A failed statement caught inside, without a savepoint: PostgreSQL answers COMMIT with ROLLBACK.
    const caught = transaction(db, async () => {
      await pgDb.db.run(sql`INSERT INTO people (id, name, created_at) VALUES ('lost', 'Lost', '2026-03-01T08:00:00.000Z')`)
      await pgDb.db.run(sql`SELECT 1 / 0`).catch(() => undefined)
    })
    await expect(caught).rejects.toThrow(/not COMMIT/)
    expect(await pgDb.db.all(sql`SELECT id FROM people WHERE id = 'lost'`)).toEqual([])
  })

  it('keeps one connection per transaction across awaits, and concurrent transactions apart', async () => {
    const seen = await Promise.all(
      [1, 2, 3].map((n) =>
        pgDb.transaction(async () => {
          const pid = (await pgDb.db.get<[number]>(sql`SELECT pg_backend_pid()`))[0]
          await new Promise((r) => setTimeout(r, 20))
          const again = (await pgDb.db.get<[number]>(sql`SELECT pg_backend_pid()`))[0]
          return { n, same: pid === again, pid }
        }),
      ),
    )
    expect(seen.every((s) => s.same)).toBe(true)
    expect(new Set(seen.map((s) => s.pid)).size).toBe(3)
  })

  it('reads one moment in a snapshot while another connection commits', async () => {
    const db = pgDb.db as unknown as AppDb
    const names = sql`SELECT count(*) FROM people`
    const seen = await snapshot(db, async () => {
      const before = (await pgDb.db.get<[number]>(names))[0]
      // Committed on another connection (the pool's) between the snapshot's two reads.
      await pgDb.pool.query(`INSERT INTO people (id, name, created_at) VALUES ('snap', 'Later', '2026-02-01T08:00:00.000Z')`)
      const after = (await pgDb.db.get<[number]>(names))[0]
      return { before, after }
    })
    expect(seen.after).toBe(seen.before)
    expect((await pgDb.db.get<[number]>(names))[0]).toBe(seen.before + 1)
    // A snapshot refuses writes: reads only.
    // (Returned unawaited on purpose: drizzle runs it when awaited, which must still be inside.)
    const refused = await snapshot(db, () => pgDb.db.run(sql`DELETE FROM people WHERE id = 'snap'`)).catch((err: Error) => err)
    expect(String((refused as Error).cause)).toMatch(/read-only transaction/)
  })

  it('sends a transaction in few round trips: the BEGIN with its first statement, the writes collected for the COMMIT with it', async () => {
    const db = pgDb.db as unknown as AppDb
    const name = statement<[string], string>('SELECT name FROM people WHERE id = ?', { pluck: true })
    const insert = statement<[string, string], never>("INSERT INTO people (id, name, created_at) VALUES (?, ?, '2026-04-01T08:00:00.000Z')")
    const level = statement<[], string>("SELECT current_setting('transaction_isolation')", { pluck: true })
    /** The writes to the server's sockets `fn` makes (each a round trip here: every one waits for its answers). */
    const socketWrites = async (fn: () => Promise<unknown>) => {
      // Node's writes of a socket: one chunk, or several at once (after a cork).
      const socket = Socket.prototype as unknown as Record<'_write' | '_writev', (...args: unknown[]) => void>
      const spies = [vi.spyOn(socket, '_write'), vi.spyOn(socket, '_writev')]
      try {
        await fn()
        return spies.reduce((n, spy) => n + spy.mock.calls.length, 0)
      } finally {
        for (const spy of spies) spy.mockRestore()
      }
    }
    await transaction(db, () => level.get(db, [])) // every connection the pool needs is open
    const seen: Record<string, unknown> = {}
    const writes = await socketWrites(() =>
      transaction(
        db,
        async () => {
          seen.inside = await level.get(db, [])
          await insert.runAtCommit(db, ['w1', 'Deferred'])
          seen.beforeCommit = await name.get(db, ['w1'])
        },
        { before: async () => void (seen.before = await level.get(db, [])) },
      ),
    )
    // `before` read outside the transaction, in the same write as the BEGIN; the INSERT went with the COMMIT.
    expect(seen).toEqual({ before: 'read committed', inside: 'serializable', beforeCommit: undefined })
    expect(writes).toBe(4)
    expect(await name.get(db, ['w1'])).toBe('Deferred')
    // Nothing sent, nothing to begin or commit.
    expect(await socketWrites(() => transaction(db, async () => 'no statement'))).toBe(0)
    // A collected write that fails fails the transaction at its COMMIT: nothing of it stays.
    const duplicate = transaction(db, async () => {
      await insert.run(db, ['w2', 'Undone'])
      await insert.runAtCommit(db, ['w1', 'Twice'])
    })
    await expect(duplicate).rejects.toSatisfy((error) => hasErrorCode(error, ['23505']))
    expect(await name.get(db, ['w2'])).toBeUndefined()
    // `before` is one statement: the BEGIN went out right behind it.
    const twice = transaction(db, async () => undefined, {
      before: async () => {
        await level.get(db, [])
        await level.get(db, [])
      },
    })
    await expect(twice).rejects.toThrow(/one statement/)
  })
})
