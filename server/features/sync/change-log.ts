import { eq, gt, lt, max } from 'drizzle-orm'
import { engineOf, type Db, type Query, transaction } from '../../db/client'
import { statement } from '../../db/statement'
import { changeLog, syncState } from '../../db/schema/sync'
import type { Clock } from '../../lib/clock'
import type { SyncEntity } from '../../../shared/contract/sync'

export interface ChangeScope {
  /** Staff of this company see the change. */
  companyId?: string | null
  /**
   * With `companyId`: the company's residents see the change too, not only its staff (a listing, a
   * forum post, a member document: decision 0073). One row for all of them; each pull reads the
   * row's entity through the feature's own visibility, so a row a resident may not read reaches
   * them as a delete, never as data.
   */
  members?: true
  /** This user sees the change (own rows of a resident, notifications). */
  userId?: string | null
  /**
   * Every signed-in user sees the change (a platform article, decision 0065): stored with neither
   * a company nor a user. Without it, a scope naming neither is refused (it would reach everyone).
   */
  everyone?: true
}

type ChangeRow = [
  entity: SyncEntity,
  entityId: string,
  op: 'upsert' | 'delete',
  companyId: string | null,
  userId: string | null,
  audience: 'MEMBERS' | null,
  createdAt: string,
]

const insertOne = statement<ChangeRow, never>(
  'INSERT INTO change_log (entity, entity_id, op, company_id, user_id, audience, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
)
/** Rows per statement when changes are logged for many users at once on SQLite (`recordChangesFor`). */
const MANY_ROWS = 100
const insertMany = statement<unknown[], never>(
  `INSERT INTO change_log (entity, entity_id, op, company_id, user_id, audience, created_at) VALUES ${Array.from({ length: MANY_ROWS }, () => '(?, ?, ?, ?, ?, ?, ?)').join(', ')}`,
)

/** The rows a PostgreSQL transaction logs, written together just before its COMMIT (see `writeChange`). */
const pending = {}
/** Rows per INSERT when flushing (seven parameters a row, far below PostgreSQL's 65,535). */
const FLUSH_ROWS = 500
/** Any fixed number: the advisory lock that orders change-log writers on PostgreSQL (decision 0058). */
const CHANGE_LOG_LOCK = 0x62_6b_63_6c // "bkcl"
const COLUMNS = 7
/** The PostgreSQL channel a transaction that logged changes notifies at its COMMIT (decision 0086). */
export const CHANGE_LOG_CHANNEL = 'bk_change_log'

/**
 * The statements that write a transaction's change-log rows, sent together with its COMMIT (one
 * round trip, decision 0059). The lock comes first and is held to the COMMIT: a transaction takes
 * its seqs only after every earlier taker committed, so seqs become visible in order and a
 * puller's cursor never passes one still uncommitted.
 */
function flush(rows: ChangeRow[]): Query[] {
  const statements: Query[] = [
    { text: 'SELECT pg_advisory_xact_lock($1)', values: [CHANGE_LOG_LOCK], name: 'bk_change_log_lock' },
    // Delivered by PostgreSQL when (and only if) the transaction commits, to every instance
    // listening (server/features/live, decision 0086); sent in the same round trip as the COMMIT.
    { text: 'SELECT pg_notify($1, $2)', values: [CHANGE_LOG_CHANNEL, ''], name: 'bk_change_log_notify' },
  ]
  for (let i = 0; i < rows.length; i += FLUSH_ROWS) {
    const chunk = rows.slice(i, i + FLUSH_ROWS)
    const tuples = chunk.map((_, r) => `(${Array.from({ length: COLUMNS }, (_, c) => `$${r * COLUMNS + c + 1}`).join(', ')})`)
    statements.push({
      text: `INSERT INTO change_log (entity, entity_id, op, company_id, user_id, audience, created_at) VALUES ${tuples.join(', ')}`,
      values: chunk.flat(),
      // One row is what a request logs: prepared once per connection. Longer texts vary with their length.
      name: chunk.length === 1 ? 'bk_change_log_row' : undefined,
    })
  }
  return statements
}

/**
 * The one writer of the `change_log` table; the billing run writes three rows per agreement and
 * period through it. Call it inside the transaction that makes the change, so the log and the
 * data commit (or roll back) together.
 *
 * On SQLite the row is written at once (writes are serialized by the write lock, so seqs commit
 * in order). On PostgreSQL concurrent transactions commit in any order, so the rows are collected
 * and written at the end of the transaction under an advisory lock held to its COMMIT (decision
 * 0058): what seqs a puller sees is always a prefix of what will ever be there.
 */
export async function writeChange(db: Db, entity: SyncEntity, entityId: string, op: 'upsert' | 'delete', scope: ChangeScope, createdAt: string): Promise<void> {
  if (!scope.everyone && !scope.companyId && !scope.userId) throw new Error(`change of ${entity} ${entityId} without a scope`)
  if (scope.everyone && (scope.companyId || scope.userId)) throw new Error(`change of ${entity} ${entityId} for everyone and someone`)
  if (scope.members && !scope.companyId) throw new Error(`change of ${entity} ${entityId} for the members of no company`)
  const row: ChangeRow = [entity, entityId, op, scope.companyId ?? null, scope.userId ?? null, scope.members ? 'MEMBERS' : null, createdAt]
  const engine = engineOf(db)
  if (!engine) {
    await insertOne.run(db, row)
    return written(db)
  }
  // Last: after the request's other deferred writes (its stored answer), so the lock waits for nothing else.
  const rows = engine.collectWrites(pending, (collected) => flush(collected as ChangeRow[]), { last: true }) as ChangeRow[] | undefined
  if (rows) return void rows.push(row)
  // No write transaction in progress: one of its own, the row written under the lock at once.
  await transaction(db, async () => {
    for (const query of flush([row])) await engine.query(query)
  })
}

/**
 * Appends a change of a synced entity at the clock's time (see `writeChange`). Call it inside the
 * transaction that makes the change.
 */
export async function recordChange(db: Db, clock: Clock, entity: SyncEntity, entityId: string, op: 'upsert' | 'delete', scope: ChangeScope): Promise<void> {
  await writeChange(db, entity, entityId, op, scope, clock.now().toISOString())
}

/**
 * Appends one change for each of `entityIds` and each of `userIds` (what only those users see:
 * their rows an erase changed) in multi-row statements: a hundred rows a statement on SQLite,
 * collected for the COMMIT on PostgreSQL. Call it inside the transaction.
 */
export async function recordChangesFor(
  db: Db,
  clock: Clock,
  entity: SyncEntity,
  entityIds: readonly string[],
  op: 'upsert' | 'delete',
  userIds: readonly string[],
): Promise<void> {
  const at = clock.now().toISOString()
  await writeMany(
    db,
    entityIds.flatMap((entityId) => userIds.map((userId): ChangeRow => [entity, entityId, op, null, userId, null, at])),
  )
}

/**
 * Appends one change of `entity` for each of `changes`, each with its own scope (a company's staff
 * and one member, as an agreement's change is logged), in multi-row statements as
 * `recordChangesFor` writes them. Call it inside the transaction.
 */
export async function recordChangesOf(
  db: Db,
  clock: Clock,
  entity: SyncEntity,
  changes: readonly { entityId: string; scope: Pick<ChangeScope, 'companyId' | 'userId'> }[],
  op: 'upsert' | 'delete',
): Promise<void> {
  const at = clock.now().toISOString()
  for (const c of changes) if (!c.scope.companyId && !c.scope.userId) throw new Error(`change of ${entity} ${c.entityId} without a scope`)
  await writeMany(
    db,
    changes.map((c): ChangeRow => [entity, c.entityId, op, c.scope.companyId ?? null, c.scope.userId ?? null, null, at]),
  )
}

/** Change-log rows in multi-row statements on SQLite, collected for the COMMIT on PostgreSQL. */
async function writeMany(db: Db, rows: ChangeRow[]): Promise<void> {
  const engine = engineOf(db)
  if (engine) {
    const collected = engine.collectWrites(pending, (all) => flush(all as ChangeRow[]), { last: true }) as ChangeRow[] | undefined
    if (collected) return void collected.push(...rows)
    for (const row of rows) await writeChange(db, row[0], row[1], row[2], { companyId: row[3], userId: row[4] }, row[6])
    return
  }
  let i = 0
  for (; i + MANY_ROWS <= rows.length; i += MANY_ROWS) await insertMany.run(db, rows.slice(i, i + MANY_ROWS).flat())
  for (; i < rows.length; i++) await insertOne.run(db, rows[i]!)
  if (rows.length) written(db)
}

const watchers = new WeakMap<Db, Set<() => void>>()

/**
 * Calls `listener` whenever a change-log row is written through `db` on SQLite (inside the
 * transaction, before its COMMIT: the listener looks for committed rows under the write lock,
 * which it gets after the writer's transaction has ended). On PostgreSQL rows are told to other
 * connections by NOTIFY on `CHANGE_LOG_CHANNEL` at COMMIT instead. Answers how to stop.
 */
export function watchChangeLog(db: Db, listener: () => void): () => void {
  let set = watchers.get(db)
  if (!set) watchers.set(db, (set = new Set()))
  set.add(listener)
  return () => void set.delete(listener)
}

function written(db: Db): void {
  for (const listener of watchers.get(db) ?? []) listener()
}

/** Who may see a group of changes: the columns `visibleLog` (sync.service.ts) reads, never what changed. */
export interface ChangeAudience {
  companyId: string | null
  userId: string | null
  members: boolean
}

/**
 * The newest seq after `seq`, and the distinct audiences of the rows after it (one per company,
 * user and audience, however many rows a billing run wrote): what the live streams are woken for
 * (server/features/live). Undefined when nothing is newer.
 */
export async function audiencesSince(db: Db, seq: number): Promise<{ seq: number; audiences: ChangeAudience[] } | undefined> {
  const groups = await db
    .select({ seq: max(changeLog.seq), companyId: changeLog.companyId, userId: changeLog.userId, audience: changeLog.audience })
    .from(changeLog)
    .where(gt(changeLog.seq, seq))
    .groupBy(changeLog.companyId, changeLog.userId, changeLog.audience)
    .all()
  if (!groups.length) return undefined
  return {
    seq: Math.max(...groups.map((g) => g.seq ?? seq)),
    audiences: groups.map((g) => ({ companyId: g.companyId, userId: g.userId, members: g.audience === 'MEMBERS' })),
  }
}

/** The newest seq ever written (compaction may have removed the row itself). */
export const latestSeq = async (db: Db): Promise<number> =>
  Math.max(
    (
      await db
        .select({ seq: max(changeLog.seq) })
        .from(changeLog)
        .get()
    )?.seq ?? 0,
    await compactedThrough(db),
  )

export const compactedThrough = async (db: Db): Promise<number> =>
  (await db.select().from(syncState).where(eq(syncState.key, 'compactedThrough')).get())?.value ?? 0

/**
 * Removes log entries older than `before` (an ISO instant). Clients whose cursor points into the
 * removed range get `reset: true` and pull a fresh snapshot, so nothing is lost, only re-sent.
 * Returns the number of entries removed.
 */
export async function compactChangeLog(db: Db, before: string): Promise<number> {
  return await transaction(db, async () => {
    const through = (
      await db
        .select({ seq: max(changeLog.seq) })
        .from(changeLog)
        .where(lt(changeLog.createdAt, before))
        .get()
    )?.seq
    if (!through) return 0
    const removed = (
      await db
        .delete(changeLog)
        .where(lt(changeLog.seq, through + 1))
        .run()
    ).changes
    await db
      .insert(syncState)
      .values({ key: 'compactedThrough', value: through })
      .onConflictDoUpdate({ target: syncState.key, set: { value: through } })
      .run()
    return removed
  })
}
