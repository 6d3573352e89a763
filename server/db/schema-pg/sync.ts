// GENERATED from server/db/schema/sync.ts by scripts/generate-pg-schema.ts (npm run db:generate:pg-schema,
// which npm run db:generate runs first): do not edit. Change the SQLite table and run npm run db:generate
// (docs/decisions/0074-one-definition-per-table-and-query.md).
import { sql } from 'drizzle-orm'
import { bigint, index, pgTable, text } from 'drizzle-orm/pg-core'

export const changeLog = pgTable(
  'change_log',
  {
    seq: bigint('seq', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
    entity: text('entity').notNull(),
    entityId: text('entity_id').notNull(),
    op: text('op', { enum: ['upsert', 'delete'] }).notNull(),
    companyId: text('company_id'),
    userId: text('user_id'),
    audience: text('audience', { enum: ['MEMBERS'] }),
    createdAt: text('created_at').notNull(),
  },
  (t) => [
    index('change_log_company_seq').on(t.companyId, t.seq),
    index('change_log_user_seq').on(t.userId, t.seq),
    index('change_log_user_company_seq').on(t.userId, t.companyId, t.seq),
    index('change_log_created').on(t.createdAt),
    index('change_log_members_seq')
      .on(t.companyId, t.seq)
      .where(sql`audience = 'MEMBERS'`),
  ],
)

export const syncState = pgTable('sync_state', {
  key: text('key').primaryKey(),
  value: bigint('value', { mode: 'number' }).notNull(),
})
