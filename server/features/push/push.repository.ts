import { and, asc, eq, inArray, lte } from 'drizzle-orm'
import type { Db } from '../../db/client'
import { pushKeys, pushOutbox, pushPreferences, pushSubscriptions } from '../../db/schema/push'

export type PushSubscriptionRow = typeof pushSubscriptions.$inferSelect
export type PushPreferencesRow = typeof pushPreferences.$inferSelect
export type PushOutboxRow = typeof pushOutbox.$inferSelect

const VAPID_ROW = 'vapid'

/** The push module's queries (docs/decisions/0088-push-notifications.md). */
export const pushRepository = {
  keys: async (db: Db) => await db.select().from(pushKeys).where(eq(pushKeys.id, VAPID_ROW)).get(),
  /** The first instance to make a pair keeps it; the others' are dropped (every instance then reads the same row). */
  insertKeys: async (db: Db, keys: { publicKey: string; privateKeySealed: string; createdAt: string }) =>
    await db
      .insert(pushKeys)
      .values({ id: VAPID_ROW, ...keys })
      .onConflictDoNothing()
      .run(),

  byEndpoint: async (db: Db, endpoint: string) => await db.select().from(pushSubscriptions).where(eq(pushSubscriptions.endpoint, endpoint)).get(),
  ownById: async (db: Db, userId: string, id: string) =>
    await db
      .select()
      .from(pushSubscriptions)
      .where(and(eq(pushSubscriptions.id, id), eq(pushSubscriptions.userId, userId)))
      .get(),
  ofUser: async (db: Db, userId: string) =>
    await db
      .select()
      .from(pushSubscriptions)
      .where(eq(pushSubscriptions.userId, userId))
      .orderBy(asc(pushSubscriptions.createdAt), asc(pushSubscriptions.id))
      .all(),
  insertSubscription: async (db: Db, row: typeof pushSubscriptions.$inferInsert) => await db.insert(pushSubscriptions).values(row).run(),
  /** The endpoint signed up again (new keys, or another user on the device): the row follows the latest sign-up. */
  updateSubscription: async (db: Db, id: string, set: Partial<PushSubscriptionRow>) =>
    await db.update(pushSubscriptions).set(set).where(eq(pushSubscriptions.id, id)).run(),
  deleteSubscription: async (db: Db, id: string) => await db.delete(pushSubscriptions).where(eq(pushSubscriptions.id, id)).run(),
  /** Pushes still waiting for a device (dropped when it changes hands). */
  deleteQueuedOf: async (db: Db, subscriptionId: string) => await db.delete(pushOutbox).where(eq(pushOutbox.subscriptionId, subscriptionId)).run(),

  preferences: async (db: Db, userId: string) => await db.select().from(pushPreferences).where(eq(pushPreferences.userId, userId)).get(),
  upsertPreferences: async (db: Db, row: Omit<PushPreferencesRow, 'version'>) =>
    await db
      .insert(pushPreferences)
      .values({ ...row, version: 1 })
      .onConflictDoUpdate({
        target: pushPreferences.userId,
        set: { groups: row.groups, quietFrom: row.quietFrom, quietTo: row.quietTo, updatedAt: row.updatedAt },
      })
      .run(),

  /** Every device of these users, with the user's preferences: one statement per 500 people (users without preferences are left out). */
  devicesToTell: async (db: Db, userIds: readonly string[]) => {
    const found = []
    for (let i = 0; i < userIds.length; i += 500)
      found.push(
        ...(await db
          .select({
            subscriptionId: pushSubscriptions.id,
            userId: pushSubscriptions.userId,
            groups: pushPreferences.groups,
            quietFrom: pushPreferences.quietFrom,
            quietTo: pushPreferences.quietTo,
          })
          .from(pushSubscriptions)
          .innerJoin(pushPreferences, eq(pushPreferences.userId, pushSubscriptions.userId))
          .where(inArray(pushSubscriptions.userId, userIds.slice(i, i + 500)))
          .all()),
      )
    return found
  },
  queue: async (db: Db, rows: Array<typeof pushOutbox.$inferInsert>) => {
    for (let i = 0; i < rows.length; i += 200)
      await db
        .insert(pushOutbox)
        .values(rows.slice(i, i + 200))
        .run()
  },

  due: async (db: Db, now: string, limit: number) =>
    await db
      .select({ row: pushOutbox, subscription: pushSubscriptions })
      .from(pushOutbox)
      .innerJoin(pushSubscriptions, eq(pushSubscriptions.id, pushOutbox.subscriptionId))
      .where(and(eq(pushOutbox.status, 'queued'), lte(pushOutbox.dueAt, now)))
      .orderBy(asc(pushOutbox.dueAt), asc(pushOutbox.id))
      .limit(limit)
      .all(),
  /** Takes a due push for one attempt if it is still as read: counts it and puts its next turn at the lease's end. */
  claim: async (db: Db, row: PushOutboxRow, until: string) => {
    const { changes } = await db
      .update(pushOutbox)
      .set({ attempts: row.attempts + 1, dueAt: until })
      .where(and(eq(pushOutbox.id, row.id), eq(pushOutbox.status, 'queued'), eq(pushOutbox.attempts, row.attempts)))
      .run()
    return changes === 1
  },
  settle: async (db: Db, id: string, attempts: number, set: Partial<PushOutboxRow>) =>
    await db
      .update(pushOutbox)
      .set(set)
      .where(and(eq(pushOutbox.id, id), eq(pushOutbox.attempts, attempts)))
      .run(),
  deleteOutbox: async (db: Db, id: string) => await db.delete(pushOutbox).where(eq(pushOutbox.id, id)).run(),
  /** Failed pushes are kept a week for System Logs' readers, then dropped. */
  deleteFailedBefore: async (db: Db, before: string) =>
    await db
      .delete(pushOutbox)
      .where(and(eq(pushOutbox.status, 'failed'), lte(pushOutbox.createdAt, before)))
      .run(),
  outboxOf: async (db: Db, userId: string) => await db.select().from(pushOutbox).where(eq(pushOutbox.userId, userId)).orderBy(asc(pushOutbox.createdAt)).all(),
}
