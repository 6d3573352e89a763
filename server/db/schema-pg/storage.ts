// GENERATED from server/db/schema/storage.ts by scripts/generate-pg-schema.ts (npm run db:generate:pg-schema,
// which npm run db:generate runs first): do not edit. Change the SQLite table and run npm run db:generate
// (docs/decisions/0074-one-definition-per-table-and-query.md).
import { bigint, pgTable, text } from 'drizzle-orm/pg-core'
import { companies } from './companies'

export const storageQuotas = pgTable('storage_quotas', {
  companyId: text('company_id')
    .primaryKey()
    .references(() => companies.id, { onDelete: 'cascade' }),
  quotaBytes: bigint('quota_bytes', { mode: 'number' }).notNull(),
  updatedAt: text('updated_at').notNull(),
})
