import { and, asc, eq, gt, inArray, type SQL } from 'drizzle-orm'
import type { Db } from '../../db/client'
import { paymentProviders, providerWebhooks } from '../../db/schema/payments'

export type ProviderRow = typeof paymentProviders.$inferSelect

/** Queries on payment providers. */
export const providersRepository = {
  byId: async (db: Db, id: string): Promise<ProviderRow | undefined> => await db.select().from(paymentProviders).where(eq(paymentProviders.id, id)).get(),
  ofCompany: async (db: Db, companyId: string): Promise<ProviderRow[]> =>
    await db
      .select()
      .from(paymentProviders)
      .where(eq(paymentProviders.companyId, companyId))
      .orderBy(asc(paymentProviders.createdAt), asc(paymentProviders.id))
      .all(),
  all: async (db: Db): Promise<ProviderRow[]> => await db.select().from(paymentProviders).all(),
  insert: async (db: Db, row: typeof paymentProviders.$inferInsert): Promise<void> => {
    await db.insert(paymentProviders).values(row).run()
  },
  update: async (db: Db, id: string, changes: Partial<typeof paymentProviders.$inferInsert>): Promise<void> => {
    await db.update(paymentProviders).set(changes).where(eq(paymentProviders.id, id)).run()
  },
  /** The webhooks shown with a provider (docs/PRODUCT.md §3 "hooks"); registration lives in the webhooks feature. */
  hooksOf: async (db: Db, providerId: string) =>
    await db
      .select({ id: providerWebhooks.id, url: providerWebhooks.url, events: providerWebhooks.events })
      .from(providerWebhooks)
      .where(eq(providerWebhooks.providerId, providerId))
      .orderBy(asc(providerWebhooks.createdAt), asc(providerWebhooks.id))
      .all(),
  /** Providers for sync: `companyIds` limits them (undefined: all), in id order after `afterId`. */
  page: async (db: Db, companyIds: string[] | undefined, afterId: string | null, limit: number): Promise<ProviderRow[]> => {
    const conditions: SQL[] = []
    if (companyIds !== undefined) conditions.push(inArray(paymentProviders.companyId, companyIds))
    if (afterId !== null) conditions.push(gt(paymentProviders.id, afterId))
    return await db
      .select()
      .from(paymentProviders)
      .where(and(...conditions))
      .orderBy(asc(paymentProviders.id))
      .limit(limit)
      .all()
  },
  byIds: async (db: Db, ids: string[]): Promise<ProviderRow[]> =>
    ids.length ? await db.select().from(paymentProviders).where(inArray(paymentProviders.id, ids)).all() : [],
}
