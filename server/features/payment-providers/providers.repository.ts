import { eq } from 'drizzle-orm'
import type { Db } from '../../db/client'
import { paymentProviders } from '../../db/schema/payments'

export type ProviderRow = typeof paymentProviders.$inferSelect

/** Queries on payment providers. */
export const providersRepository = {
  byId: (db: Db, id: string): ProviderRow | undefined => db.select().from(paymentProviders).where(eq(paymentProviders.id, id)).get(),
  ofCompany: (db: Db, companyId: string): ProviderRow[] => db.select().from(paymentProviders).where(eq(paymentProviders.companyId, companyId)).all(),
  all: (db: Db): ProviderRow[] => db.select().from(paymentProviders).all(),
  insert: (db: Db, row: typeof paymentProviders.$inferInsert): void => {
    db.insert(paymentProviders).values(row).run()
  },
}
