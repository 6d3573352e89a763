import { and, asc, count, eq, gt, inArray, ne, sql, type SQL } from 'drizzle-orm'
import type { Db } from '../../db/client'
import { addresses, companies, companyMembers } from '../../db/schema/companies'
import { users } from '../../db/schema/users'

export type CompanyRow = typeof companies.$inferSelect
export type AddressRow = typeof addresses.$inferSelect
export type MemberRow = {
  id: string
  companyId: string
  userId: string
  role: (typeof companyMembers.$inferSelect)['role']
  version: number
  createdAt: string
  name: string
  email: string
  phone: string | null
}

/** Where a page of a company's staff starts: after this sort key (name, membership id). */
export type MemberPageKey = [name: string, id: string]

const memberColumns = {
  id: companyMembers.id,
  companyId: companyMembers.companyId,
  userId: companyMembers.userId,
  role: companyMembers.role,
  version: companyMembers.version,
  createdAt: companyMembers.createdAt,
  name: users.fullName,
  email: users.emailAddress,
  phone: users.mobileNumber,
}

const after = <T extends SQL | undefined>(column: Parameters<typeof gt>[0], afterId: string | null, where: T) =>
  afterId === null ? where : and(where, gt(column, afterId))

/** Queries on companies, their staff and their addresses. */
export const companiesRepository = {
  byId: async (db: Db, id: string): Promise<CompanyRow | undefined> => await db.select().from(companies).where(eq(companies.id, id)).get(),
  byCvr: async (db: Db, cvr: string): Promise<CompanyRow | undefined> => await db.select().from(companies).where(eq(companies.cvr, cvr)).get(),

  /** Companies in name order; `ids` limits them (undefined: all, including deleted ones). */
  list: async (db: Db, ids: string[] | undefined): Promise<CompanyRow[]> =>
    await db
      .select()
      .from(companies)
      .where(ids === undefined ? undefined : and(inArray(companies.id, ids), ne(companies.status, 'DELETED')))
      .orderBy(asc(companies.name))
      .all(),

  insert: async (db: Db, row: typeof companies.$inferInsert): Promise<void> => {
    await db.insert(companies).values(row).run()
  },
  update: async (db: Db, id: string, changes: Partial<typeof companies.$inferInsert>): Promise<void> => {
    await db.update(companies).set(changes).where(eq(companies.id, id)).run()
  },

  /** Company rows for sync: `ids` limits them (undefined: all), in id order after `afterId`. */
  page: async (db: Db, ids: string[] | undefined, afterId: string | null, limit: number): Promise<CompanyRow[]> =>
    await db
      .select()
      .from(companies)
      .where(after(companies.id, afterId, ids === undefined ? undefined : and(inArray(companies.id, ids), ne(companies.status, 'DELETED'))))
      .orderBy(asc(companies.id))
      .limit(limit)
      .all(),
  byIds: async (db: Db, ids: string[]): Promise<CompanyRow[]> => (ids.length ? await db.select().from(companies).where(inArray(companies.id, ids)).all() : []),

  memberCount: async (db: Db, companyId: string): Promise<number> =>
    (await db.select({ n: count() }).from(companyMembers).where(eq(companyMembers.companyId, companyId)).get())?.n ?? 0,

  // ---- members
  members: async (db: Db, companyId: string): Promise<MemberRow[]> =>
    await db
      .select(memberColumns)
      .from(companyMembers)
      .innerJoin(users, eq(users.id, companyMembers.userId))
      .where(eq(companyMembers.companyId, companyId))
      .orderBy(asc(users.fullName))
      .all(),
  /**
   * A page of the company's staff by (name, membership id) after `after`: one statement with
   * LIMIT (docs/API.md "Lists"). Names are at most 200 characters (personName), as a cursor's strings.
   */
  membersPage: async (db: Db, companyId: string, after: MemberPageKey | undefined, limit: number): Promise<MemberRow[]> =>
    await db
      .select(memberColumns)
      .from(companyMembers)
      .innerJoin(users, eq(users.id, companyMembers.userId))
      .where(and(eq(companyMembers.companyId, companyId), after ? sql`(${users.fullName}, ${companyMembers.id}) > (${after[0]}, ${after[1]})` : undefined))
      .orderBy(asc(users.fullName), asc(companyMembers.id))
      .limit(limit)
      .all(),
  member: async (db: Db, companyId: string, memberId: string): Promise<MemberRow | undefined> =>
    await db
      .select(memberColumns)
      .from(companyMembers)
      .innerJoin(users, eq(users.id, companyMembers.userId))
      .where(and(eq(companyMembers.companyId, companyId), eq(companyMembers.id, memberId)))
      .get(),
  memberById: async (db: Db, memberId: string): Promise<MemberRow | undefined> =>
    await db.select(memberColumns).from(companyMembers).innerJoin(users, eq(users.id, companyMembers.userId)).where(eq(companyMembers.id, memberId)).get(),
  memberOfUser: async (db: Db, companyId: string, userId: string) =>
    await db
      .select()
      .from(companyMembers)
      .where(and(eq(companyMembers.companyId, companyId), eq(companyMembers.userId, userId)))
      .get(),
  membershipCount: async (db: Db, userId: string): Promise<number> =>
    (await db.select({ n: count() }).from(companyMembers).where(eq(companyMembers.userId, userId)).get())?.n ?? 0,
  insertMember: async (db: Db, row: typeof companyMembers.$inferInsert): Promise<void> => {
    await db.insert(companyMembers).values(row).run()
  },
  updateMember: async (db: Db, memberId: string, changes: Partial<Pick<typeof companyMembers.$inferInsert, 'role' | 'version'>>): Promise<void> => {
    await db.update(companyMembers).set(changes).where(eq(companyMembers.id, memberId)).run()
  },
  deleteMember: async (db: Db, memberId: string): Promise<void> => {
    await db.delete(companyMembers).where(eq(companyMembers.id, memberId)).run()
  },
  memberPage: async (db: Db, companyIds: string[] | undefined, afterId: string | null, limit: number): Promise<MemberRow[]> =>
    await db
      .select(memberColumns)
      .from(companyMembers)
      .innerJoin(users, eq(users.id, companyMembers.userId))
      .where(after(companyMembers.id, afterId, companyIds === undefined ? undefined : inArray(companyMembers.companyId, companyIds)))
      .orderBy(asc(companyMembers.id))
      .limit(limit)
      .all(),
  membersByIds: async (db: Db, ids: string[]): Promise<MemberRow[]> =>
    ids.length ?
      await db.select(memberColumns).from(companyMembers).innerJoin(users, eq(users.id, companyMembers.userId)).where(inArray(companyMembers.id, ids)).all()
    : [],
  membersOfUser: async (db: Db, userId: string) => await db.select().from(companyMembers).where(eq(companyMembers.userId, userId)).all(),

  // ---- addresses
  addresses: async (db: Db, companyId: string): Promise<AddressRow[]> =>
    await db
      .select()
      .from(addresses)
      .where(eq(addresses.companyId, companyId))
      .orderBy(asc(addresses.street), asc(addresses.number), asc(addresses.floor), asc(addresses.side))
      .all(),
  address: async (db: Db, companyId: string, addressId: string): Promise<AddressRow | undefined> =>
    await db
      .select()
      .from(addresses)
      .where(and(eq(addresses.companyId, companyId), eq(addresses.id, addressId)))
      .get(),
  addressById: async (db: Db, addressId: string): Promise<AddressRow | undefined> => await db.select().from(addresses).where(eq(addresses.id, addressId)).get(),
  insertAddress: async (db: Db, row: typeof addresses.$inferInsert): Promise<void> => {
    await db.insert(addresses).values(row).run()
  },
  deleteAddress: async (db: Db, addressId: string): Promise<void> => {
    await db.delete(addresses).where(eq(addresses.id, addressId)).run()
  },
  addressPage: async (db: Db, companyIds: string[] | undefined, afterId: string | null, limit: number): Promise<AddressRow[]> =>
    await db
      .select()
      .from(addresses)
      .where(after(addresses.id, afterId, companyIds === undefined ? undefined : inArray(addresses.companyId, companyIds)))
      .orderBy(asc(addresses.id))
      .limit(limit)
      .all(),
  addressesByIds: async (db: Db, ids: string[]): Promise<AddressRow[]> =>
    ids.length ? await db.select().from(addresses).where(inArray(addresses.id, ids)).all() : [],
}
