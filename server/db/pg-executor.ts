/**
 * Runs the queries the repositories build with drizzle on PostgreSQL
 * (docs/decisions/0057-one-query-text-two-engines.md). The repositories are written once, against
 * the sqlite-core schema (server/db/schema); on PostgreSQL the `db` handle is drizzle's
 * `sqlite-proxy` database built with `SqliteDialectForPostgres` (server/db/pg-dialect.ts), so the
 * same builders render PostgreSQL's SQL (`$1, $2, …` parameters, bare conflict targets) and this
 * sends each statement as drizzle made it: no SQL text is rewritten at run time
 * (docs/decisions/0074-one-definition-per-table-and-query.md). Raw statements
 * (server/db/statement.ts) have their PostgreSQL text made once, when they are defined.
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
 *
 * Round trips (decision 0059): the pool's connections pipeline (node-postgres' `pipeline`: a query
 * is sent without waiting for the answer to the one before; the server still runs them in order,
 * each with its own Sync). A transaction uses that where an answer is not needed before the next
 * statement: the BEGIN goes out together with the first statement (or right behind the one read of
 * `before`), and the rows collected for the commit (`collectWrites`: the stored answer, the change
 * log's lock and rows) go out together with the COMMIT, each group in one write to the socket
 * (corked). A transaction that sent nothing sends no BEGIN and no COMMIT. A write request that
 * reads once and writes once so costs four round trips, not eight. Raw statements are named
 * (server/db/statement.ts): each connection parses and plans them once.
 */
import { AsyncLocalStorage } from 'node:async_hooks'
import pg from 'pg'
import { SqliteRemoteDatabase, SQLiteRemoteSession, type RemoteCallback } from 'drizzle-orm/sqlite-proxy'
import { SqliteDialectForPostgres } from './pg-dialect'
import {
  afterSerializationFailure,
  isSerializationFailure,
  registerEngine,
  SERIALIZATION_ATTEMPTS,
  type Db,
  type Engine,
  type Query,
  type TransactionOptions,
} from './client'

// count(*) is a bigint and sum() a numeric in PostgreSQL, which node-postgres hands over as
// strings; every such figure here (counts, øre sums) is an integer far below 2^53.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value))
pg.types.setTypeParser(pg.types.builtins.NUMERIC, (value) => Number(value))
// JSON columns are text in SQLite, and drizzle's SQLite mapping parses them itself.
pg.types.setTypeParser(pg.types.builtins.JSON, (value) => value)
pg.types.setTypeParser(pg.types.builtins.JSONB, (value) => value)

export interface PgDatabase {
  /** The drizzle handle the repositories use (sqlite-core builders rendering PostgreSQL, asynchronous). */
  db: SqliteRemoteDatabase
  pool: pg.Pool
  /** Runs `fn` as one transaction: every query it makes, across awaits, uses one connection. */
  transaction<T>(fn: () => Promise<T>, options?: TransactionOptions): Promise<T>
  /** Runs `fn`'s reads on one snapshot (REPEATABLE READ, READ ONLY); inside a transaction, in it. */
  snapshot<T>(fn: () => Promise<T>): Promise<T>
  close(): Promise<void>
}

/** The advisory-lock class (first key) of the jobs' locks (`alone`); the second key is the job name's hash. */
export const JOB_LOCKS = 0x626b6a62 // "bkjb"

/** Rows deferred to the end of a transaction by one collector: handed to `flush` before the COMMIT, or written by `write`'s statements with it. */
interface Collected {
  rows: unknown[]
  flush?: (rows: unknown[]) => Promise<void>
  write?: (rows: unknown[]) => Query[]
  last?: boolean
}

/** The transaction in progress on a context: its connection and what runs just before its COMMIT. */
interface InTransaction {
  client: pg.PoolClient
  /** Rows deferred to the end of the transaction (the change log's, decision 0058), by collector. */
  collected: Map<object, Collected>
  /** A read-only snapshot (nothing to commit). */
  readOnly: boolean
  /** `BEGIN …`, as this transaction begins: sent with its first statement, not before. */
  begin: string
  /** The BEGIN's answer, once it went out; awaited with the COMMIT's. */
  began?: Promise<unknown>
  /**
   * While `before` runs (see TransactionOptions): its one statement goes out ahead of the BEGIN
   * ('reading'); a second one ('read') is refused.
   */
  before?: 'reading' | 'read'
}

/** Sent now, its answer looked at later: a failure must not count as unhandled meanwhile. */
export function later<T>(sent: Promise<T>): Promise<T> {
  sent.catch(() => undefined)
  return sent
}

/**
 * Runs `send`, whose queries then leave in one write to the socket: node-postgres writes each query
 * on its own (a system call and a wake-up of the server each), which pipelining alone does not change.
 */
export function together<T>(client: pg.PoolClient, send: () => T): T {
  const { stream } = (client as unknown as { connection: { stream: { cork(): void; uncork(): void } } }).connection
  stream.cork()
  try {
    return send()
  } finally {
    stream.uncork()
  }
}

/** Sends the BEGIN, unless it went out already. */
function begin(tx: InTransaction): void {
  tx.began ??= later(tx.client.query(tx.begin))
}

/**
 * What an instance that vanished or froze can hold, bounded (decision 0058), set on every pooled
 * connection:
 * - TCP keepalives from the server's end: a host gone without closing its connections (a power
 *   cut, a network partition) is noticed in about a minute (30 s idle, then 3 probes 10 s apart)
 *   and its sessions end, freeing its job locks and its open transactions' row locks; under Linux'
 *   defaults that takes over two hours. (Connections over a Unix socket have no use for them.)
 * - `idle_in_transaction_session_timeout`: a transaction left open by an instance that froze ends
 *   after a minute, with its row locks.
 * - `lock_timeout`: a statement waits at most 10 s for a row another transaction holds, then fails
 *   (55P03, answered 503 BUSY), so requests do not pile up behind it until the pool is spent.
 */
export const SESSION_LIMITS = { idleInTransactionMs: 60_000, lockTimeoutMs: 10_000 }
const KEEPALIVES = { tcp_keepalives_idle: 30, tcp_keepalives_interval: 10, tcp_keepalives_count: 3 }

/** How `openPgDatabase` sets up its pool. */
export interface PgOptions {
  max?: number
  idleTimeoutMillis?: number
  onIdleError?: (error: Error) => void
  /** SESSION_LIMITS' instead (tests). */
  limits?: Partial<typeof SESSION_LIMITS>
}

export function openPgDatabase(url: string, options: PgOptions = {}): PgDatabase {
  const pool = openPool(url, options)
  const executor = new PgExecutor(pool, options.onIdleError)
  const db = drizzleOn(executor.execute)
  const database: PgDatabase = {
    db,
    pool,
    transaction: executor.transaction,
    snapshot: executor.snapshot,
    close: () => pool.end(),
  }
  // `transaction(db, fn)`, `snapshot(db, fn)` and raw statements (server/db/statement.ts) find these by the handle.
  registerEngine(db as unknown as Db, {
    name: 'postgres',
    transaction: database.transaction,
    snapshot: database.snapshot,
    query: executor.query,
    detached: (fn) => executor.current.exit(fn),
    alone: executor.alone,
    collect: (key, flush) => executor.collected(key, { flush }),
    collectWrites: (key, write, options) => executor.collected(key, { write, last: options?.last }),
  })
  return database
}

/** The pool, its connections pipelined and each given SESSION_LIMITS' settings (or `options.limits`) as it connects. */
function openPool(url: string, options: PgOptions): pg.Pool {
  // Pipelined: a connection sends a query without waiting for the answer to the one before (see
  // the file's comment). keepAlive: this side notices a database host that vanished; a checkout
  // waits at most 10 s for a free connection, then fails (the health check answers 503).
  const pool = new pg.Pool({
    connectionString: url,
    max: options.max ?? 20,
    idleTimeoutMillis: options.idleTimeoutMillis,
    pipeline: true,
    keepAlive: true,
    connectionTimeoutMillis: 10_000,
  })
  const limits = { ...SESSION_LIMITS, ...options.limits }
  const settings = Object.entries({
    ...KEEPALIVES,
    idle_in_transaction_session_timeout: limits.idleInTransactionMs,
    lock_timeout: limits.lockTimeoutMs,
  })
  // Sent ahead of the new connection's first query (pipelined: no round trip of its own). A pooler
  // that refuses one fails that query alone; the connection is still usable.
  pool.on('connect', (client) => {
    client
      .query(`SELECT ${settings.map((_, i) => `set_config($${2 * i + 1}, $${2 * i + 2}, false)`).join(', ')}`, settings.flat().map(String))
      .catch(() => undefined)
  })
  // An idle pooled connection that breaks (the server restarted, a failover, a network cut) is
  // reported here and dropped by the pool; unheard, the event would end the process. The next
  // query takes a new connection, and one in flight fails with its request.
  pool.on('error', (error) => options.onIdleError?.(error))
  return pool
}

/** What sqlite-proxy's drizzle() builds, with the dialect that renders PostgreSQL (drizzle() takes none). */
function drizzleOn(execute: RemoteCallback): SqliteRemoteDatabase {
  const dialect = new SqliteDialectForPostgres()
  return new SqliteRemoteDatabase<Record<string, never>>('async', dialect, new SQLiteRemoteSession(execute, dialect, undefined), undefined)
}

/**
 * Statements and transactions on one pool: which connection a query goes on (the transaction in
 * progress on its context, or the pool), savepoints, the transaction's BEGIN and COMMIT, and the
 * job locks. The members handed to drizzle and to `registerEngine` are arrow properties.
 */
class PgExecutor {
  /** The transaction in progress on this context (across awaits), if any. */
  readonly current = new AsyncLocalStorage<InTransaction>()
  private savepoints = 0

  constructor(
    private readonly pool: pg.Pool,
    private readonly onIdleError?: (error: Error) => void,
  ) {}

  /** Runs one statement drizzle rendered for PostgreSQL (see the file's comment), as sqlite-proxy asks. */
  readonly execute: RemoteCallback = async (text, params, method) => {
    if (method === 'run') {
      // `changes` as better-sqlite3's RunResult has it: repositories decide on how many rows a
      // write touched (`.run().changes === 1`: a webhook not seen before, a sign-in removed).
      const result = await this.send({ text, values: params })
      return { rows: result.rows, changes: result.rowCount ?? 0 }
    }
    const { rows } = await this.send({ text, values: params, rowMode: 'array' })
    // sqlite-proxy wants the first row for `get` (undefined when there is none), all rows otherwise.
    return { rows: method === 'get' ? (rows[0] as unknown[]) : rows }
  }

  /** A raw statement (server/db/statement.ts): rows as arrays, the column names, rows touched. */
  readonly query: Engine['query'] = async (query) => {
    const result = await this.send({ ...query, rowMode: 'array' })
    return { rows: result.rows as unknown[][], fields: result.fields.map((f) => f.name), changes: result.rowCount ?? 0 }
  }

  /** Sends a query in the transaction in progress (see `inTransaction`), or on the pool outside one. */
  private send(query: pg.QueryConfig & { rowMode?: 'array' }): Promise<pg.QueryResult> {
    const tx = this.current.getStore()
    return tx ? this.inTransaction(tx, query) : this.pool.query(query)
  }

  readonly transaction: PgDatabase['transaction'] = async (fn, options) => {
    const outer = this.current.getStore()
    if (outer) return await this.inSavepoint(outer, fn, options?.before)
    // SERIALIZABLE: two instances' transactions never interleave a read and a write of the same
    // rows; the one PostgreSQL gives up on runs again (decision 0058).
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.onOwnConnection('BEGIN ISOLATION LEVEL SERIALIZABLE', false, fn, options?.before)
      } catch (error) {
        if (options?.retry === false || attempt >= SERIALIZATION_ATTEMPTS || !isSerializationFailure(error)) throw error
        await afterSerializationFailure(attempt)
      }
    }
  }

  readonly snapshot: PgDatabase['snapshot'] = (fn) =>
    this.current.getStore() ? fn() : this.onOwnConnection('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY', true, fn)

  /**
   * Inside a transaction: a savepoint, as drizzle nests transactions on SQLite, so a failure
   * caught inside undoes only its own part and the outer transaction goes on.
   */
  private async inSavepoint<T>(outer: InTransaction, fn: () => Promise<T>, before?: () => Promise<unknown>): Promise<T> {
    await before?.()
    const savepoint = `sp_${++this.savepoints}`
    const deferred = new Map([...outer.collected].map(([key, c]) => [key, c.rows.length]))
    await this.inTransaction(outer, { text: `SAVEPOINT ${savepoint}` })
    try {
      const result = await fn()
      await this.inTransaction(outer, { text: `RELEASE SAVEPOINT ${savepoint}` })
      return result
    } catch (error) {
      await this.inTransaction(outer, { text: `ROLLBACK TO SAVEPOINT ${savepoint}` })
      // What the undone part deferred to the commit is undone with it.
      for (const [key, c] of outer.collected) c.rows.length = deferred.get(key) ?? 0
      throw error
    }
  }

  /** Runs `fn` unless another instance holds the job lock of `name` (a session-level advisory lock); answers whether it ran. */
  readonly alone: Engine['alone'] = async (name, fn) => {
    const { client, release } = await this.checkout()
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
  }

  /** The rows the write transaction in progress collects under `key` (made on first use), or undefined outside one. */
  collected(key: object, how: Omit<Collected, 'rows'>): unknown[] | undefined {
    const tx = this.current.getStore()
    if (!tx || tx.readOnly) return undefined
    let c = tx.collected.get(key)
    if (!c) tx.collected.set(key, (c = { rows: [], ...how }))
    return c.rows
  }

  /**
   * A pooled connection for a while. One that breaks meanwhile (the server restarted, a failover)
   * fails its queries and is closed on release; its `error` event, unheard, would end the process.
   */
  private async checkout() {
    const client = await this.pool.connect()
    let failed = false
    const onError = (error: Error) => {
      failed = true
      this.onIdleError?.(error)
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

  /**
   * Sends a query on the transaction's connection, behind what it has sent already (pipelined),
   * and the BEGIN with it when it is the first (one write, one round trip). `before`'s one read
   * goes out ahead of the BEGIN instead, outside the transaction.
   */
  private inTransaction(tx: InTransaction, query: pg.QueryConfig & { rowMode?: 'array' }): Promise<pg.QueryResult> {
    if (tx.before === 'read') throw new Error("A transaction's `before` makes one statement: its BEGIN went out behind the first")
    return together(tx.client, () => {
      if (tx.before !== 'reading') begin(tx)
      const result = tx.client.query(query)
      if (tx.before === 'reading') {
        begin(tx)
        tx.before = 'read'
      }
      return result
    })
  }

  /**
   * `fn` with every query on one pooled connection, inside `begin` … COMMIT (ROLLBACK on failure),
   * after `before` (see TransactionOptions). The BEGIN is not waited for: it goes out with the
   * first statement, and its answer is looked at with the COMMIT's. (A BEGIN fails only with its
   * connection, and then so does everything sent behind it.)
   */
  private async onOwnConnection<T>(begin: string, readOnly: boolean, fn: () => Promise<T>, before?: () => Promise<unknown>): Promise<T> {
    const { client, release } = await this.checkout()
    const tx: InTransaction = { client, collected: new Map(), readOnly, begin }
    let broken = false
    try {
      if (before) {
        tx.before = 'reading'
        await this.current.run(tx, before)
        tx.before = undefined
      }
      // Awaited inside the connection's context: a drizzle query `fn` returns unawaited runs only
      // when awaited, and must run on this connection, not the pool.
      const result = await this.current.run(tx, async () => {
        const answer = await fn()
        // Deferred work that is not statements (the actor cache's) runs last, in this transaction.
        for (const c of tx.collected.values()) if (c.flush && c.rows.length) await c.flush(c.rows)
        return answer
      })
      await commit(tx)
      return result
    } catch (error) {
      // A connection that cannot even roll back is closed, never handed out inside a transaction.
      if (tx.began) await client.query('ROLLBACK').catch(() => (broken = true))
      throw error
    } finally {
      release(broken)
    }
  }
}

/**
 * Sends the collected writes and the COMMIT together (one write, one round trip) and waits for
 * every answer: the first failure, the BEGIN's included, is the transaction's. A transaction
 * that sent nothing has nothing to commit.
 */
async function commit(tx: InTransaction): Promise<void> {
  const writes = [...tx.collected.values()].filter((c) => c.write && c.rows.length)
  // Built before anything is sent, so a failure here sends nothing half.
  const statements = [...writes.filter((c) => !c.last), ...writes.filter((c) => c.last)].flatMap((c) => c.write!(c.rows))
  if (!tx.began && !statements.length) return
  const [sent, end] = together(tx.client, () => {
    begin(tx)
    return [[tx.began, ...statements.map((q) => later(tx.client.query(q)))], later(tx.client.query('COMMIT'))] as const
  })
  const failure = (await Promise.allSettled([...sent, end])).find((s): s is PromiseRejectedResult => s.status === 'rejected')
  if (failure) throw failure.reason
  // A transaction PostgreSQL had aborted (an error `fn` caught without a savepoint) answers
  // COMMIT with ROLLBACK, no error: nothing was written, so it must not pass as done.
  const { command } = await end
  if (command !== 'COMMIT') throw new Error(`PostgreSQL ended the transaction with ${command}, not COMMIT: a failed statement inside it was caught`)
}
