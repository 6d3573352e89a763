import { index, sqliteTable, text } from 'drizzle-orm/sqlite-core'

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
