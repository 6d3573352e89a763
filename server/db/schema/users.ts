import { sql } from 'drizzle-orm'
import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core'

/** People who can sign in. E-mail is stored lower-cased and is unique. */
export const users = sqliteTable(
  'users',
  {
    id: text('id').primaryKey(),
    fullName: text('full_name').notNull(),
    emailAddress: text('email_address').notNull(),
    mobileNumber: text('mobile_number'),
    language: text('language', { enum: ['EN', 'DA'] }).notNull().default('EN'),
    systemRole: text('system_role', { enum: ['SUPERADMIN', 'MEMBER', 'USER'] }).notNull().default('USER'),
    currentCompanyId: text('current_company_id'),
    version: integer('version').notNull().default(1),
    createdAt: text('created_at').notNull(),
    updatedAt: text('updated_at').notNull(),
  },
  (t) => [uniqueIndex('users_email_unique').on(t.emailAddress)],
)

/**
 * Ways to sign in. Passwords are scrypt hashes; login tokens are looked up by their SHA-256
 * (`lookup_hash`), since they are long random strings.
 */
export const authMethods = sqliteTable(
  'auth_methods',
  {
    id: text('id').primaryKey(),
    userId: text('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    type: text('type', { enum: ['EMAIL_PASSWORD', 'PHONE_PASSWORD', 'LOGIN_TOKEN', 'MOBILEPAY'] }).notNull(),
    identifier: text('identifier').notNull(),
    secretHash: text('secret_hash'),
    lookupHash: text('lookup_hash'),
    createdAt: text('created_at').notNull(),
  },
  (t) => [
    index('auth_methods_user').on(t.userId),
    uniqueIndex('auth_methods_type_identifier').on(t.type, t.identifier).where(sql`type <> 'LOGIN_TOKEN'`),
    uniqueIndex('auth_methods_lookup').on(t.lookupHash),
  ],
)

/** Access tokens: only the SHA-256 of the opaque token is stored (CONTRACT.md "Transport"). */
export const sessions = sqliteTable(
  'sessions',
  {
    id: text('id').primaryKey(),
    userId: text('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    createdAt: text('created_at').notNull(),
    lastUsedAt: text('last_used_at').notNull(),
    expiresAt: text('expires_at').notNull(),
    revokedAt: text('revoked_at'),
  },
  (t) => [uniqueIndex('sessions_token_hash').on(t.tokenHash), index('sessions_user').on(t.userId)],
)

/** Single-use password reset links, valid one hour. */
export const passwordResets = sqliteTable(
  'password_resets',
  {
    id: text('id').primaryKey(),
    userId: text('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    expiresAt: text('expires_at').notNull(),
    usedAt: text('used_at'),
    createdAt: text('created_at').notNull(),
  },
  (t) => [uniqueIndex('password_resets_token_hash').on(t.tokenHash)],
)
