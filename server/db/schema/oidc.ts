import { sqliteTable, text } from 'drizzle-orm/sqlite-core'

/** Vipps Login attempts in flight: state → PKCE verifier and nonce, single use, 10 minutes. */
export const oidcLogins = sqliteTable('oidc_logins', {
  state: text('state').primaryKey(),
  nonce: text('nonce').notNull(),
  codeVerifier: text('code_verifier').notNull(),
  createdAt: text('created_at').notNull(),
  /** Set when a signed-in user links Vipps MobilePay from the profile instead of signing in. */
  linkUserId: text('link_user_id'),
})
