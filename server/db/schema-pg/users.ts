// GENERATED from server/db/schema/users.ts by scripts/generate-pg-schema.ts (npm run db:generate:pg-schema,
// which npm run db:generate runs first): do not edit. Change the SQLite table and run npm run db:generate
// (docs/decisions/0074-one-definition-per-table-and-query.md).
import { sql } from 'drizzle-orm'
import { index, integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core'

export const users = pgTable(
  'users',
  {
    id: text('id').primaryKey(),
    fullName: text('full_name').notNull(),
    emailAddress: text('email_address').notNull(),
    mobileNumber: text('mobile_number'),
    mobileKey: text('mobile_key'),
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
    verifiedAt: text('verified_at'),
    createdAt: text('created_at').notNull(),
  },
  (t) => [
    index('auth_methods_user').on(t.userId),
    uniqueIndex('auth_methods_type_identifier')
      .on(t.type, t.identifier)
      .where(sql`type <> 'LOGIN_TOKEN' and verified_at is not null`),
    index('auth_methods_identifier').on(t.identifier),
    uniqueIndex('auth_methods_lookup').on(t.lookupHash),
  ],
)

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
    via: text('via', { enum: ['password', 'token', 'vipps'] }),
  },
  (t) => [uniqueIndex('sessions_token_hash').on(t.tokenHash), index('sessions_user').on(t.userId)],
)

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
