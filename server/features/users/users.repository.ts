import { and, eq, like, ne } from 'drizzle-orm'
import type { Db } from '../../db/client'
import { users } from '../../db/schema/users'
import { companies, companyMembers } from '../../db/schema/companies'
import type { CompanyMembership } from '../../../shared/domain/roles'

export type UserRow = typeof users.$inferSelect
export type NewUser = typeof users.$inferInsert

/** Queries on users and their company memberships. */
export const usersRepository = {
  byId: (db: Db, id: string): UserRow | undefined => db.select().from(users).where(eq(users.id, id)).get(),

  byEmail: (db: Db, email: string): UserRow | undefined =>
    db.select().from(users).where(eq(users.emailAddress, email.toLowerCase())).get(),

  emailTakenByOther: (db: Db, email: string, userId: string): boolean =>
    db.select({ id: users.id }).from(users).where(and(eq(users.emailAddress, email), ne(users.id, userId))).get() !== undefined,

  insert: (db: Db, user: NewUser): void => {
    db.insert(users).values(user).run()
  },

  update: (db: Db, id: string, changes: Partial<NewUser>): void => {
    db.update(users).set(changes).where(eq(users.id, id)).run()
  },

  /** Companies the user works for, with the role, in name order. Deleted companies are left out. */
  memberships: (db: Db, userId: string): CompanyMembership[] =>
    db
      .select({ id: companies.id, name: companies.name, role: companyMembers.role })
      .from(companyMembers)
      .innerJoin(companies, eq(companies.id, companyMembers.companyId))
      .where(and(eq(companyMembers.userId, userId), ne(companies.status, 'DELETED')))
      .orderBy(companies.name)
      .all(),

  /** Users whose e-mail starts with the text (for "add user to company"), at most 10. */
  searchByEmailPrefix: (db: Db, prefix: string): UserRow[] =>
    db
      .select()
      .from(users)
      .where(like(users.emailAddress, `${prefix.replace(/[\\%_]/g, (m) => '\\' + m)}%`))
      .orderBy(users.emailAddress)
      .limit(10)
      .all(),
}
