/**
 * Sends the outbox to the server, in order per row, exactly once per mutation as far as the server is
 * concerned: every send carries the mutation id as Idempotency-Key, so a resend after a lost
 * answer is replayed by the server instead of applied again. Changes to unrelated rows travel
 * together: up to SYNC_BATCH_MAX_ITEMS in one `POST /api/sync/batch`, or, with a server without
 * it, up to MAX_IN_FLIGHT single requests at once. Each answer is handled the same way however it came.
 *
 * Rules (docs/OFFLINE.md "Outbox drain"):
 * - network error, 408, 429, 5xx, 409 IDEMPOTENCY_IN_PROGRESS: keep, retry later with jittered
 *   exponential backoff (honouring Retry-After), and stop this round so order is kept;
 * - 401: pause the queue (nothing is dropped) until the user signs in again;
 * - 412: merge with the server's current row field by field (merge.ts) and send again; only when
 *   both changed the same field differently mark `conflict` with that row, for the user to choose;
 * - 403/404 for a company the user no longer belongs to (access lost while offline): mark
 *   `rejected` with a `refusal` naming the company (outcomes.ts), so the user reads why in words;
 * - 404/410 on a DELETE, or on a kind whose goal then holds (outcomes.ts `goalHoldsWhenGone`, e.g.
 *   marking read a notification deleted elsewhere): done, quietly; the local row is dropped;
 * - other 4xx: mark `rejected` with the server's message and go on with the rest, except
 *   mutations that depend on a rejected one, which wait.
 * A refused change is sent once: it stays `rejected` until the user retries it (under a new id).
 */
import type { LocalDb, Mutation } from './local-db'
import { isGoneDone, lostAccess, type AccessAnswer, type RefusedMutation } from './outcomes'
import { mergeAfterConflict, noteOwnMove } from './outbox'
import { SYNC_BATCH_MAX_ITEMS } from '../../shared/contract/sync-basics'
import { isUnreachable, send, sendBatch, type BatchRequest, type SyncAnswer, type SyncTransport } from './transport'
import { backoffMs } from '../../shared/domain/backoff'

/**
 * The wait before a mutation's next try after its `attempts`-th failed one: 1 s doubling per attempt,
 * at most 5 minutes, with equal jitter (half of it random) so that devices that failed together do
 * not all come back at once.
 */
export const retryWaitMs = (attempts: number, random = Math.random): number =>
  backoffMs(attempts - 1, { baseMs: 1000, maxMs: 5 * 60 * 1000, jitter: 'equal', random })

/** `unreachable`: a send found no server (network error, or 502/503/504 from what stands in front of it). */
export type DrainResult = { sent: number; rejected: number; paused: 'auth' | null; waiting: boolean; unreachable: boolean }

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

/** How many independent mutations may be in flight at once as single requests (see `nextBatch`). */
export const MAX_IN_FLIGHT = 16

/**
 * Transports whose server answered that it has no batch route (an older server): they send
 * single requests from then on. Kept for the transport's life, i.e. the signed-in session; a new
 * server version comes with a new client anyway (service worker update).
 */
const withoutBatch = new WeakSet<SyncTransport>()

/** A batch answer that is the answer of each of its requests: nobody was reached, or not allowed to ask. */
const answersForEach = (status: number) => status === 0 || status === 401 || status === 408 || status === 429 || status >= 500

/**
 * The next mutations to send together: consecutive due mutations of *different* rows, none
 * depending on another in the batch and none touching a whole table (entityId null). Changes to
 * one row therefore still reach the server strictly in order, and batches go one after another;
 * only changes to unrelated rows overlap on the wire.
 */
function nextBatch(queue: Mutation[], from: number, blocked: Set<string>, now: number, max: number): { batch: Mutation[]; next: number; waiting: boolean } {
  const batch: Mutation[] = []
  const rows = new Set<string>()
  const ids = new Set<string>()
  // A row with a change waiting for the user's choice: later changes to it wait too, or the
  // choice would be made against the user's own newer change (and could undo it).
  const choosing = new Set(queue.filter((m) => m.status === 'conflict' && m.entityId !== null).map((m) => `${m.entity}:${m.entityId}`))
  let i = from
  for (; i < queue.length && batch.length < max; i++) {
    const m = queue[i]!
    if (m.status === 'rejected' || m.status === 'conflict') continue
    if ((m.dependsOn && blocked.has(m.dependsOn)) || (m.entityId !== null && choosing.has(`${m.entity}:${m.entityId}`))) {
      blocked.add(m.mutationId)
      continue
    }
    if (m.nextAttemptAt > now) return { batch, next: i, waiting: batch.length === 0 }
    const wholeTable = m.entityId === null
    const sameRow = m.entityId !== null && rows.has(`${m.entity}:${m.entityId}`)
    if (batch.length > 0 && (wholeTable || sameRow || (m.dependsOn && ids.has(m.dependsOn)) || batch.some((b) => b.entityId === null))) break
    batch.push(m)
    ids.add(m.mutationId)
    if (m.entityId !== null) rows.add(`${m.entity}:${m.entityId}`)
  }
  return { batch, next: i, waiting: false }
}

/** One pass over the queue. Call it under the cross-tab lock (see engine.ts). */
export async function drainOnce(deps: DrainDeps): Promise<DrainResult> {
  const { db, transport } = deps
  const now = deps.now ?? Date.now
  const result: DrainResult = { sent: 0, rejected: 0, paused: null, waiting: false, unreachable: false }
  if ((await db.meta.get('authPaused'))?.value) return { ...result, paused: 'auth' }

  const queue = await db.outbox.orderBy('seq').toArray()
  const blocked = new Set(queue.filter((m) => m.status === 'rejected' || m.status === 'conflict').map((m) => m.mutationId))

  // Confirmed mutations are written off together with marking the next batch `sending`: one
  // IndexedDB transaction per batch (commits, not requests, bound the pace).
  let confirmed: Array<{ m: Mutation; body: unknown; gone?: boolean }> = []
  /** Writes off `confirmed` and marks `next` as sending; returns the ones still in the queue. */
  const step = async (next: Mutation[] = []): Promise<Mutation[]> => {
    const done = confirmed
    confirmed = []
    if (done.length === 0 && next.length === 0) return []
    const tables = [db.outbox, ...new Set(done.map((d) => db.table_(d.m.entity)))]
    return db.transaction('rw', tables, async () => {
      for (const d of done) {
        // With the dequeue: a live query sees the change either pending or confirmed, never both
        // and never neither (which would flash the old row until the next pull).
        // Gone on the server (and that is what was asked, or it holds anyway): so it is here too.
        if (d.gone && d.m.entityId !== null) await db.table_(d.m.entity).delete(d.m.entityId)
        else await deps.onConfirmed?.(d.m, d.body)
        await db.outbox.delete(d.m.seq!)
        await rebaseFollowers(d.m, d.body)
      }
      const still: Mutation[] = []
      // A mutation the user discarded meanwhile is not sent.
      for (const m of next) if ((await db.outbox.update(m.seq!, { status: 'sending' })) === 1) still.push(m)
      return still
    })
  }

  /**
   * The user's own later changes to the same row were made on the version this one started from;
   * the server has moved it on by this change, so they continue from the version it answered
   * (otherwise the second of two offline edits would conflict with the first).
   */
  const rebaseFollowers = async (m: Mutation, body: unknown) => {
    const version = (body as { version?: unknown } | undefined)?.version
    if (m.baseVersion === undefined || m.merged || typeof version !== 'number' || m.entityId === null) return
    noteOwnMove(db, m.entity, m.entityId, m.baseVersion, version)
    const followers = (await db.outbox.where('entityId').equals(m.entityId).toArray()).filter(
      (f) => f.entity === m.entity && f.baseVersion === m.baseVersion && f.status === 'queued',
    )
    for (const f of followers) {
      await db.outbox.update(f.seq!, { baseVersion: version })
      const inMemory = queue.find((q) => q.seq === f.seq)
      if (inMemory) inMemory.baseVersion = version
    }
  }

  const requestOf = (m: Mutation): BatchRequest => {
    const headers: BatchRequest['headers'] = { 'Idempotency-Key': m.mutationId }
    if (m.baseVersion !== undefined) headers['If-Match'] = `"${m.baseVersion}"`
    return { method: m.method, path: m.path, body: m.body, headers }
  }

  /** Each request alone, up to MAX_IN_FLIGHT at once (the mutations of one batch are independent). */
  const sendAlone = async (batch: Mutation[]): Promise<SyncAnswer[]> => {
    const answers: SyncAnswer[] = []
    for (let i = 0; i < batch.length; i += MAX_IN_FLIGHT)
      answers.push(
        ...(await Promise.all(
          batch.slice(i, i + MAX_IN_FLIGHT).map((m) => {
            const { method, path, body, headers } = requestOf(m)
            return send(transport, method, path, { body, headers })
          }),
        )),
      )
    return answers
  }

  /**
   * The answers of a batch of independent mutations, in order: one round trip through
   * `POST /api/sync/batch` when there is more than one; alone when the server has no batch route
   * (remembered), or when it did not run the batch for a reason of its own (a 400 or 413): then
   * each goes alone and gets its own answer.
   */
  const answersOf = async (batch: Mutation[]): Promise<SyncAnswer[]> => {
    if (batch.length === 1 || withoutBatch.has(transport)) return sendAlone(batch)
    const sent = await sendBatch(transport, batch.map(requestOf))
    if (sent.kind === 'answers') return sent.answers
    if (sent.kind === 'failed' && answersForEach(sent.answer.status)) return batch.map(() => sent.answer)
    if (sent.kind === 'unsupported') withoutBatch.add(transport)
    return sendAlone(batch)
  }

  /** The user's companies, asked at most once per pass (only after a 403/404). */
  let account: Promise<AccessAnswer> | undefined
  const accountInfo = () => (account ??= send(transport, 'GET', '/account/info'))

  /**
   * What one answer means for its mutation (the rules at the top of this file), the same whether it
   * came alone or in a batch. `stop`: the round ends so that later changes wait behind this one.
   */
  const handle = async (m: Mutation, answer: SyncAnswer): Promise<'next' | 'stop'> => {
    if (answer.status >= 200 && answer.status < 300) {
      // Written off with the next step, even if the user discarded it meanwhile: the server has it.
      confirmed.push({ m, body: answer.body })
      result.sent += 1
      return 'next'
    }
    // Access lost while offline: said in words with the company's name (not "Agreement not found").
    const refusal = answer.status === 403 || answer.status === 404 ? await lostAccess(db, m, accountInfo) : null
    if (!refusal && (answer.status === 404 || answer.status === 410) && isGoneDone(m)) {
      confirmed.push({ m, body: answer.body, gone: true })
      result.sent += 1
      return 'next'
    }
    // The mutation may have been discarded by the user while it was in flight.
    if (!(await db.outbox.get(m.seq!))) return 'next'
    if (answer.status === 401) {
      await db.transaction('rw', db.outbox, db.meta, async () => {
        await db.outbox.update(m.seq!, { status: 'queued' })
        await db.meta.put({ key: 'authPaused', value: true })
      })
      result.paused = 'auth'
      return 'stop'
    }
    if (isTransient(answer.status, answer.body)) {
      const attempts = m.attempts + 1
      const wait = Math.max(answer.retryAfterMs ?? 0, retryWaitMs(attempts, deps.random))
      await db.outbox.update(m.seq!, { status: 'queued', attempts, nextAttemptAt: now() + wait, lastError: messageOf(answer.body) || null })
      result.waiting = true
      if (isUnreachable(answer.status)) result.unreachable = true
      return 'stop'
    }
    // 412: merged field by field with the server's row; with no real conflict left it goes again
    // at once, and the round ends so later changes to the row wait behind it (outbox.ts, merge.ts).
    if (answer.status === 412 && (await mergeAfterConflict(db, m, (answer.body as ErrorLike | undefined)?.current, now()))) {
      result.waiting = true
      return 'stop'
    }
    if (answer.status === 412) {
      await db.outbox.update(m.seq!, { status: 'conflict', lastError: messageOf(answer.body), conflict: (answer.body as ErrorLike | undefined)?.current })
    } else {
      const rejected: Partial<RefusedMutation> = { status: 'rejected', lastError: messageOf(answer.body) || `HTTP ${answer.status}` }
      if (refusal) rejected.refusal = refusal
      await db.outbox.update(m.seq!, rejected)
    }
    blocked.add(m.mutationId)
    result.rejected += 1
    return 'next'
  }

  let index = 0
  while (index < queue.length) {
    const max = withoutBatch.has(transport) ? MAX_IN_FLIGHT : SYNC_BATCH_MAX_ITEMS
    const { batch, next, waiting } = nextBatch(queue, index, blocked, now(), max)
    index = next
    if (waiting) result.waiting = true
    if (batch.length === 0) break
    const sending = await step(batch)
    const answers = await answersOf(sending)

    let stop = false
    // Every answer is handled even after a stop: the server has applied (or refused) each one.
    for (const [i, m] of sending.entries()) if ((await handle(m, answers[i]!)) === 'stop') stop = true
    // A transient failure or a 401 ends the round, so later changes wait behind the failed one.
    if (stop) break
  }
  await step()
  return result
}
