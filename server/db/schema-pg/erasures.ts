// GENERATED from server/db/schema/erasures.ts by scripts/generate-pg-schema.ts (npm run db:generate:pg-schema,
// which npm run db:generate runs first): do not edit. Change the SQLite table and run npm run db:generate
// (docs/decisions/0074-one-definition-per-table-and-query.md).
import { sql } from 'drizzle-orm'
import { index, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core'

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

export const personalDataErasureRequests = pgTable(
  'personal_data_erasure_requests',
  {
    id: text('id').primaryKey(),
    companyId: text('company_id').notNull(),
    userId: text('user_id').notNull(),
    channel: text('channel', { enum: ['APP', 'LETTER', 'EMAIL', 'PHONE', 'IN_PERSON', 'OTHER'] }).notNull(),
    requestedOn: text('requested_on').notNull(),
    recordedByUserId: text('recorded_by_user_id').notNull(),
    recordedAt: text('recorded_at').notNull(),
    status: text('status', { enum: ['PENDING', 'APPROVED', 'REJECTED', 'WITHDRAWN'] }).notNull(),
    decidedByUserId: text('decided_by_user_id'),
    decidedAt: text('decided_at'),
    decisionNote: text('decision_note'),
    erasureId: text('erasure_id'),
  },
  (t) => [
    index('personal_data_erasure_requests_company').on(t.companyId, t.recordedAt),
    index('personal_data_erasure_requests_user').on(t.userId),
    uniqueIndex('personal_data_erasure_requests_pending')
      .on(t.companyId, t.userId)
      .where(sql`status = 'PENDING'`),
  ],
)
