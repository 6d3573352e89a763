import { and, asc, eq, lte } from 'drizzle-orm'
import type { Db } from '../../db/client'
import { providerWebhooks, webhookEvents } from '../../db/schema/payments'

export type HookRow = typeof providerWebhooks.$inferSelect
export type EventRow = typeof webhookEvents.$inferSelect

/** Queries on registered webhooks and received webhook events. */
export const webhooksRepository = {
  hooksOf: async (db: Db, providerId: string): Promise<HookRow[]> =>
    await db
      .select()
      .from(providerWebhooks)
      .where(eq(providerWebhooks.providerId, providerId))
      .orderBy(asc(providerWebhooks.createdAt), asc(providerWebhooks.id))
      .all(),
  hook: async (db: Db, providerId: string, id: string): Promise<HookRow | undefined> =>
    await db
      .select()
      .from(providerWebhooks)
      .where(and(eq(providerWebhooks.providerId, providerId), eq(providerWebhooks.id, id)))
      .get(),
  insertHook: async (db: Db, row: typeof providerWebhooks.$inferInsert): Promise<void> => {
    await db.insert(providerWebhooks).values(row).run()
  },
  updateHook: async (db: Db, id: string, changes: Partial<typeof providerWebhooks.$inferInsert>): Promise<void> => {
    await db.update(providerWebhooks).set(changes).where(eq(providerWebhooks.id, id)).run()
  },
  deleteHook: async (db: Db, id: string): Promise<void> => {
    await db.delete(providerWebhooks).where(eq(providerWebhooks.id, id)).run()
  },

  /** Stores a delivery once; returns false when the same body was received before. */
  insertEvent: async (db: Db, row: typeof webhookEvents.$inferInsert): Promise<boolean> =>
    (await db.insert(webhookEvents).values(row).onConflictDoNothing().run()).changes === 1,
  dueEvents: async (db: Db, now: string, limit = 50): Promise<EventRow[]> =>
    await db
      .select()
      .from(webhookEvents)
      .where(and(eq(webhookEvents.status, 'received'), lte(webhookEvents.nextAttemptAt, now)))
      .orderBy(asc(webhookEvents.receivedAt))
      .limit(limit)
      .all(),
  updateEvent: async (db: Db, id: string, changes: Partial<typeof webhookEvents.$inferInsert>): Promise<void> => {
    await db.update(webhookEvents).set(changes).where(eq(webhookEvents.id, id)).run()
  },
  eventsOf: async (db: Db, providerId: string): Promise<EventRow[]> =>
    await db.select().from(webhookEvents).where(eq(webhookEvents.providerId, providerId)).all(),
}
