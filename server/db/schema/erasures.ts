import { sql } from 'drizzle-orm'
import { index, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core'
import { erasureChannels, erasureRequestStatuses } from '../../../shared/contract/personal-data'

/**
 * Erase requests handled (docs/PRIVACY.md, decision 0069): which account was erased,
 * by whose staff, when and why. It holds no personal data of the erased member: `user_id` is the
 * opaque id their anonymised account keeps (the kept vouchers refer to it), `reason` is a code.
 */
export const personalDataErasures = sqliteTable(
  'personal_data_erasures',
  {
    id: text('id').primaryKey(),
    /** The association whose staff handled the request. */
    companyId: text('company_id').notNull(),
    userId: text('user_id').notNull(),
    reason: text('reason', { enum: ['MEMBER_REQUEST', 'NO_LONGER_NEEDED'] }).notNull(),
    /** The Copenhagen day the member asked (YYYY-MM-DD). */
    requestedOn: text('requested_on').notNull(),
    erasedAt: text('erased_at').notNull(),
    erasedByUserId: text('erased_by_user_id').notNull(),
  },
  (t) => [index('personal_data_erasures_company').on(t.companyId, t.erasedAt), index('personal_data_erasures_user').on(t.userId)],
)

/**
 * Erasure requests (docs/decisions/0080-erasure-only-on-request.md): a member is erased only on
 * their own request, filed in the app or recorded by staff, and only once another staff member
 * (or the super admin) approves it. The audit: who asked or recorded it and how, who decided and
 * when. People are opaque ids (an erased member's account keeps its id); `decision_note` is the
 * reason staff give for a rejection, swept for the member's identifiers like any other text.
 */
export const personalDataErasureRequests = sqliteTable(
  'personal_data_erasure_requests',
  {
    id: text('id').primaryKey(),
    /** The association the request was made to (the erasure is of a member of it). */
    companyId: text('company_id').notNull(),
    /** The member whose data is to be erased. */
    userId: text('user_id').notNull(),
    channel: text('channel', { enum: erasureChannels }).notNull(),
    /** The Copenhagen day the member asked (YYYY-MM-DD). */
    requestedOn: text('requested_on').notNull(),
    /** Who filed it: the member themself (`APP`), or the staff member who recorded it. */
    recordedByUserId: text('recorded_by_user_id').notNull(),
    recordedAt: text('recorded_at').notNull(),
    status: text('status', { enum: erasureRequestStatuses }).notNull(),
    decidedByUserId: text('decided_by_user_id'),
    decidedAt: text('decided_at'),
    decisionNote: text('decision_note'),
    /** The entry of the erasure log an approval wrote. */
    erasureId: text('erasure_id'),
  },
  (t) => [
    index('personal_data_erasure_requests_company').on(t.companyId, t.recordedAt),
    index('personal_data_erasure_requests_user').on(t.userId),
    // One request waits per member and association: a second is refused (409).
    uniqueIndex('personal_data_erasure_requests_pending')
      .on(t.companyId, t.userId)
      .where(sql`status = 'PENDING'`),
  ],
)
