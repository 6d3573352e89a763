/**
 * Runs the queries the repositories build with drizzle's SQLite dialect on PostgreSQL
 * (docs/decisions/0057-one-query-text-two-engines.md). The repositories are written once, against
 * the sqlite-core schema (server/db/schema); on PostgreSQL drizzle's `sqlite-proxy` driver hands
 * each statement here, as SQLite SQL with `?` placeholders, and this sends it to PostgreSQL
 * after the few rewrites the two dialects need:
 *
 * - `?` placeholders become `$1, $2, …` (never inside a quoted string or identifier);
 * - a conflict target names bare columns (`on conflict ("id")`): SQLite accepts `"table"."id"`,
 *   PostgreSQL does not.
 *
 * `run()` answers with `changes` (PostgreSQL's row count), as better-sqlite3 does.
 *
 * What else differs is kept out of the generated SQL on purpose: the PostgreSQL schema stores the
 * same values as SQLite (text ids, ISO timestamps as text, integer øre; booleans as boolean, which
 * PostgreSQL reads from drizzle's 0/1 parameters and drizzle reads back from true/false; JSON as
 * json, handed back as its text for drizzle to parse as it does SQLite's), and raw
 * SQL that uses SQLite's own functions (json_each, custom functions) has a PostgreSQL variant
 * beside it in the repository that needs it.
 *
 * Transactions: `transaction(fn)` takes a pooled connection, runs `fn` inside BEGIN … COMMIT and
 * makes every query of `fn` (across its awaits, through AsyncLocalStorage) use that connection;
 * inside one, it is a savepoint. Queries outside a transaction use the pool.
 */
import { AsyncLocalStorage } from 'node:async_hooks'
import pg from 'pg'
import { drizzle, type SqliteRemoteDatabase } from 'drizzle-orm/sqlite-proxy'
import { toPositional } from './statement'
import { isSerializationFailure, registerEngine, SERIALIZATION_ATTEMPTS, type Db, type TransactionOptions } from './client'

// count(*) is a bigint and sum() a numeric in PostgreSQL, which node-postgres hands over as
// strings; every such figure here (counts, øre sums) is an integer far below 2^53.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value))
pg.types.setTypeParser(pg.types.builtins.NUMERIC, (value) => Number(value))
// JSON columns are text in SQLite, and drizzle's SQLite mapping parses them itself.
pg.types.setTypeParser(pg.types.builtins.JSON, (value) => value)
pg.types.setTypeParser(pg.types.builtins.JSONB, (value) => value)

/** SQLite SQL as drizzle generates it → the same statement for PostgreSQL (see the file's comment). */
export function toPostgresSql(sqlite: string): string {
  return toPositional(sqlite, []).text.replace(/on conflict \(([^)]*)\)/gi, (_match, columns: string) => `on conflict (${columns.replace(/"[^"]+"\./g, '')})`)
}

export interface PgDatabase {
  /** The drizzle handle the repositories use (SQLite dialect, asynchronous). */
  db: SqliteRemoteDatabase
  pool: pg.Pool
  /** Runs `fn` as one transaction: every query it makes, across awaits, uses one connection. */
  transaction<T>(fn: () => Promise<T>, options?: TransactionOptions): Promise<T>
  /** Runs `fn`'s reads on one snapshot (REPEATABLE READ, READ ONLY); inside a transaction, in it. */
  snapshot<T>(fn: () => Promise<T>): Promise<T>
  close(): Promise<void>
}

/** The advisory-lock class (first key) of the jobs' locks (`alone`); the second key is the job name's hash. */
const JOB_LOCKS = 0x626b6a62 // "bkjb"

/** The transaction in progress on a context: its connection and what runs just before its COMMIT. */
interface InTransaction {
  client: pg.PoolClient
  /** Rows deferred to the end of the transaction (the change log's, decision 0058), by collector. */
  collected: Map<object, { rows: unknown[]; flush: (rows: unknown[]) => Promise<void> }>
  /** A read-only snapshot (nothing to commit). */
  readOnly: boolean
}

export function openPgDatabase(url: string, options: { max?: number; idleTimeoutMillis?: number; onIdleError?: (error: Error) => void } = {}): PgDatabase {
  const pool = new pg.Pool({ connectionString: url, max: options.max ?? 20, idleTimeoutMillis: options.idleTimeoutMillis })
  // An idle pooled connection that breaks (the server restarted, a failover, a network cut) is
  // reported here and dropped by the pool; unheard, the event would end the process. The next
  // query takes a new connection, and one in flight fails with its request.
  pool.on('error', (error) => options.onIdleError?.(error))
  const current = new AsyncLocalStorage<InTransaction>()
  let savepoints = 0

  const db = drizzle(async (sql, params, method) => {
    // A pooled connection and the pool answer `query` alike (the pool takes a connection for it).
    const client: Pick<pg.Pool, 'query'> = current.getStore()?.client ?? pool
    const text = toPostgresSql(sql)
    if (method === 'run') {
      // `changes` as better-sqlite3's RunResult has it: repositories decide on how many rows a
      // write touched (`.run().changes === 1`: a webhook not seen before, a sign-in removed).
      const result = await client.query(text, params)
      return { rows: result.rows, changes: result.rowCount ?? 0 }
    }
    const { rows } = await client.query({ text, values: params, rowMode: 'array' })
    // sqlite-proxy wants the first row for `get` (undefined when there is none), all rows otherwise.
    return { rows: method === 'get' ? (rows[0] as unknown[]) : rows }
  })

  const database: PgDatabase = {
    db,
    pool,
    async transaction(fn, options) {
      const outer = current.getStore()
      // Inside a transaction: a savepoint, as drizzle nests transactions on SQLite, so a failure
      // caught inside undoes only its own part and the outer transaction goes on.
      if (outer) {
        const savepoint = `sp_${++savepoints}`
        const deferred = new Map([...outer.collected].map(([key, c]) => [key, c.rows.length]))
        await outer.client.query(`SAVEPOINT ${savepoint}`)
        try {
          const result = await fn()
          await outer.client.query(`RELEASE SAVEPOINT ${savepoint}`)
          return result
        } catch (error) {
          await outer.client.query(`ROLLBACK TO SAVEPOINT ${savepoint}`)
          // What the undone part deferred to the commit is undone with it.
          for (const [key, c] of outer.collected) c.rows.length = deferred.get(key) ?? 0
          throw error
        }
      }
      // SERIALIZABLE: two instances' transactions never interleave a read and a write of the same
      // rows; the one PostgreSQL gives up on runs again (decision 0058).
      for (let attempt = 1; ; attempt++) {
        try {
          return await onOwnConnection('BEGIN ISOLATION LEVEL SERIALIZABLE', false, fn)
        } catch (error) {
          if (options?.retry === false || attempt >= SERIALIZATION_ATTEMPTS || !isSerializationFailure(error)) throw error
          await new Promise((resolve) => setTimeout(resolve, Math.random() * 10 * attempt))
        }
      }
    },
    snapshot: (fn) => (current.getStore() ? fn() : onOwnConnection('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY', true, fn)),
    close: () => pool.end(),
  }
  // `transaction(db, fn)`, `snapshot(db, fn)` and raw statements (server/db/statement.ts) find these by the handle.
  registerEngine(db as unknown as Db, {
    name: 'postgres',
    transaction: database.transaction,
    snapshot: database.snapshot,
    async query(text, values) {
      const result = await (current.getStore()?.client ?? pool).query({ text, values, rowMode: 'array' })
      return { rows: result.rows as unknown[][], fields: result.fields.map((f) => f.name), changes: result.rowCount ?? 0 }
    },
    detached: (fn) => current.exit(fn),
    async alone(name, fn) {
      const { client, release } = await checkout()
      let broken = false
      try {
        const { rows } = await client.query<{ held: boolean }>('SELECT pg_try_advisory_lock($1, hashtext($2)) AS held', [JOB_LOCKS, name])
        if (!rows[0]!.held) return false
        try {
          await fn()
          return true
        } finally {
          await client.query('SELECT pg_advisory_unlock($1, hashtext($2))', [JOB_LOCKS, name]).catch(() => (broken = true))
        }
      } finally {
        // A connection whose unlock failed is closed, which frees the lock anyway.
        release(broken)
      }
    },
    collect(key, flush) {
      const tx = current.getStore()
      if (!tx || tx.readOnly) return undefined
      let c = tx.collected.get(key)
      if (!c) tx.collected.set(key, (c = { rows: [], flush }))
      return c.rows
    },
  })
  return database

  /**
   * A pooled connection for a while. One that breaks meanwhile (the server restarted, a failover)
   * fails its queries and is closed on release; its `error` event, unheard, would end the process.
   */
  async function checkout() {
    const client = await pool.connect()
    let failed = false
    const onError = (error: Error) => {
      failed = true
      options.onIdleError?.(error)
    }
    client.on('error', onError)
    return {
      client,
      release(broken = false) {
        client.off('error', onError)
        client.release(broken || failed)
      },
    }
  }

  /** `fn` with every query on one pooled connection, inside `begin` … COMMIT (ROLLBACK on failure). */
  async function onOwnConnection<T>(begin: string, readOnly: boolean, fn: () => Promise<T>): Promise<T> {
    const { client, release } = await checkout()
    const tx: InTransaction = { client, collected: new Map(), readOnly }
    try {
      await client.query(begin)
      // Awaited inside the connection's context: a drizzle query `fn` returns unawaited runs only
      // when awaited, and must run on this connection, not the pool.
      const result = await current.run(tx, async () => {
        const answer = await fn()
        // Deferred rows are written last, on this connection, in this transaction.
        for (const c of tx.collected.values()) if (c.rows.length) await c.flush(c.rows)
        return answer
      })
      // A transaction PostgreSQL had aborted (an error `fn` caught without a savepoint) answers
      // COMMIT with ROLLBACK, no error: nothing was written, so it must not pass as done.
      const end = await client.query('COMMIT')
      if (end.command !== 'COMMIT') throw new Error(`PostgreSQL ended the transaction with ${end.command}, not COMMIT: a failed statement inside it was caught`)
      return result
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined)
      throw error
    } finally {
      release()
    }
  }
}
