/**
 * Sends the outbox to the server, in order, exactly once per mutation as far as the server is
 * concerned: every send carries the mutation id as Idempotency-Key, so a resend after a lost
 * answer is replayed by the server instead of applied again.
 *
 * Rules (OFFLINE.md "Outbox drain"):
 * - network error, 408, 429, 5xx, 409 IDEMPOTENCY_IN_PROGRESS: keep, retry later with jittered
 *   exponential backoff (honouring Retry-After), and stop this round so order is kept;
 * - 401: pause the queue (nothing is dropped) until the user signs in again;
 * - 412: mark `conflict` with the server's current row, for the user to choose;
 * - other 4xx (including 403 when access was lost): mark `rejected` with the server's message and
 *   go on with the rest, except mutations that depend on a rejected one, which wait;
 * - 404 on a DELETE: the row is already gone, which is what was asked.
 */
import type { LocalDb, Mutation } from './local-db'
import { send, type SyncTransport } from './transport'

export const BASE_BACKOFF_MS = 1000
export const MAX_BACKOFF_MS = 5 * 60 * 1000

/** Full-jitter exponential backoff: a random wait up to base·2^attempt, capped. */
export function backoffMs(attempts: number, random = Math.random): number {
  const ceiling = Math.min(MAX_BACKOFF_MS, BASE_BACKOFF_MS * 2 ** Math.max(0, attempts - 1))
  return Math.round(ceiling / 2 + (random() * ceiling) / 2)
}

export type DrainResult = { sent: number; rejected: number; paused: 'auth' | null; waiting: boolean }

interface ErrorLike {
  message?: string
  code?: string
  current?: unknown
}

const messageOf = (body: unknown): string => (body as ErrorLike | undefined)?.message ?? ''
const codeOf = (body: unknown): string => (body as ErrorLike | undefined)?.code ?? ''

const isTransient = (status: number, body: unknown) =>
  status === 0 || status === 408 || status === 429 || status >= 500 || (status === 409 && codeOf(body) === 'IDEMPOTENCY_IN_PROGRESS')

export interface DrainDeps {
  db: LocalDb
  transport: SyncTransport
  now?: () => number
  random?: () => number
  /**
   * Called with the server's answer of each confirmed mutation, inside a Dexie transaction over
   * the outbox and the mutation's entity table (so it may only touch those, and must not fetch).
   */
  onConfirmed?: (mutation: Mutation, body: unknown) => Promise<void> | void
}

/** One pass over the queue. Call it under the cross-tab lock (see engine.ts). */
export async function drainOnce(deps: DrainDeps): Promise<DrainResult> {
  const { db, transport } = deps
  const now = deps.now ?? Date.now
  const result: DrainResult = { sent: 0, rejected: 0, paused: null, waiting: false }
  if ((await db.meta.get('authPaused'))?.value) return { ...result, paused: 'auth' }

  const queue = await db.outbox.orderBy('seq').toArray()
  const blocked = new Set(queue.filter((m) => m.status === 'rejected' || m.status === 'conflict').map((m) => m.mutationId))

  // A confirmed mutation is written off together with marking the next one `sending`: one
  // IndexedDB transaction per mutation instead of two (commits, not requests, bound the pace).
  let confirmed: { m: Mutation; body: unknown } | null = null
  /** Writes off `confirmed` and marks `next` as sending; false when `next` was discarded meanwhile. */
  const step = async (next?: Mutation): Promise<boolean> => {
    const done = confirmed
    confirmed = null
    if (!done && !next) return true
    const tables = [db.outbox, ...(done ? [db.table_(done.m.entity)] : [])]
    return db.transaction('rw', tables, async () => {
      if (done) {
        // With the dequeue: a live query sees the change either pending or confirmed, never both
        // and never neither (which would flash the old row until the next pull).
        await deps.onConfirmed?.(done.m, done.body)
        await db.outbox.delete(done.m.seq!)
      }
      return next ? (await db.outbox.update(next.seq!, { status: 'sending' })) === 1 : true
    })
  }

  for (const m of queue) {
    if (m.status === 'rejected' || m.status === 'conflict') continue
    if (m.dependsOn && blocked.has(m.dependsOn)) {
      blocked.add(m.mutationId)
      continue
    }
    if (m.nextAttemptAt > now()) {
      result.waiting = true
      break
    }
    if (!(await step(m))) continue
    const headers: Record<string, string> = { 'Idempotency-Key': m.mutationId }
    if (m.baseVersion !== undefined) headers['If-Match'] = `"${m.baseVersion}"`
    const answer = await send(transport, m.method, m.path, { body: m.body, headers })

    if (answer.status >= 200 && answer.status < 300 || (answer.status === 404 && m.method === 'DELETE')) {
      // Written off with the next step, even if the user discarded it meanwhile: the server has it.
      confirmed = { m, body: answer.body }
      result.sent += 1
      continue
    }
    // The mutation may have been discarded by the user while it was in flight.
    if (!(await db.outbox.get(m.seq!))) continue
    if (answer.status === 401) {
      await db.transaction('rw', db.outbox, db.meta, async () => {
        await db.outbox.update(m.seq!, { status: 'queued' })
        await db.meta.put({ key: 'authPaused', value: true })
      })
      return { ...result, paused: 'auth' }
    }
    if (isTransient(answer.status, answer.body)) {
      const attempts = m.attempts + 1
      const wait = Math.max(answer.retryAfterMs ?? 0, backoffMs(attempts, deps.random))
      await db.outbox.update(m.seq!, { status: 'queued', attempts, nextAttemptAt: now() + wait, lastError: messageOf(answer.body) || null })
      result.waiting = true
      break
    }
    if (answer.status === 412) {
      await db.outbox.update(m.seq!, { status: 'conflict', lastError: messageOf(answer.body), conflict: (answer.body as ErrorLike | undefined)?.current })
    } else {
      await db.outbox.update(m.seq!, { status: 'rejected', lastError: messageOf(answer.body) || `HTTP ${answer.status}` })
    }
    blocked.add(m.mutationId)
    result.rejected += 1
  }
  await step()
  return result
}
