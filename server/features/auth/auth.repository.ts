import { and, eq, gt, isNull } from 'drizzle-orm'
import type { Db } from '../../db/client'
import { authMethods, passwordResets, sessions } from '../../db/schema/users'

export type AuthMethodRow = typeof authMethods.$inferSelect
export type SessionRow = typeof sessions.$inferSelect

/** Queries on sign-in methods, sessions and password reset links. */
export const authRepository = {
  methodByIdentifier: (db: Db, type: AuthMethodRow['type'], identifier: string): AuthMethodRow | undefined =>
    db.select().from(authMethods).where(and(eq(authMethods.type, type), eq(authMethods.identifier, identifier))).get(),

  methodByLookupHash: (db: Db, lookupHash: string): AuthMethodRow | undefined =>
    db.select().from(authMethods).where(eq(authMethods.lookupHash, lookupHash)).get(),

  methodsOf: (db: Db, userId: string): AuthMethodRow[] =>
    db.select().from(authMethods).where(eq(authMethods.userId, userId)).orderBy(authMethods.createdAt).all(),

  insertMethod: (db: Db, row: typeof authMethods.$inferInsert): void => {
    db.insert(authMethods).values(row).run()
  },

  updateMethod: (db: Db, id: string, changes: Partial<typeof authMethods.$inferInsert>): void => {
    db.update(authMethods).set(changes).where(eq(authMethods.id, id)).run()
  },

  deleteMethod: (db: Db, id: string): void => {
    db.delete(authMethods).where(eq(authMethods.id, id)).run()
  },

  insertSession: (db: Db, row: typeof sessions.$inferInsert): void => {
    db.insert(sessions).values(row).run()
  },

  /** A session by token hash that is neither revoked nor expired at `now`. */
  liveSession: (db: Db, tokenHash: string, now: string): SessionRow | undefined =>
    db
      .select()
      .from(sessions)
      .where(and(eq(sessions.tokenHash, tokenHash), isNull(sessions.revokedAt), gt(sessions.expiresAt, now)))
      .get(),

  touchSession: (db: Db, id: string, lastUsedAt: string, expiresAt: string): void => {
    db.update(sessions).set({ lastUsedAt, expiresAt }).where(eq(sessions.id, id)).run()
  },

  revokeSession: (db: Db, id: string, at: string): void => {
    db.update(sessions).set({ revokedAt: at }).where(eq(sessions.id, id)).run()
  },

  revokeAllSessions: (db: Db, userId: string, at: string): void => {
    db.update(sessions).set({ revokedAt: at }).where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt))).run()
  },

  insertReset: (db: Db, row: typeof passwordResets.$inferInsert): void => {
    db.insert(passwordResets).values(row).run()
  },

  resetByTokenHash: (db: Db, tokenHash: string) =>
    db.select().from(passwordResets).where(eq(passwordResets.tokenHash, tokenHash)).get(),

  markResetUsed: (db: Db, id: string, at: string): void => {
    db.update(passwordResets).set({ usedAt: at }).where(eq(passwordResets.id, id)).run()
  },
}
