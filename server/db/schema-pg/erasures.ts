// GENERATED from server/db/schema/erasures.ts by scripts/generate-pg-schema.ts (npm run db:generate:pg-schema,
// which npm run db:generate runs first): do not edit. Change the SQLite table and run npm run db:generate
// (docs/decisions/0074-one-definition-per-table-and-query.md).
import { index, pgTable, text } from 'drizzle-orm/pg-core'

export const personalDataErasures = pgTable(
  'personal_data_erasures',
  {
    id: text('id').primaryKey(),
    companyId: text('company_id').notNull(),
    userId: text('user_id').notNull(),
    reason: text('reason', { enum: ['MEMBER_REQUEST', 'NO_LONGER_NEEDED'] }).notNull(),
    requestedOn: text('requested_on').notNull(),
    erasedAt: text('erased_at').notNull(),
    erasedByUserId: text('erased_by_user_id').notNull(),
  },
  (t) => [index('personal_data_erasures_company').on(t.companyId, t.erasedAt), index('personal_data_erasures_user').on(t.userId)],
)
