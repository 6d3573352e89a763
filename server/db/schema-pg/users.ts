// The PostgreSQL twin of server/db/schema/users.ts: the same tables, columns, indexes and constraints
// (server/db/schema-parity.test.ts); the column types per docs/decisions/0054-postgresql-schema-beside-sqlite.md.
import { sql } from 'drizzle-orm'
import { index, integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core'

/** People who can sign in. E-mail is stored lower-cased and is unique. */
export const users = pgTable(
  'users',
  {
    id: text('id').primaryKey(),
    fullName: text('full_name').notNull(),
    emailAddress: text('email_address').notNull(),
    mobileNumber: text('mobile_number'),
    /**
     * The mobile number in one comparable form (country code and digits, e.g. `4520112233`; see
     * shared/domain/mobile.ts). Unique, so no two users hold the same number.
     */
    mobileKey: text('mobile_key'),
    /**
     * When the number was proven to be this user's (Vipps Login returned it, or trusted seed data).
     * Only a verified number may open an account at a first Vipps sign-in; a changed number is unverified.
     */
    mobileVerifiedAt: text('mobile_verified_at'),
    language: text('language', { enum: ['EN', 'DA'] })
      .notNull()
      .default('EN'),
    systemRole: text('system_role', { enum: ['SUPERADMIN', 'MEMBER', 'USER'] })
      .notNull()
      .default('USER'),
    currentCompanyId: text('current_company_id'),
    version: integer('version').notNull().default(1),
    createdAt: text('created_at').notNull(),
    updatedAt: text('updated_at').notNull(),
  },
  (t) => [uniqueIndex('users_email_unique').on(t.emailAddress), uniqueIndex('users_mobile_key_unique').on(t.mobileKey)],
)

/**
 * Ways to sign in. Passwords are scrypt hashes; login tokens are looked up by their SHA-256
 * (`lookup_hash`), since they are long random strings.
 */
export const authMethods = pgTable(
  'auth_methods',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    type: text('type', { enum: ['EMAIL_PASSWORD', 'PHONE_PASSWORD', 'LOGIN_TOKEN', 'MOBILEPAY'] }).notNull(),
    identifier: text('identifier').notNull(),
    secretHash: text('secret_hash'),
    lookupHash: text('lookup_hash'),
    /**
     * When the identifier was proven to be the owner's (an e-mail link clicked, Vipps Login, a
     * generated token). An unverified method never signs anyone in.
     */
    verifiedAt: text('verified_at'),
    createdAt: text('created_at').notNull(),
  },
  (t) => [
    index('auth_methods_user').on(t.userId),
    // Only proven identifiers are unique: a pending claim cannot block the real owner.
    uniqueIndex('auth_methods_type_identifier')
      .on(t.type, t.identifier)
      .where(sql`type <> 'LOGIN_TOKEN' and verified_at is not null`),
    index('auth_methods_identifier').on(t.identifier),
    uniqueIndex('auth_methods_lookup').on(t.lookupHash),
  ],
)

/** Access tokens: only the SHA-256 of the opaque token is stored (docs/API.md "Transport"). */
export const sessions = pgTable(
  'sessions',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    createdAt: text('created_at').notNull(),
    lastUsedAt: text('last_used_at').notNull(),
    expiresAt: text('expires_at').notNull(),
    revokedAt: text('revoked_at'),
    /** How the session was started: `password`, `token` or `vipps` (a fresh Vipps sign-in confirms identity). */
    via: text('via', { enum: ['password', 'token', 'vipps'] }),
  },
  (t) => [uniqueIndex('sessions_token_hash').on(t.tokenHash), index('sessions_user').on(t.userId)],
)

/** Single-use password reset links, valid one hour. */
export const passwordResets = pgTable(
  'password_resets',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    expiresAt: text('expires_at').notNull(),
    usedAt: text('used_at'),
    createdAt: text('created_at').notNull(),
  },
  (t) => [uniqueIndex('password_resets_token_hash').on(t.tokenHash)],
)

/**
 * Links that prove an e-mail address belongs to a user: confirming an added e-mail sign-in
 * (`ADD_METHOD`, with the pending method) or a new account address (`CHANGE_EMAIL`). Single use, 24 hours.
 */
export const emailConfirmations = pgTable(
  'email_confirmations',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    purpose: text('purpose', { enum: ['ADD_METHOD', 'CHANGE_EMAIL'] }).notNull(),
    email: text('email').notNull(),
    authMethodId: text('auth_method_id').references(() => authMethods.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    expiresAt: text('expires_at').notNull(),
    usedAt: text('used_at'),
    createdAt: text('created_at').notNull(),
  },
  (t) => [uniqueIndex('email_confirmations_token_hash').on(t.tokenHash), index('email_confirmations_user').on(t.userId)],
)
