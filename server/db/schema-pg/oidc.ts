// The PostgreSQL twin of server/db/schema/oidc.ts: the same tables, columns, indexes and constraints
// (server/db/schema-parity.test.ts); the column types per docs/decisions/0054-postgresql-schema-beside-sqlite.md.
import { pgTable, text } from 'drizzle-orm/pg-core'

/** Vipps Login attempts in flight: state → PKCE verifier and nonce, single use, 10 minutes. */
export const oidcLogins = pgTable('oidc_logins', {
  state: text('state').primaryKey(),
  nonce: text('nonce').notNull(),
  codeVerifier: text('code_verifier').notNull(),
  createdAt: text('created_at').notNull(),
  /** Set when a signed-in user links Vipps MobilePay from the profile instead of signing in. */
  linkUserId: text('link_user_id'),
})
