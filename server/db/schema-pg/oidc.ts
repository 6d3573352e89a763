// GENERATED from server/db/schema/oidc.ts by scripts/generate-pg-schema.ts (npm run db:generate:pg-schema,
// which npm run db:generate runs first): do not edit. Change the SQLite table and run npm run db:generate
// (docs/decisions/0074-one-definition-per-table-and-query.md).
import { pgTable, text } from 'drizzle-orm/pg-core'

export const oidcLogins = pgTable('oidc_logins', {
  state: text('state').primaryKey(),
  nonce: text('nonce').notNull(),
  codeVerifier: text('code_verifier').notNull(),
  createdAt: text('created_at').notNull(),
  linkUserId: text('link_user_id'),
})
