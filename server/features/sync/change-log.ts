import type Database from 'better-sqlite3'
import { eq, lt, max } from 'drizzle-orm'
import { connectionOf, type Db, transaction } from '../../db/client'
import { changeLog, syncState } from '../../db/schema/sync'
import type { Clock } from '../../lib/clock'
import type { SyncEntity } from '../../../shared/contract/sync'

export interface ChangeScope {
  /** Staff of this company see the change. */
  companyId?: string | null
  /** This user sees the change (own rows of a resident, notifications). */
  userId?: string | null
}

const writers = new WeakMap<Database.Database, Database.Statement<[string, string, string, string | null, string | null, string]>>()

/**
 * The one writer of the `change_log` table, as a statement prepared once per connection: the
 * billing run writes three rows per agreement and period, so it calls this too (plain values, no
 * query building per row). Call it inside the transaction that makes the change.
 */
export function changeLogWriter(sqlite: Database.Database) {
  let insert = writers.get(sqlite)
  if (!insert) {
    insert = sqlite.prepare('INSERT INTO change_log (entity, entity_id, op, company_id, user_id, created_at) VALUES (?, ?, ?, ?, ?, ?)')
    writers.set(sqlite, insert)
  }
  const statement = insert
  return (entity: SyncEntity, entityId: string, op: 'upsert' | 'delete', scope: ChangeScope, createdAt: string): void =>
    void statement.run(entity, entityId, op, scope.companyId ?? null, scope.userId ?? null, createdAt)
}

/**
 * Appends a change of a synced entity. Call it inside the transaction that makes the change,
 * so the log and the data commit (or roll back) together.
 */
export function recordChange(db: Db, clock: Clock, entity: SyncEntity, entityId: string, op: 'upsert' | 'delete', scope: ChangeScope): void {
  changeLogWriter(connectionOf(db))(entity, entityId, op, scope, clock.now().toISOString())
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
