import { and, asc, eq, gt, inArray, type SQL } from 'drizzle-orm'
import type { Db } from '../../db/client'
import { paymentProviders, providerWebhooks } from '../../db/schema/payments'

export type ProviderRow = typeof paymentProviders.$inferSelect

/** Queries on payment providers. */
export const providersRepository = {
  byId: (db: Db, id: string): ProviderRow | undefined => db.select().from(paymentProviders).where(eq(paymentProviders.id, id)).get(),
  ofCompany: (db: Db, companyId: string): ProviderRow[] =>
    db.select().from(paymentProviders).where(eq(paymentProviders.companyId, companyId)).orderBy(asc(paymentProviders.createdAt)).all(),
  all: (db: Db): ProviderRow[] => db.select().from(paymentProviders).all(),
  insert: (db: Db, row: typeof paymentProviders.$inferInsert): void => {
    db.insert(paymentProviders).values(row).run()
  },
  update: (db: Db, id: string, changes: Partial<typeof paymentProviders.$inferInsert>): void => {
    db.update(paymentProviders).set(changes).where(eq(paymentProviders.id, id)).run()
  },
  /** The webhooks shown with a provider (docs/PRODUCT.md §3 "hooks"); registration lives in the webhooks feature. */
  hooksOf: (db: Db, providerId: string) =>
    db
      .select({ id: providerWebhooks.id, url: providerWebhooks.url, events: providerWebhooks.events })
      .from(providerWebhooks)
      .where(eq(providerWebhooks.providerId, providerId))
      .orderBy(asc(providerWebhooks.createdAt))
      .all(),
  /** Providers for sync: `companyIds` limits them (undefined: all), in id order after `afterId`. */
  page: (db: Db, companyIds: string[] | undefined, afterId: string | null, limit: number): ProviderRow[] => {
    const conditions: SQL[] = []
    if (companyIds !== undefined) conditions.push(inArray(paymentProviders.companyId, companyIds))
    if (afterId !== null) conditions.push(gt(paymentProviders.id, afterId))
    return db
      .select()
      .from(paymentProviders)
      .where(and(...conditions))
      .orderBy(asc(paymentProviders.id))
      .limit(limit)
      .all()
  },
  byIds: (db: Db, ids: string[]): ProviderRow[] => (ids.length ? db.select().from(paymentProviders).where(inArray(paymentProviders.id, ids)).all() : []),
}
