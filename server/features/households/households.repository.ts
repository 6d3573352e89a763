import { and, asc, eq, gt, inArray, isNull, lte, or, sql, type SQL } from 'drizzle-orm'
import type { Db } from '../../db/client'
import { addresses } from '../../db/schema/companies'
import { householdMoves, householdResidents, households } from '../../db/schema/households'
import { users } from '../../db/schema/users'

export type HouseholdDetails = typeof households.$inferSelect
export type ResidentRow = typeof householdResidents.$inferSelect & { emailAddress: string }
export type MoveRow = typeof householdMoves.$inferSelect

/** An address with what the association keeps of it as a household (none yet: defaults). */
export const householdColumns = {
  id: addresses.id,
  companyId: addresses.companyId,
  street: addresses.street,
  number: addresses.number,
  floor: addresses.floor,
  side: addresses.side,
  zip: addresses.zip,
  city: addresses.city,
  addressKey: addresses.addressKey,
  type: households.type,
  areaCentiM2: households.areaCentiM2,
  allocationMilli: households.allocationMilli,
  shareOre: households.shareOre,
  externalId: households.externalId,
  version: households.version,
  updatedAt: households.updatedAt,
}
export type HouseholdRow = {
  id: string
  companyId: string
  street: string
  number: string
  floor: string | null
  side: string | null
  zip: string
  city: string
  addressKey: string | null
  type: HouseholdDetails['type'] | null
  areaCentiM2: number | null
  allocationMilli: number | null
  shareOre: number | null
  externalId: string | null
  version: number | null
  updatedAt: string | null
}

/** The list's order: the address's comparable form, then its id (the key of a page). */
/** A resident as the household's pages and the import read it: the stay, and the e-mail of its user (joined). */
export const residentColumns = {
  id: householdResidents.id,
  householdId: householdResidents.householdId,
  userId: householdResidents.userId,
  fullName: householdResidents.fullName,
  moveInDate: householdResidents.moveInDate,
  moveOutDate: householdResidents.moveOutDate,
  kind: householdResidents.kind,
  isPayer: householdResidents.isPayer,
  emailAddress: users.emailAddress,
}

const sortKey = sql<string>`coalesce(${addresses.addressKey}, '')`
const escape = (s: string) => s.toLowerCase().replace(/[\\%_]/g, (m) => '\\' + m)
const contains = (expr: SQL | typeof addresses.street, q: string) => sql`lower(${expr}) LIKE ${`%${escape(q)}%`} ESCAPE '\\'`

export const householdsRepository = {
  byId: async (db: Db, id: string): Promise<HouseholdRow | undefined> =>
    await db.select(householdColumns).from(addresses).leftJoin(households, eq(households.addressId, addresses.id)).where(eq(addresses.id, id)).get(),

  byIds: async (db: Db, ids: string[]): Promise<HouseholdRow[]> =>
    ids.length === 0 ?
      []
    : await db.select(householdColumns).from(addresses).leftJoin(households, eq(households.addressId, addresses.id)).where(inArray(addresses.id, ids)).all(),

  /** A page of the company's households by address, with a search over the address, the external number and the residents' names. */
  page: async (db: Db, companyId: string, search: string | undefined, after: [string, string] | undefined, limit: number): Promise<HouseholdRow[]> =>
    await db
      .select(householdColumns)
      .from(addresses)
      .leftJoin(households, eq(households.addressId, addresses.id))
      .where(
        and(
          eq(addresses.companyId, companyId),
          search ?
            or(
              contains(
                sql`${addresses.street} || ' ' || ${addresses.number} || ' ' || coalesce(${addresses.floor}, '') || ' ' || coalesce(${addresses.side}, '') || ' ' || ${addresses.zip} || ' ' || ${addresses.city}`,
                search,
              ),
              contains(sql`coalesce(${households.externalId}, '')`, search),
              sql`exists (select 1 from ${householdResidents} where ${householdResidents.householdId} = ${addresses.id} and ${contains(householdResidents.fullName as never, search)})`,
            )
          : undefined,
          after ? or(gt(sortKey, after[0]), and(eq(sortKey, after[0]), gt(addresses.id, after[1]))) : undefined,
        ),
      )
      .orderBy(asc(sortKey), asc(addresses.id))
      .limit(limit)
      .all(),

  /** Sync's snapshot: households of these companies, or where the user lives today, after `afterId`, in id order. */
  syncPage: async (db: Db, companyIds: string[] | 'all', userId: string, today: string, afterId: string | null, limit: number): Promise<HouseholdRow[]> => {
    const lived = db
      .select({ id: householdResidents.householdId })
      .from(householdResidents)
      .where(
        and(
          eq(householdResidents.userId, userId),
          lte(householdResidents.moveInDate, today),
          or(isNull(householdResidents.moveOutDate), gt(householdResidents.moveOutDate, today)),
        ),
      )
    return await db
      .select(householdColumns)
      .from(addresses)
      .leftJoin(households, eq(households.addressId, addresses.id))
      .where(
        and(
          companyIds === 'all' ? undefined
          : companyIds.length ? or(inArray(addresses.companyId, companyIds), inArray(addresses.id, lived))
          : inArray(addresses.id, lived),
          afterId ? gt(addresses.id, afterId) : undefined,
        ),
      )
      .orderBy(asc(addresses.id))
      .limit(limit)
      .all()
  },

  /** The residents of these households, each with their e-mail address, by move-in date. */
  residentsOf: async (db: Db, householdIds: string[]): Promise<ResidentRow[]> =>
    householdIds.length === 0 ?
      []
    : await db
        .select({
          ...residentColumns,
          companyId: householdResidents.companyId,
          createdAt: householdResidents.createdAt,
          updatedAt: householdResidents.updatedAt,
        })
        .from(householdResidents)
        .innerJoin(users, eq(users.id, householdResidents.userId))
        .where(inArray(householdResidents.householdId, householdIds))
        .orderBy(asc(householdResidents.householdId), asc(householdResidents.moveInDate), asc(householdResidents.id))
        .all(),

  resident: async (db: Db, id: string) => await db.select().from(householdResidents).where(eq(householdResidents.id, id)).get(),

  /** Whether the user ever lived in the household. */
  hasLived: async (db: Db, householdId: string, userId: string): Promise<boolean> =>
    (await db
      .select({ id: householdResidents.id })
      .from(householdResidents)
      .where(and(eq(householdResidents.householdId, householdId), eq(householdResidents.userId, userId)))
      .get()) !== undefined,

  insertResident: async (db: Db, row: typeof householdResidents.$inferInsert) => void (await db.insert(householdResidents).values(row).run()),

  updateResident: async (db: Db, id: string, fields: Partial<typeof householdResidents.$inferInsert>) =>
    void (await db.update(householdResidents).set(fields).where(eq(householdResidents.id, id)).run()),

  /** The household's payer flag off for everyone else living there from `except`. */
  clearPayer: async (db: Db, householdId: string, except: string) =>
    void (await db
      .update(householdResidents)
      .set({ isPayer: false })
      .where(and(eq(householdResidents.householdId, householdId), sql`${householdResidents.id} <> ${except}`, isNull(householdResidents.moveOutDate)))
      .run()),

  details: async (db: Db, id: string) => await db.select().from(households).where(eq(households.addressId, id)).get(),

  byExternalId: async (db: Db, companyId: string, externalId: string) =>
    await db
      .select()
      .from(households)
      .where(and(eq(households.companyId, companyId), eq(households.externalId, externalId)))
      .get(),

  /**
   * A change of the household or of its residents moves its version (the synced record holds both):
   * its details row is made on the first change (an address without one is version 1).
   */
  touch: async (db: Db, id: string, companyId: string, now: string, fields: Partial<typeof households.$inferInsert> = {}) => {
    const existing = await db.select({ version: households.version }).from(households).where(eq(households.addressId, id)).get()
    if (existing)
      await db
        .update(households)
        .set({ ...fields, updatedAt: now, version: sql`${households.version} + 1` })
        .where(eq(households.addressId, id))
        .run()
    else
      await db
        .insert(households)
        .values({ addressId: id, companyId, createdAt: now, updatedAt: now, version: 2, ...fields })
        .run()
  },

  move: async (db: Db, id: string): Promise<MoveRow | undefined> => await db.select().from(householdMoves).where(eq(householdMoves.id, id)).get(),

  insertMove: async (db: Db, row: typeof householdMoves.$inferInsert) => void (await db.insert(householdMoves).values(row).run()),

  /** The users of these ids (name, e-mail, language). */
  users: async (db: Db, ids: string[]) =>
    ids.length === 0 ?
      []
    : await db
        .select({ id: users.id, fullName: users.fullName, emailAddress: users.emailAddress, language: users.language })
        .from(users)
        .where(inArray(users.id, ids))
        .all(),
}
