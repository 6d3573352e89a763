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
  byId: (db: Db, id: string): CompanyRow | undefined => db.select().from(companies).where(eq(companies.id, id)).get(),
  byCvr: (db: Db, cvr: string): CompanyRow | undefined => db.select().from(companies).where(eq(companies.cvr, cvr)).get(),

  /** Companies in name order; `ids` limits them (undefined: all, including deleted ones). */
  list: (db: Db, ids: string[] | undefined): CompanyRow[] =>
    db
      .select()
      .from(companies)
      .where(ids === undefined ? undefined : and(inArray(companies.id, ids), ne(companies.status, 'DELETED')))
      .orderBy(asc(companies.name))
      .all(),

  insert: (db: Db, row: typeof companies.$inferInsert): void => {
    db.insert(companies).values(row).run()
  },
  update: (db: Db, id: string, changes: Partial<typeof companies.$inferInsert>): void => {
    db.update(companies).set(changes).where(eq(companies.id, id)).run()
  },

  /** Company rows for sync: `ids` limits them (undefined: all), in id order after `afterId`. */
  page: (db: Db, ids: string[] | undefined, afterId: string | null, limit: number): CompanyRow[] =>
    db
      .select()
      .from(companies)
      .where(after(companies.id, afterId, ids === undefined ? undefined : and(inArray(companies.id, ids), ne(companies.status, 'DELETED'))))
      .orderBy(asc(companies.id))
      .limit(limit)
      .all(),
  byIds: (db: Db, ids: string[]): CompanyRow[] => (ids.length ? db.select().from(companies).where(inArray(companies.id, ids)).all() : []),

  memberCount: (db: Db, companyId: string): number =>
    db.select({ n: count() }).from(companyMembers).where(eq(companyMembers.companyId, companyId)).get()?.n ?? 0,

  // ---- members
  members: (db: Db, companyId: string): MemberRow[] =>
    db
      .select(memberColumns)
      .from(companyMembers)
      .innerJoin(users, eq(users.id, companyMembers.userId))
      .where(eq(companyMembers.companyId, companyId))
      .orderBy(asc(users.fullName))
      .all(),
  /**
   * A page of the company's staff by (name, membership id) after `after`: one statement with
   * LIMIT (issue #19). Names are at most 200 characters (personName), as a cursor's strings.
   */
  membersPage: (db: Db, companyId: string, after: MemberPageKey | undefined, limit: number): MemberRow[] =>
    db
      .select(memberColumns)
      .from(companyMembers)
      .innerJoin(users, eq(users.id, companyMembers.userId))
      .where(and(eq(companyMembers.companyId, companyId), after ? sql`(${users.fullName}, ${companyMembers.id}) > (${after[0]}, ${after[1]})` : undefined))
      .orderBy(asc(users.fullName), asc(companyMembers.id))
      .limit(limit)
      .all(),
  member: (db: Db, companyId: string, memberId: string): MemberRow | undefined =>
    db
      .select(memberColumns)
      .from(companyMembers)
      .innerJoin(users, eq(users.id, companyMembers.userId))
      .where(and(eq(companyMembers.companyId, companyId), eq(companyMembers.id, memberId)))
      .get(),
  memberById: (db: Db, memberId: string): MemberRow | undefined =>
    db.select(memberColumns).from(companyMembers).innerJoin(users, eq(users.id, companyMembers.userId)).where(eq(companyMembers.id, memberId)).get(),
  memberOfUser: (db: Db, companyId: string, userId: string) =>
    db
      .select()
      .from(companyMembers)
      .where(and(eq(companyMembers.companyId, companyId), eq(companyMembers.userId, userId)))
      .get(),
  membershipCount: (db: Db, userId: string): number => db.select({ n: count() }).from(companyMembers).where(eq(companyMembers.userId, userId)).get()?.n ?? 0,
  insertMember: (db: Db, row: typeof companyMembers.$inferInsert): void => {
    db.insert(companyMembers).values(row).run()
  },
  updateMember: (db: Db, memberId: string, changes: Partial<Pick<typeof companyMembers.$inferInsert, 'role' | 'version'>>): void => {
    db.update(companyMembers).set(changes).where(eq(companyMembers.id, memberId)).run()
  },
  deleteMember: (db: Db, memberId: string): void => {
    db.delete(companyMembers).where(eq(companyMembers.id, memberId)).run()
  },
  memberPage: (db: Db, companyIds: string[] | undefined, afterId: string | null, limit: number): MemberRow[] =>
    db
      .select(memberColumns)
      .from(companyMembers)
      .innerJoin(users, eq(users.id, companyMembers.userId))
      .where(after(companyMembers.id, afterId, companyIds === undefined ? undefined : inArray(companyMembers.companyId, companyIds)))
      .orderBy(asc(companyMembers.id))
      .limit(limit)
      .all(),
  membersByIds: (db: Db, ids: string[]): MemberRow[] =>
    ids.length ?
      db.select(memberColumns).from(companyMembers).innerJoin(users, eq(users.id, companyMembers.userId)).where(inArray(companyMembers.id, ids)).all()
    : [],
  membersOfUser: (db: Db, userId: string) => db.select().from(companyMembers).where(eq(companyMembers.userId, userId)).all(),

  // ---- addresses
  addresses: (db: Db, companyId: string): AddressRow[] =>
    db
      .select()
      .from(addresses)
      .where(eq(addresses.companyId, companyId))
      .orderBy(asc(addresses.street), asc(addresses.number), asc(addresses.floor), asc(addresses.side))
      .all(),
  address: (db: Db, companyId: string, addressId: string): AddressRow | undefined =>
    db
      .select()
      .from(addresses)
      .where(and(eq(addresses.companyId, companyId), eq(addresses.id, addressId)))
      .get(),
  addressById: (db: Db, addressId: string): AddressRow | undefined => db.select().from(addresses).where(eq(addresses.id, addressId)).get(),
  insertAddress: (db: Db, row: typeof addresses.$inferInsert): void => {
    db.insert(addresses).values(row).run()
  },
  deleteAddress: (db: Db, addressId: string): void => {
    db.delete(addresses).where(eq(addresses.id, addressId)).run()
  },
  addressPage: (db: Db, companyIds: string[] | undefined, afterId: string | null, limit: number): AddressRow[] =>
    db
      .select()
      .from(addresses)
      .where(after(addresses.id, afterId, companyIds === undefined ? undefined : inArray(addresses.companyId, companyIds)))
      .orderBy(asc(addresses.id))
      .limit(limit)
      .all(),
  addressesByIds: (db: Db, ids: string[]): AddressRow[] => (ids.length ? db.select().from(addresses).where(inArray(addresses.id, ids)).all() : []),
}
