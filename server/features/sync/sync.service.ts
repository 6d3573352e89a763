import { and, asc, eq, gt, inArray, isNotNull, isNull, or, type SQL } from 'drizzle-orm'
import { snapshot, type Db } from '../../db/client'
import { changeLog } from '../../db/schema/sync'
import { sha256 } from '../../lib/ids'
import type { SyncChange, SyncResponse } from '../../../shared/contract/sync'
import type { Actor } from '../../access/actor'
import { isSuperAdmin } from '../../access/policy'
import { compactedThrough, latestSeq } from './change-log'
import type { SyncedEntity } from './synced-entity'
import type { Residency } from '../agreements'

/**
 * The cursor is opaque to clients. `s` is the last change-log seq the client has; `a` fingerprints
 * what the caller could see when it was issued; `snap` is set while a full snapshot is being sent
 * (entity index and last id), after which the log is read from `s`.
 */
interface Cursor {
  s: number
  a: string
  snap?: { e: number; id: string | null }
}

const encode = (c: Cursor) => Buffer.from(JSON.stringify(c)).toString('base64url')

/**
 * The cursor in `raw`, read strictly: a client can send any text, and a snapshot position that is
 * not one we issued (a negative or fractional entity index, an id that is not a string) would
 * otherwise fail the request with a 500 and an error line in the system log.
 */
function decode(raw: string | undefined, entityCount: number): Cursor | undefined {
  if (!raw) return undefined
  try {
    const c: unknown = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8'))
    if (isCursor(c, entityCount)) return c
  } catch {
    // A cursor we cannot read is treated like an old one: the client starts again.
  }
  return undefined
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

function isCursor(c: unknown, entityCount: number): c is Cursor {
  if (!isRecord(c) || !Number.isSafeInteger(c.s) || typeof c.a !== 'string') return false
  if (c.snap === undefined) return true
  const snap = c.snap
  return (
    isRecord(snap) &&
    Number.isInteger(snap.e) &&
    (snap.e as number) >= 0 &&
    (snap.e as number) < entityCount &&
    (snap.id === null || typeof snap.id === 'string')
  )
}

/**
 * Changes whenever the caller's visibility changes: role, companies, a role in a company, or the
 * associations they live in (a resident reads the members' documents and assemblies there, and
 * one who moves in or out must get them, or lose them, at once: a reset, not a later delete).
 */
export const accessFingerprint = (actor: Actor, residentIn: readonly string[] = []): string =>
  sha256(
    [actor.userId, actor.systemRole, ...actor.companies.map((c) => `${c.id}:${c.role}`).sort(), ...residentIn.map((id) => `resident:${id}`).sort()].join('|'),
  ).slice(0, 16)

/**
 * The change log rows a caller's pull reads: their own, those for everyone (neither company nor
 * user: a platform article, decision 0065; the index change_log_user_company_seq finds them without
 * reading every company's rows), those of the companies they are staff of (the super admin: every
 * company's), and the rows for members of the associations they live in (`residentIn`, decision
 * 0073; the partial index change_log_members_seq reads those without the staff's rows).
 */
export function visibleLog(actor: Actor, residentIn: readonly string[] = []): SQL | undefined {
  const own = or(eq(changeLog.userId, actor.userId), and(isNull(changeLog.companyId), isNull(changeLog.userId)))!
  if (isSuperAdmin(actor)) return or(own, isNotNull(changeLog.companyId))
  const companyIds = actor.companies.map((c) => c.id)
  const staffOf = companyIds.length ? inArray(changeLog.companyId, companyIds) : undefined
  const livesIn = residentIn.length ? and(eq(changeLog.audience, 'MEMBERS'), inArray(changeLog.companyId, [...residentIn])) : undefined
  return or(own, staffOf, livesIn)
}

export type SyncService = ReturnType<typeof createSyncService>

/**
 * GET /api/sync. A new client (or one told to reset) first receives a snapshot of every row it
 * may see, entity by entity in id order; then the change log from the seq the snapshot started
 * at. Changes during a snapshot are re-sent by the log, and applying a row twice is harmless.
 */
export function createSyncService(deps: { db: Db; entities: SyncedEntity[]; residency: Residency }) {
  const { db, entities, residency } = deps

  async function snapshotPage(actor: Actor, cursor: Cursor, limit: number): Promise<SyncResponse> {
    const changes: SyncChange[] = []
    let { e, id } = cursor.snap!
    while (e < entities.length && changes.length < limit) {
      const entity = entities[e]!
      const want = limit - changes.length
      const rows = await entity.snapshot(db, actor, id, want)
      for (const row of rows) changes.push({ entity: entity.name, id: row.id, op: 'upsert', version: row.version, data: row.data })
      if (rows.length < want) {
        e += 1
        id = null
      } else {
        id = rows[rows.length - 1]!.id
      }
    }
    const done = e >= entities.length
    const next: Cursor = done ? { s: cursor.s, a: cursor.a } : { ...cursor, snap: { e, id } }
    return { changes, cursor: encode(next), hasMore: !done, reset: false }
  }

  async function logPage(actor: Actor, residentIn: readonly string[], cursor: Cursor, limit: number): Promise<SyncResponse> {
    const head = await latestSeq(db)
    const entries = await db
      .select()
      .from(changeLog)
      .where(and(gt(changeLog.seq, cursor.s), visibleLog(actor, residentIn)))
      .orderBy(asc(changeLog.seq))
      .limit(limit)
      .all()
    const hasMore = entries.length === limit
    // Several changes of one row in a page: the current row is sent once, in the place of its last change.
    const last = new Map<string, (typeof entries)[number]>()
    for (const entry of entries) {
      const key = `${entry.entity}\u0000${entry.entityId}`
      last.delete(key)
      last.set(key, entry)
    }
    const byEntity = new Map<string, string[]>()
    for (const entry of last.values()) if (entry.op === 'upsert') byEntity.set(entry.entity, [...(byEntity.get(entry.entity) ?? []), entry.entityId])
    const current = new Map<string, { version: number; data: Record<string, unknown> }>()
    for (const [name, ids] of byEntity) {
      const entity = entities.find((x) => x.name === name)
      for (const row of (await entity?.load(db, actor, ids)) ?? []) current.set(`${name}\u0000${row.id}`, row)
    }
    const changes: SyncChange[] = [...last.entries()].map(([key, entry]) => {
      const row = entry.op === 'upsert' ? current.get(key) : undefined
      const entity = entry.entity as SyncChange['entity']
      return row ? { entity, id: entry.entityId, op: 'upsert', version: row.version, data: row.data } : { entity, id: entry.entityId, op: 'delete' }
    })
    const seq = hasMore ? entries[entries.length - 1]!.seq : Math.max(head, cursor.s)
    return { changes, cursor: encode({ s: seq, a: cursor.a }), hasMore, reset: false }
  }

  return {
    /**
     * One page, read from one moment: a compaction committed between the staleness check and the
     * log read would otherwise drop entries without `reset`.
     */
    pull: (actor: Actor, rawCursor: string | undefined, limit: number): Promise<SyncResponse> =>
      snapshot(db, async () => {
        const residentIn = isSuperAdmin(actor) ? [] : await residency.residentCompanyIds(actor.userId)
        const access = accessFingerprint(actor, residentIn)
        const cursor = decode(rawCursor, entities.length)
        const stale = cursor !== undefined && (cursor.a !== access || cursor.s < (await compactedThrough(db)))
        const unreadable = rawCursor !== undefined && rawCursor !== '' && cursor === undefined
        if (!cursor || stale) {
          const start: Cursor = { s: await latestSeq(db), a: access, snap: { e: 0, id: null } }
          return { ...(await snapshotPage(actor, start, limit)), reset: stale || unreadable }
        }
        return cursor.snap ? await snapshotPage(actor, cursor, limit) : await logPage(actor, residentIn, cursor, limit)
      }),
  }
}
