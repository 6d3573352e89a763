import { and, eq, getTableColumns, inArray, isNotNull, like, ne, sql } from 'drizzle-orm'
import type { Db } from '../../db/client'
import { statement } from '../../db/statement'
import { authMethods, users } from '../../db/schema/users'
import { companyMembers } from '../../db/schema/companies'
import { agreements } from '../../db/schema/agreements'
import type { CompanyMembership } from '../../../shared/domain/roles'

export type UserRow = typeof users.$inferSelect
export type NewUser = typeof users.$inferInsert

/** What an actor is made of (server/features/access/actor.ts). */
export type ActorUserRow = Pick<UserRow, 'id' | 'fullName' | 'emailAddress' | 'language' | 'systemRole' | 'currentCompanyId'>

// The actor is read for every request that misses the actor cache: raw statements, prepared once
// per connection on SQLite (a request may read on whichever connection it is given).
const actorUserStatement = statement<[string], ActorUserRow>(
  `SELECT id, full_name AS "fullName", email_address AS "emailAddress", language, system_role AS "systemRole", current_company_id AS "currentCompanyId"
     FROM users WHERE id = ?`,
)
const membershipsStatement = statement<[string], CompanyMembership>(
  `SELECT c.id, c.name, m.role FROM company_members m JOIN companies c ON c.id = m.company_id
    WHERE m.user_id = ? AND c.status <> 'DELETED' ORDER BY c.name`,
)

/** Queries on users and their company memberships. */
export const usersRepository = {
  byId: async (db: Db, id: string): Promise<UserRow | undefined> => await db.select().from(users).where(eq(users.id, id)).get(),

  byEmail: async (db: Db, email: string): Promise<UserRow | undefined> =>
    await db.select().from(users).where(eq(users.emailAddress, email.toLowerCase())).get(),

  emailTakenByOther: async (db: Db, email: string, userId: string): Promise<boolean> =>
    (await db
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.emailAddress, email), ne(users.id, userId)))
      .get()) !== undefined,

  /** The user whose account address, or proven e-mail sign-in, is this address. */
  byAnyEmail: async (db: Db, email: string): Promise<UserRow | undefined> => {
    const address = email.toLowerCase()
    const own = await db.select().from(users).where(eq(users.emailAddress, address)).get()
    if (own) return own
    const signIn = await db
      .select({ userId: authMethods.userId })
      .from(authMethods)
      .where(and(eq(authMethods.type, 'EMAIL_PASSWORD'), eq(authMethods.identifier, address), isNotNull(authMethods.verifiedAt)))
      .get()
    return signIn ? await db.select().from(users).where(eq(users.id, signIn.userId)).get() : undefined
  },

  /** The user holding a mobile number (by its comparable key, shared/domain/mobile.ts). */
  byMobileKey: async (db: Db, key: string): Promise<UserRow | undefined> => await db.select().from(users).where(eq(users.mobileKey, key)).get(),

  insert: async (db: Db, user: NewUser): Promise<void> => {
    await db.insert(users).values(user).run()
  },

  update: async (db: Db, id: string, changes: Partial<NewUser>): Promise<void> => {
    await db.update(users).set(changes).where(eq(users.id, id)).run()
  },

  /** The user's fields an actor holds (a raw statement). */
  actorUser: async (db: Db, id: string): Promise<ActorUserRow | undefined> => await actorUserStatement.get(db, [id]),

  /** Companies the user works for, with the role, in name order. Deleted companies are left out. */
  memberships: async (db: Db, userId: string): Promise<CompanyMembership[]> => await membershipsStatement.all(db, [userId]),

  /** Users whose e-mail starts with the text (for "add user to company"), at most 10. */
  searchByEmailPrefix: async (db: Db, prefix: string): Promise<UserRow[]> =>
    await db
      .select()
      .from(users)
      .where(like(users.emailAddress, `${prefix.replace(/[\\%_]/g, (m) => '\\' + m)}%`))
      .orderBy(users.emailAddress)
      .limit(10)
      .all(),

  /**
   * Users whose e-mail starts with the text, at most 10, in e-mail order: among the staff of the
   * given companies (what a company's staff may find, decision 0033), or among everyone (`'all'`, the
   * super admin). `%`, `_` and a backslash in the text match themselves.
   */
  searchByEmailPrefixAmong: async (db: Db, prefix: string, staffOf: readonly string[] | 'all'): Promise<UserRow[]> =>
    staffOf !== 'all' && staffOf.length === 0 ?
      []
    : await db
        .select(getTableColumns(users))
        .from(users)
        .where(
          and(
            sql`${users.emailAddress} like ${prefix.replace(/[\\%_]/g, (m) => '\\' + m) + '%'} escape '\\'`,
            staffOf === 'all' ? undefined : (
              inArray(
                users.id,
                db
                  .select({ id: companyMembers.userId })
                  .from(companyMembers)
                  .where(inArray(companyMembers.companyId, [...staffOf])),
              )
            ),
          ),
        )
        .orderBy(users.emailAddress)
        .limit(10)
        .all(),

  /** Whether the user is on the staff (any company role) of one of the companies. */
  isStaffOfAny: async (db: Db, userId: string, companyIds: readonly string[]): Promise<boolean> =>
    companyIds.length > 0 &&
    (await db
      .select({ id: companyMembers.id })
      .from(companyMembers)
      .where(and(eq(companyMembers.userId, userId), inArray(companyMembers.companyId, [...companyIds])))
      .get()) !== undefined,

  /** Whether the user has (or had) an agreement with the company, in any status: a resident there. */
  hasAgreementWith: async (db: Db, userId: string, companyId: string): Promise<boolean> =>
    (await db
      .select({ id: agreements.id })
      .from(agreements)
      .where(and(eq(agreements.memberUserId, userId), eq(agreements.companyId, companyId)))
      .get()) !== undefined,
}
