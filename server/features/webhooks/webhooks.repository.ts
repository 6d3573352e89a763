import { and, asc, eq, lte } from 'drizzle-orm'
import type { Db } from '../../db/client'
import { providerWebhooks, webhookEvents } from '../../db/schema/payments'

export type HookRow = typeof providerWebhooks.$inferSelect
export type EventRow = typeof webhookEvents.$inferSelect

/** Queries on registered webhooks and received webhook events. */
export const webhooksRepository = {
  hooksOf: (db: Db, providerId: string): HookRow[] =>
    db.select().from(providerWebhooks).where(eq(providerWebhooks.providerId, providerId)).orderBy(asc(providerWebhooks.createdAt)).all(),
  hook: (db: Db, providerId: string, id: string): HookRow | undefined =>
    db
      .select()
      .from(providerWebhooks)
      .where(and(eq(providerWebhooks.providerId, providerId), eq(providerWebhooks.id, id)))
      .get(),
  insertHook: (db: Db, row: typeof providerWebhooks.$inferInsert): void => {
    db.insert(providerWebhooks).values(row).run()
  },
  updateHook: (db: Db, id: string, changes: Partial<typeof providerWebhooks.$inferInsert>): void => {
    db.update(providerWebhooks).set(changes).where(eq(providerWebhooks.id, id)).run()
  },
  deleteHook: (db: Db, id: string): void => {
    db.delete(providerWebhooks).where(eq(providerWebhooks.id, id)).run()
  },

  /** Stores a delivery once; returns false when the same body was received before. */
  insertEvent: (db: Db, row: typeof webhookEvents.$inferInsert): boolean => db.insert(webhookEvents).values(row).onConflictDoNothing().run().changes === 1,
  dueEvents: (db: Db, now: string, limit = 50): EventRow[] =>
    db
      .select()
      .from(webhookEvents)
      .where(and(eq(webhookEvents.status, 'received'), lte(webhookEvents.nextAttemptAt, now)))
      .orderBy(asc(webhookEvents.receivedAt))
      .limit(limit)
      .all(),
  updateEvent: (db: Db, id: string, changes: Partial<typeof webhookEvents.$inferInsert>): void => {
    db.update(webhookEvents).set(changes).where(eq(webhookEvents.id, id)).run()
  },
  eventsOf: (db: Db, providerId: string): EventRow[] => db.select().from(webhookEvents).where(eq(webhookEvents.providerId, providerId)).all(),
}
