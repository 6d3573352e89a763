import { and, eq, gt, inArray, isNotNull, isNull, ne } from 'drizzle-orm'
import type { Db } from '../../db/client'
import { statement } from '../../db/statement'
import { authMethods, emailConfirmations, passwordResets, sessions } from '../../db/schema/users'
import { oidcLogins } from '../../db/schema/oidc'

export type AuthMethodRow = typeof authMethods.$inferSelect
export type SessionRow = typeof sessions.$inferSelect
export type NewAuthMethod = typeof authMethods.$inferInsert
/** What authenticating a request needs of its session. */
export type LiveSession = Pick<SessionRow, 'id' | 'userId' | 'lastUsedAt' | 'expiresAt'>

// Every request with a token that misses the actor cache runs the session lookup: a raw
// statement, prepared once per connection on SQLite (a request may read on whichever it is given).
const liveSessionStatement = statement<[string, string], LiveSession>(
  `SELECT id, user_id AS "userId", last_used_at AS "lastUsedAt", expires_at AS "expiresAt"
     FROM sessions WHERE token_hash = ? AND revoked_at IS NULL AND expires_at > ?`,
)

/** Queries on sign-in methods, sessions, password reset links and Vipps Login attempts. */
export const authRepository = {
  /** The proven sign-in with this identifier; unverified claims never count. */
  verifiedMethod: async (db: Db, type: AuthMethodRow['type'], identifier: string): Promise<AuthMethodRow | undefined> =>
    await db
      .select()
      .from(authMethods)
      .where(and(eq(authMethods.type, type), eq(authMethods.identifier, identifier), isNotNull(authMethods.verifiedAt)))
      .get(),

  /** The user's own sign-in of this type and identifier, proven or not. */
  ownMethod: async (db: Db, userId: string, type: AuthMethodRow['type'], identifier: string): Promise<AuthMethodRow | undefined> =>
    await db
      .select()
      .from(authMethods)
      .where(and(eq(authMethods.userId, userId), eq(authMethods.type, type), eq(authMethods.identifier, identifier)))
      .get(),

  /** Proven password sign-ins of a user (to confirm it is them before a security change). */
  passwordMethodsOf: async (db: Db, userId: string): Promise<AuthMethodRow[]> =>
    await db
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
  deleteOthersPendingClaims: async (db: Db, type: AuthMethodRow['type'], identifier: string, ownerId: string): Promise<void> => {
    await db
      .delete(authMethods)
      .where(and(eq(authMethods.type, type), eq(authMethods.identifier, identifier), isNull(authMethods.verifiedAt), ne(authMethods.userId, ownerId)))
      .run()
  },

  /** Removes the user's sign-ins of one type; returns how many there were. */
  deleteMethodsOfType: async (db: Db, userId: string, type: AuthMethodRow['type']): Promise<number> =>
    (
      await db
        .delete(authMethods)
        .where(and(eq(authMethods.userId, userId), eq(authMethods.type, type)))
        .run()
    ).changes,

  /** Removes the user's unproven sign-ins (pending e-mail claims). */
  deleteUnverifiedMethods: async (db: Db, userId: string): Promise<number> =>
    (
      await db
        .delete(authMethods)
        .where(and(eq(authMethods.userId, userId), isNull(authMethods.verifiedAt)))
        .run()
    ).changes,

  /** Ends every unused confirmation link of the user (pending e-mail sign-ins and changes). */
  expireConfirmations: async (db: Db, userId: string, at: string): Promise<number> =>
    (
      await db
        .update(emailConfirmations)
        .set({ usedAt: at })
        .where(and(eq(emailConfirmations.userId, userId), isNull(emailConfirmations.usedAt)))
        .run()
    ).changes,

  /** Removes every login token of a user; returns how many there were. */
  deleteLoginTokens: async (db: Db, userId: string): Promise<number> =>
    (
      await db
        .delete(authMethods)
        .where(and(eq(authMethods.userId, userId), eq(authMethods.type, 'LOGIN_TOKEN')))
        .run()
    ).changes,

  methodByLookupHash: async (db: Db, lookupHash: string): Promise<AuthMethodRow | undefined> =>
    await db.select().from(authMethods).where(eq(authMethods.lookupHash, lookupHash)).get(),

  methodsOf: async (db: Db, userId: string): Promise<AuthMethodRow[]> =>
    await db.select().from(authMethods).where(eq(authMethods.userId, userId)).orderBy(authMethods.createdAt).all(),

  insertMethod: async (db: Db, row: typeof authMethods.$inferInsert): Promise<void> => {
    await db.insert(authMethods).values(row).run()
  },

  updateMethod: async (db: Db, id: string, changes: Partial<typeof authMethods.$inferInsert>): Promise<void> => {
    await db.update(authMethods).set(changes).where(eq(authMethods.id, id)).run()
  },

  deleteMethod: async (db: Db, id: string): Promise<void> => {
    await db.delete(authMethods).where(eq(authMethods.id, id)).run()
  },

  insertSession: async (db: Db, row: typeof sessions.$inferInsert): Promise<void> => {
    await db.insert(sessions).values(row).run()
  },

  sessionById: async (db: Db, id: string): Promise<SessionRow | undefined> => await db.select().from(sessions).where(eq(sessions.id, id)).get(),

  /** A session by token hash that is neither revoked nor expired at `now` (a raw statement). */
  liveSession: async (db: Db, tokenHash: string, now: string): Promise<LiveSession | undefined> => await liveSessionStatement.get(db, [tokenHash, now]),

  touchSession: async (db: Db, id: string, lastUsedAt: string, expiresAt: string): Promise<void> => {
    await db.update(sessions).set({ lastUsedAt, expiresAt }).where(eq(sessions.id, id)).run()
  },

  revokeSession: async (db: Db, id: string, at: string): Promise<void> => {
    await db.update(sessions).set({ revokedAt: at }).where(eq(sessions.id, id)).run()
  },

  /** Revokes every live session of the user; returns how many. */
  revokeAllSessions: async (db: Db, userId: string, at: string): Promise<number> =>
    (
      await db
        .update(sessions)
        .set({ revokedAt: at })
        .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt)))
        .run()
    ).changes,

  insertReset: async (db: Db, row: typeof passwordResets.$inferInsert): Promise<void> => {
    await db.insert(passwordResets).values(row).run()
  },

  /** Many reset (invitation) links at once, 100 rows a statement. */
  insertResets: async (db: Db, rows: readonly (typeof passwordResets.$inferInsert)[]): Promise<void> => {
    for (let i = 0; i < rows.length; i += 100)
      await db
        .insert(passwordResets)
        .values(rows.slice(i, i + 100))
        .run()
  },

  resetByTokenHash: async (db: Db, tokenHash: string) => await db.select().from(passwordResets).where(eq(passwordResets.tokenHash, tokenHash)).get(),

  markResetUsed: async (db: Db, id: string, at: string): Promise<void> => {
    await db.update(passwordResets).set({ usedAt: at }).where(eq(passwordResets.id, id)).run()
  },

  insertConfirmation: async (db: Db, row: typeof emailConfirmations.$inferInsert): Promise<void> => {
    await db.insert(emailConfirmations).values(row).run()
  },

  confirmationByTokenHash: async (db: Db, tokenHash: string) =>
    await db.select().from(emailConfirmations).where(eq(emailConfirmations.tokenHash, tokenHash)).get(),

  markConfirmationUsed: async (db: Db, id: string, at: string): Promise<void> => {
    await db.update(emailConfirmations).set({ usedAt: at }).where(eq(emailConfirmations.id, id)).run()
  },

  /** The newest unused e-mail change the user asked for, if still valid at `now`. */
  pendingEmailChange: async (db: Db, userId: string, now: string) =>
    (
      await db
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
    ).at(-1),

  /** Cancels the user's earlier unused e-mail change links (a new request replaces them). */
  expireEmailChanges: async (db: Db, userId: string, at: string): Promise<void> => {
    await db
      .update(emailConfirmations)
      .set({ usedAt: at })
      .where(and(eq(emailConfirmations.userId, userId), eq(emailConfirmations.purpose, 'CHANGE_EMAIL'), isNull(emailConfirmations.usedAt)))
      .run()
  },

  /** The user whose Vipps sign-in has this Vipps identity (`sub`). */
  userOfVippsSub: async (db: Db, sub: string): Promise<string | undefined> =>
    (
      await db
        .select()
        .from(authMethods)
        .where(and(eq(authMethods.type, 'MOBILEPAY'), eq(authMethods.identifier, sub)))
        .get()
    )?.userId,
  insertOidcLogin: async (db: Db, row: typeof oidcLogins.$inferInsert): Promise<void> => {
    await db.insert(oidcLogins).values(row).run()
  },
  /** The Vipps Login attempt with this state, removed as it is read (a callback cannot be replayed). */
  async takeOidcLogin(db: Db, state: string) {
    // One statement: two callbacks with the same state at once (two instances) cannot both get it.
    return await db.delete(oidcLogins).where(eq(oidcLogins.state, state)).returning().get()
  },
}
