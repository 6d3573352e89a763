/**
 * Putting a user's change in the outbox. Every write from the UI goes through `enqueue`: the
 * mutation is stored before anything is sent, so a change made offline, or one whose answer is
 * lost, is never lost and is sent exactly once (the mutation id is the Idempotency-Key).
 */
import type { LocalDb, Mutation } from './local-db'
import { mergeEdit, type Side, type Values } from './merge'
import { mergeSpecOf, pickValues, rowValues } from './mutation-kinds'
import { applyOutbox, putServedRow } from './optimistic'

export type NewMutation = Pick<Mutation, 'kind' | 'method' | 'path' | 'entity' | 'entityId'> &
  Partial<Pick<Mutation, 'body' | 'preview' | 'baseVersion' | 'dependsOn' | 'money' | 'mutationId' | 'base'>> & {
    /**
     * The row as the user saw it when they started the edit (e.g. when the form opened); its
     * values become `base`. Without it, the row as it shows now (canonical + pending changes).
     */
    baseRow?: Record<string, unknown>
  }

/**
 * Per local database: the versions this device's own confirmed changes moved a row from and to
 * (`entity:id:from` → to), for the page's life. A change the user makes on a view that has not
 * caught up with their previous change yet (a click right after a save) continues from the
 * version that change produced, as a queued follower does (drainer.ts); another user's change
 * in between still conflicts.
 */
const ownMoves = new WeakMap<LocalDb, Map<string, number>>()
const moveKey = (entity: string, id: string, version: number) => `${entity}:${id}:${version}`

export function noteOwnMove(db: LocalDb, entity: string, id: string, from: number, to: number): void {
  if (to === from) return
  const moves = ownMoves.get(db) ?? new Map<string, number>()
  ownMoves.set(db, moves)
  moves.set(moveKey(entity, id, from), to)
}

/** The version a row seen at `version` has after this device's own changes since (a chain: save, then save again). */
export function afterOwnMoves(db: LocalDb, entity: string, id: string, version: number): number {
  const moves = ownMoves.get(db)
  let current = version
  for (let next = moves?.get(moveKey(entity, id, current)); next !== undefined && next > current; next = moves?.get(moveKey(entity, id, current)))
    current = next
  return current
}

export async function enqueue(db: LocalDb, m: NewMutation, now = Date.now()): Promise<Mutation> {
  const { baseRow, ...fields } = m
  if (fields.baseVersion !== undefined && fields.entityId) fields.baseVersion = afterOwnMoves(db, fields.entity, fields.entityId, fields.baseVersion)
  const mutation: Mutation = {
    mutationId: m.mutationId ?? crypto.randomUUID(),
    status: 'queued',
    attempts: 0,
    nextAttemptAt: now,
    lastError: null,
    createdAt: now,
    ...fields,
  }
  if (mutation.base === undefined) {
    const base = await baseOf(db, mutation, baseRow)
    if (base) mutation.base = base
  }
  // Its place in the queue, which stays when a merge gives it a new id (await-server.ts follows it by that).
  mutation.seq = await db.outbox.add(mutation)
  return mutation
}

/** The values of a versioned edit's fields in the row it is made on (for the three-way merge after a 412). */
async function baseOf(db: LocalDb, m: Mutation, baseRow?: Record<string, unknown>): Promise<Values | undefined> {
  const spec = mergeSpecOf(m.kind)
  if (!spec || m.baseVersion === undefined || !m.entityId) return undefined
  const row = baseRow ?? (await viewRowOf(db, m.entity, m.entityId))
  return row ? rowValues(spec.fields(m), row) : undefined
}

/** A row as the user sees it now: the server's last copy with the pending changes on top. */
export async function viewRowOf(db: LocalDb, entity: Mutation['entity'], id: string) {
  const canonical = await db.table_(entity).get(id)
  const pending = (await db.outbox.where('entityId').equals(id).toArray()).filter((q) => q.entity === entity)
  return applyOutbox(canonical ? [canonical] : [], pending, entity).find((r) => r.id === id)
}

/** A versioned edit three ways: its base, its values and the server's current row (from the 412). */
export function mergeOf(m: Mutation, current: unknown, choices: Record<string, Side> = {}) {
  const spec = mergeSpecOf(m.kind)
  if (!spec || !current || typeof current !== 'object') return undefined
  const version = (current as { version?: unknown }).version
  if (typeof version !== 'number') return undefined
  const fields = spec.fields(m)
  const server = rowValues(fields, current as Record<string, unknown>)
  return { spec, fields, version, server, result: mergeEdit(fields, m.base, spec.mine(m), server, choices) }
}

/**
 * Puts a merged edit back in the queue on top of the server's version, or writes it off when
 * the server already has everything it sets. The new id: the server stored its 412 under the old.
 */
async function requeueMerged(db: LocalDb, m: Mutation, merged: NonNullable<ReturnType<typeof mergeOf>>, current: unknown, now: number): Promise<void> {
  const { spec, result, version, server } = merged
  if (result.changed.length === 0) {
    // The goal state holds on the server already: nothing to send. The local copy takes the
    // server's row where the kind can read it; never this change's own values, which would show
    // the user's value where the server keeps its own (the next pull brings the row otherwise).
    await db.transaction('rw', db.outbox, db.table_(m.entity), async () => {
      await db.outbox.delete(m.seq!)
      await putServedRow(db, m, current)
    })
    return
  }
  const mutationId = crypto.randomUUID()
  await db.transaction('rw', db.outbox, async () => {
    await db.outbox.update(m.seq!, {
      mutationId,
      status: 'queued',
      attempts: 0,
      nextAttemptAt: now,
      lastError: null,
      conflict: undefined,
      baseVersion: version,
      body: spec.body(pickValues(result.values, result.changed), m),
      base: server,
      merged: true,
    })
    // Changes waiting for this one now wait for it under its new id.
    if (m.entityId)
      await db.outbox
        .where('entityId')
        .equals(m.entityId)
        .modify((f) => {
          if (f.dependsOn === m.mutationId) f.dependsOn = mutationId
        })
  })
}

/**
 * After a 412: merges the edit with the server's row (`current`). When nothing really conflicts
 * it is queued again at once (true); otherwise (or for a kind without fields) false, and the
 * caller marks it `conflict` for the user to choose.
 */
export async function mergeAfterConflict(db: LocalDb, m: Mutation, current: unknown, now = Date.now()): Promise<boolean> {
  const merged = mergeOf(m, current)
  if (!merged || merged.result.conflicts.length > 0) return false
  await requeueMerged(db, m, merged, current, now)
  return true
}

/**
 * The user's choice for each conflicting field (key → mine or the server's); everything that
 * does not conflict is merged as usual. Resends what differs from the server, if anything.
 */
export async function resolveConflict(db: LocalDb, mutationId: string, choices: Record<string, Side>, now = Date.now()): Promise<void> {
  const m = await db.outbox.where('mutationId').equals(mutationId).first()
  if (!m || m.status !== 'conflict') return
  const merged = mergeOf(m, m.conflict, choices)
  if (!merged || merged.result.unresolved.length > 0) return
  await requeueMerged(db, m, merged, m.conflict, now)
}

/** The user gives up a rejected (or still queued) change: its local effect disappears. */
export async function discard(db: LocalDb, mutationId: string): Promise<void> {
  await db.outbox.where('mutationId').equals(mutationId).delete()
}

/**
 * The user tries a rejected change again. It gets a new id: the server stored its refusal under
 * the old one, and the same key would only replay that refusal.
 */
export async function retry(db: LocalDb, mutationId: string, now = Date.now()): Promise<void> {
  const m = await db.outbox.where('mutationId').equals(mutationId).first()
  if (!m) return
  await db.outbox.update(m.seq!, {
    mutationId: crypto.randomUUID(),
    status: 'queued',
    attempts: 0,
    nextAttemptAt: now,
    lastError: null,
    conflict: undefined,
  })
}

/** After a 412 the user keeps their change on top of the server's version: resend with its version. */
export async function overrideConflict(db: LocalDb, mutationId: string, serverVersion: number, now = Date.now()): Promise<void> {
  const m = await db.outbox.where('mutationId').equals(mutationId).first()
  if (!m) return
  await db.outbox.update(m.seq!, {
    mutationId: crypto.randomUUID(),
    status: 'queued',
    attempts: 0,
    nextAttemptAt: now,
    lastError: null,
    conflict: undefined,
    baseVersion: serverVersion,
  })
}

export const pendingCount = (db: LocalDb) => db.outbox.where('status').anyOf('queued', 'sending').count()
