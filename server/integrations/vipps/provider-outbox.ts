import { and, asc, eq, lte } from 'drizzle-orm'
import type { Db } from '../../db/client'
import { statement } from '../../db/statement'
import { providerOutbox } from '../../db/schema/agreements'

export type ProviderOutboxRow = typeof providerOutbox.$inferSelect
export type ProviderCallKind = ProviderOutboxRow['kind']

/** A call to Vipps to make later: sent by the provider-outbox job with `id` as Idempotency-Key. */
export interface ProviderCall {
  id: string
  providerId: string
  agreementId: string
  chargeId: string | null
  kind: ProviderCallKind
  payload: Record<string, unknown>
  /** When it is first due (ISO instant; the server's clock). */
  at: string
}

const insert = statement<[string, string, string, string | null, string, string, string, string], never>(
  `INSERT INTO provider_outbox (id, provider_id, agreement_id, charge_id, kind, payload, status, attempts, next_attempt_at, created_at)
   VALUES (?, ?, ?, ?, ?, ?, 'pending', 0, ?, ?)`,
)

/**
 * Queues a call to Vipps: the one writer of the `provider_outbox` table (the billing run queues a
 * row per charge). Call it inside the transaction of the change it belongs to, so the call is
 * queued exactly when the change commits (server/jobs/provider-outbox.ts sends it).
 */
export async function queueProviderCall(db: Db, call: ProviderCall): Promise<void> {
  await insert.run(db, [call.id, call.providerId, call.agreementId, call.chargeId, call.kind, JSON.stringify(call.payload), call.at, call.at])
}

/** Reading and updating queued calls: the sender job, the agreement's outbox view, a settled invoice's unsent charge. */
export const providerOutboxRepository = {
  due: async (db: Db, now: string): Promise<ProviderOutboxRow[]> =>
    await db
      .select()
      .from(providerOutbox)
      .where(and(eq(providerOutbox.status, 'pending'), lte(providerOutbox.nextAttemptAt, now)))
      .orderBy(asc(providerOutbox.createdAt))
      .limit(50)
      .all(),
  ofAgreement: async (db: Db, agreementId: string): Promise<ProviderOutboxRow[]> =>
    await db
      .select()
      .from(providerOutbox)
      .where(eq(providerOutbox.agreementId, agreementId))
      .orderBy(asc(providerOutbox.createdAt), asc(providerOutbox.id))
      .all(),
  update: async (db: Db, id: string, changes: Partial<typeof providerOutbox.$inferInsert>): Promise<void> => {
    await db.update(providerOutbox).set(changes).where(eq(providerOutbox.id, id)).run()
  },
  /**
   * Takes a due row for one send: counts the attempt and puts its next turn `until` (the lease), if
   * it is still pending with the attempts it was read with. Answers the row as claimed, or
   * undefined when another sender (an instance whose job turn overlapped this one's) has it.
   */
  claim: async (db: Db, row: ProviderOutboxRow, until: string): Promise<ProviderOutboxRow | undefined> => {
    const claimed = { attempts: row.attempts + 1, nextAttemptAt: until }
    const { changes } = await db
      .update(providerOutbox)
      .set(claimed)
      .where(and(eq(providerOutbox.id, row.id), eq(providerOutbox.status, 'pending'), eq(providerOutbox.attempts, row.attempts)))
      .run()
    return changes === 1 ? { ...row, ...claimed } : undefined
  },
  /**
   * Records the outcome of a claimed send, if the claim still holds (pending, same attempts): false
   * when the lease ran out and another sender took the row over, whose outcome then counts.
   */
  settle: async (db: Db, claimed: ProviderOutboxRow, changes: Partial<typeof providerOutbox.$inferInsert>): Promise<boolean> => {
    const result = await db
      .update(providerOutbox)
      .set(changes)
      .where(and(eq(providerOutbox.id, claimed.id), eq(providerOutbox.status, 'pending'), eq(providerOutbox.attempts, claimed.attempts)))
      .run()
    return result.changes === 1
  },
  /** A charge that will never be sent: its pending CREATE_CHARGE is marked failed with `reason`. */
  abandonCreate: async (db: Db, chargeId: string, reason: string): Promise<void> => {
    await db
      .update(providerOutbox)
      .set({ status: 'failed', lastError: reason })
      .where(and(eq(providerOutbox.chargeId, chargeId), eq(providerOutbox.kind, 'CREATE_CHARGE'), eq(providerOutbox.status, 'pending')))
      .run()
  },
}
