/**
 * Putting a user's change in the outbox. Every write from the UI goes through `enqueue`: the
 * mutation is stored before anything is sent, so a change made offline, or one whose answer is
 * lost, is never lost and is sent exactly once (the mutation id is the Idempotency-Key).
 */
import type { LocalDb, Mutation } from './local-db'

export type NewMutation = Pick<Mutation, 'kind' | 'method' | 'path' | 'entity' | 'entityId'> &
  Partial<Pick<Mutation, 'body' | 'preview' | 'baseVersion' | 'dependsOn' | 'money' | 'mutationId'>>

export async function enqueue(db: LocalDb, m: NewMutation, now = Date.now()): Promise<Mutation> {
  const mutation: Mutation = {
    mutationId: m.mutationId ?? crypto.randomUUID(),
    status: 'queued',
    attempts: 0,
    nextAttemptAt: now,
    lastError: null,
    createdAt: now,
    ...m,
  }
  await db.outbox.add(mutation)
  return mutation
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
  await db.outbox.update(m.seq!, { mutationId: crypto.randomUUID(), status: 'queued', attempts: 0, nextAttemptAt: now, lastError: null, conflict: undefined, baseVersion: serverVersion })
}

export const pendingCount = (db: LocalDb) => db.outbox.where('status').anyOf('queued', 'sending').count()
