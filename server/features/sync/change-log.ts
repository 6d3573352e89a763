import { eq, lt, max } from 'drizzle-orm'
import type { Db } from '../../db/client'
import { changeLog, syncState } from '../../db/schema/sync'
import type { Clock } from '../../lib/clock'
import type { SyncEntity } from '../../../shared/contract/sync'

export interface ChangeScope {
  /** Staff of this company see the change. */
  companyId?: string | null
  /** This user sees the change (own rows of a resident, notifications). */
  userId?: string | null
}

/**
 * Appends a change of a synced entity. Call it inside the transaction that makes the change,
 * so the log and the data commit (or roll back) together.
 */
export function recordChange(db: Db, clock: Clock, entity: SyncEntity, entityId: string, op: 'upsert' | 'delete', scope: ChangeScope): void {
  db.insert(changeLog)
    .values({ entity, entityId, op, companyId: scope.companyId ?? null, userId: scope.userId ?? null, createdAt: clock.now().toISOString() })
    .run()
}

/** The newest seq ever written (compaction may have removed the row itself). */
export const latestSeq = (db: Db): number =>
  Math.max(db.select({ seq: max(changeLog.seq) }).from(changeLog).get()?.seq ?? 0, compactedThrough(db))

export const compactedThrough = (db: Db): number =>
  db.select().from(syncState).where(eq(syncState.key, 'compactedThrough')).get()?.value ?? 0

/**
 * Removes log entries older than `before` (an ISO instant). Clients whose cursor points into the
 * removed range get `reset: true` and pull a fresh snapshot, so nothing is lost, only re-sent.
 * Returns the number of entries removed.
 */
export function compactChangeLog(db: Db, before: string): number {
  return db.transaction((tx) => {
    const through = tx.select({ seq: max(changeLog.seq) }).from(changeLog).where(lt(changeLog.createdAt, before)).get()?.seq
    if (!through) return 0
    const removed = tx.delete(changeLog).where(lt(changeLog.seq, through + 1)).run().changes
    tx.insert(syncState)
      .values({ key: 'compactedThrough', value: through })
      .onConflictDoUpdate({ target: syncState.key, set: { value: through } })
      .run()
    return removed
  })
}
