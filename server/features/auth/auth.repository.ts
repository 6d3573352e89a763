import { and, eq, gt, inArray, isNotNull, isNull, ne } from 'drizzle-orm'
import type Database from 'better-sqlite3'
import { connectionOf, type Db } from '../../db/client'
import { authMethods, emailConfirmations, passwordResets, sessions } from '../../db/schema/users'
import { oidcLogins } from '../../db/schema/oidc'

export type AuthMethodRow = typeof authMethods.$inferSelect
export type SessionRow = typeof sessions.$inferSelect
export type NewAuthMethod = typeof authMethods.$inferInsert
/** What authenticating a request needs of its session. */
export type LiveSession = Pick<SessionRow, 'id' | 'userId' | 'lastUsedAt' | 'expiresAt'>

// Every request with a token runs the session lookup: prepared once per connection (never one
// connection captured at start-up, so a request may read on whichever connection it is given).
const statements = new WeakMap<Database.Database, Database.Statement<[string, string], LiveSession>>()
function liveSessionStatement(db: Db): Database.Statement<[string, string], LiveSession> {
  const sqlite = connectionOf(db)
  let s = statements.get(sqlite)
  if (!s)
    statements.set(
      sqlite,
      (s = sqlite.prepare<[string, string], LiveSession>(
        `SELECT id, user_id AS userId, last_used_at AS lastUsedAt, expires_at AS expiresAt
           FROM sessions WHERE token_hash = ? AND revoked_at IS NULL AND expires_at > ?`,
      )),
    )
  return s
}

/** Queries on sign-in methods, sessions, password reset links and Vipps Login attempts. */
export const authRepository = {
  /** The proven sign-in with this identifier; unverified claims never count. */
  verifiedMethod: (db: Db, type: AuthMethodRow['type'], identifier: string): AuthMethodRow | undefined =>
    db
      .select()
      .from(authMethods)
      .where(and(eq(authMethods.type, type), eq(authMethods.identifier, identifier), isNotNull(authMethods.verifiedAt)))
      .get(),

  /** The user's own sign-in of this type and identifier, proven or not. */
  ownMethod: (db: Db, userId: string, type: AuthMethodRow['type'], identifier: string): AuthMethodRow | undefined =>
    db
      .select()
      .from(authMethods)
      .where(and(eq(authMethods.userId, userId), eq(authMethods.type, type), eq(authMethods.identifier, identifier)))
      .get(),

  /** Proven password sign-ins of a user (to confirm it is them before a security change). */
  passwordMethodsOf: (db: Db, userId: string): AuthMethodRow[] =>
    db
      .select()
      .from(authMethods)
      .where(
        and(
          eq(authMethods.userId, userId),
          inArray(authMethods.type, ['EMAIL_PASSWORD', 'PHONE_PASSWORD']),
          isNotNull(authMethods.verifiedAt),
          isNotNull(authMethods.secretHash),
        ),
      )
      .all(),

  /** Drops other users' unproven claims on an identifier once its owner has proven it. */
  deleteOthersPendingClaims: (db: Db, type: AuthMethodRow['type'], identifier: string, ownerId: string): void => {
    db.delete(authMethods)
      .where(and(eq(authMethods.type, type), eq(authMethods.identifier, identifier), isNull(authMethods.verifiedAt), ne(authMethods.userId, ownerId)))
      .run()
  },

  /** Removes the user's sign-ins of one type; returns how many there were. */
  deleteMethodsOfType: (db: Db, userId: string, type: AuthMethodRow['type']): number =>
    db
      .delete(authMethods)
      .where(and(eq(authMethods.userId, userId), eq(authMethods.type, type)))
      .run().changes,

  /** Removes the user's unproven sign-ins (pending e-mail claims). */
  deleteUnverifiedMethods: (db: Db, userId: string): number =>
    db
      .delete(authMethods)
      .where(and(eq(authMethods.userId, userId), isNull(authMethods.verifiedAt)))
      .run().changes,

  /** Ends every unused confirmation link of the user (pending e-mail sign-ins and changes). */
  expireConfirmations: (db: Db, userId: string, at: string): number =>
    db
      .update(emailConfirmations)
      .set({ usedAt: at })
      .where(and(eq(emailConfirmations.userId, userId), isNull(emailConfirmations.usedAt)))
      .run().changes,

  /** Removes every login token of a user; returns how many there were. */
  deleteLoginTokens: (db: Db, userId: string): number =>
    db
      .delete(authMethods)
      .where(and(eq(authMethods.userId, userId), eq(authMethods.type, 'LOGIN_TOKEN')))
      .run().changes,

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

  sessionById: (db: Db, id: string): SessionRow | undefined => db.select().from(sessions).where(eq(sessions.id, id)).get(),

  /** A session by token hash that is neither revoked nor expired at `now` (a prepared statement). */
  liveSession: (db: Db, tokenHash: string, now: string): LiveSession | undefined => liveSessionStatement(db).get(tokenHash, now),

  touchSession: (db: Db, id: string, lastUsedAt: string, expiresAt: string): void => {
    db.update(sessions).set({ lastUsedAt, expiresAt }).where(eq(sessions.id, id)).run()
  },

  revokeSession: (db: Db, id: string, at: string): void => {
    db.update(sessions).set({ revokedAt: at }).where(eq(sessions.id, id)).run()
  },

  /** Revokes every live session of the user; returns how many. */
  revokeAllSessions: (db: Db, userId: string, at: string): number =>
    db
      .update(sessions)
      .set({ revokedAt: at })
      .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt)))
      .run().changes,

  insertReset: (db: Db, row: typeof passwordResets.$inferInsert): void => {
    db.insert(passwordResets).values(row).run()
  },

  resetByTokenHash: (db: Db, tokenHash: string) => db.select().from(passwordResets).where(eq(passwordResets.tokenHash, tokenHash)).get(),

  markResetUsed: (db: Db, id: string, at: string): void => {
    db.update(passwordResets).set({ usedAt: at }).where(eq(passwordResets.id, id)).run()
  },

  insertConfirmation: (db: Db, row: typeof emailConfirmations.$inferInsert): void => {
    db.insert(emailConfirmations).values(row).run()
  },

  confirmationByTokenHash: (db: Db, tokenHash: string) => db.select().from(emailConfirmations).where(eq(emailConfirmations.tokenHash, tokenHash)).get(),

  markConfirmationUsed: (db: Db, id: string, at: string): void => {
    db.update(emailConfirmations).set({ usedAt: at }).where(eq(emailConfirmations.id, id)).run()
  },

  /** The newest unused e-mail change the user asked for, if still valid at `now`. */
  pendingEmailChange: (db: Db, userId: string, now: string) =>
    db
      .select()
      .from(emailConfirmations)
      .where(
        and(
          eq(emailConfirmations.userId, userId),
          eq(emailConfirmations.purpose, 'CHANGE_EMAIL'),
          isNull(emailConfirmations.usedAt),
          gt(emailConfirmations.expiresAt, now),
        ),
      )
      .orderBy(emailConfirmations.createdAt)
      .all()
      .at(-1),

  /** Cancels the user's earlier unused e-mail change links (a new request replaces them). */
  expireEmailChanges: (db: Db, userId: string, at: string): void => {
    db.update(emailConfirmations)
      .set({ usedAt: at })
      .where(and(eq(emailConfirmations.userId, userId), eq(emailConfirmations.purpose, 'CHANGE_EMAIL'), isNull(emailConfirmations.usedAt)))
      .run()
  },

  /** The user whose Vipps sign-in has this Vipps identity (`sub`). */
  userOfVippsSub: (db: Db, sub: string): string | undefined =>
    db
      .select()
      .from(authMethods)
      .where(and(eq(authMethods.type, 'MOBILEPAY'), eq(authMethods.identifier, sub)))
      .get()?.userId,
  insertOidcLogin: (db: Db, row: typeof oidcLogins.$inferInsert): void => {
    db.insert(oidcLogins).values(row).run()
  },
  /** The Vipps Login attempt with this state, removed as it is read (a callback cannot be replayed). */
  takeOidcLogin(db: Db, state: string) {
    const row = db.select().from(oidcLogins).where(eq(oidcLogins.state, state)).get()
    if (row) db.delete(oidcLogins).where(eq(oidcLogins.state, state)).run()
    return row
  },
}
