import { eq } from 'drizzle-orm'
import type { Db } from '../../db/client'
import { storageQuotas } from '../../db/schema/storage'

export const storageRepository = {
  /** The association's own quota in bytes; undefined: it has the default. */
  quotaOf: async (db: Db, companyId: string): Promise<number | undefined> =>
    (await db.select({ quotaBytes: storageQuotas.quotaBytes }).from(storageQuotas).where(eq(storageQuotas.companyId, companyId)).get())?.quotaBytes,

  setQuota: async (db: Db, companyId: string, quotaBytes: number, at: string): Promise<void> => {
    await db
      .insert(storageQuotas)
      .values({ companyId, quotaBytes, updatedAt: at })
      .onConflictDoUpdate({ target: storageQuotas.companyId, set: { quotaBytes, updatedAt: at } })
      .run()
  },

  clearQuota: async (db: Db, companyId: string): Promise<void> => {
    await db.delete(storageQuotas).where(eq(storageQuotas.companyId, companyId)).run()
  },
}
