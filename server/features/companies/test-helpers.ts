import { eq } from 'drizzle-orm'
import type { TestApp } from '../../test/harness'
import { companies } from '../../db/schema/companies'

export const MAIN_CVR = '10150817'
export const SECOND_CVR = '25313763'

/** Ids of the two demo companies: Solgården (main) and Havnehuset (second). */
export async function companyIds(t: Pick<TestApp, 'db'>) {
  const main = (await t.db.select().from(companies).where(eq(companies.cvr, MAIN_CVR)).get())!.id
  const second = (await t.db.select().from(companies).where(eq(companies.cvr, SECOND_CVR)).get())!.id
  return { main, second }
}
