import { and, eq, inArray } from 'drizzle-orm'
import type { Db } from '../../db/client'
import { addresses } from '../../db/schema/companies'
import { householdResidents, households } from '../../db/schema/households'
import { users } from '../../db/schema/users'
import { householdColumns, residentColumns, type HouseholdRow } from './households.repository'

/** Rows a statement writes at once (well below SQLite's and PostgreSQL's parameter limits). */
const CHUNK = 100
const chunks = <T>(all: readonly T[], size = CHUNK): T[][] =>
  Array.from({ length: Math.ceil(all.length / size) }, (_, i) => all.slice(i * size, (i + 1) * size))

/** The import's reads and writes in a few statements each, never one per row (docs/decisions/0092). */
export const importRepository = {
  /** Every address of the association with its household details. */
  householdsOf: async (db: Db, companyId: string): Promise<HouseholdRow[]> =>
    await db
      .select(householdColumns)
      .from(addresses)
      .leftJoin(households, eq(households.addressId, addresses.id))
      .where(eq(addresses.companyId, companyId))
      .all(),

  /** Every resident of the association's households, with their e-mail address. */
  residentsOf: async (db: Db, companyId: string) =>
    await db
      .select(residentColumns)
      .from(householdResidents)
      .innerJoin(users, eq(users.id, householdResidents.userId))
      .where(eq(householdResidents.companyId, companyId))
      .all(),

  /** The users of these e-mail addresses (lower case). */
  usersByEmail: async (db: Db, emails: readonly string[]) => {
    const found: { id: string; emailAddress: string }[] = []
    for (const part of chunks(emails, 500))
      found.push(...(await db.select({ id: users.id, emailAddress: users.emailAddress }).from(users).where(inArray(users.emailAddress, part)).all()))
    return found
  },

  insertHouseholds: async (db: Db, rows: (typeof households.$inferInsert)[]) => {
    for (const part of chunks(rows)) await db.insert(households).values(part).run()
  },

  updateHousehold: async (db: Db, addressId: string, fields: Partial<typeof households.$inferInsert>) =>
    void (await db.update(households).set(fields).where(eq(households.addressId, addressId)).run()),

  insertResidents: async (db: Db, rows: (typeof householdResidents.$inferInsert)[]) => {
    for (const part of chunks(rows)) await db.insert(householdResidents).values(part).run()
  },

  updateResident: async (db: Db, id: string, fields: Partial<typeof householdResidents.$inferInsert>) =>
    void (await db.update(householdResidents).set(fields).where(eq(householdResidents.id, id)).run()),

  /** Payer flags off for the current residents of these households but the given ones. */
  clearPayers: async (db: Db, householdIds: readonly string[], keep: ReadonlySet<string>) => {
    for (const part of chunks(householdIds)) {
      const payers = await db
        .select({ id: householdResidents.id })
        .from(householdResidents)
        .where(and(inArray(householdResidents.householdId, part), eq(householdResidents.isPayer, true)))
        .all()
      const off = payers.map((p) => p.id).filter((id) => !keep.has(id))
      for (const ids of chunks(off)) await db.update(householdResidents).set({ isPayer: false }).where(inArray(householdResidents.id, ids)).run()
    }
  },
}
