import { sql } from 'drizzle-orm'
import { index, sqliteTable, text } from 'drizzle-orm/sqlite-core'
import { bigInteger } from '../columns'

/**
 * The change log behind GET /api/sync (docs/OFFLINE.md, docs/API.md "Sync"). One row per committed
 * change of a synced entity, written in the same transaction as the change. `seq` only grows.
 * A row is visible to the staff of `companyId` (with `audience` MEMBERS its residents too) and to the user `userId` (either may be null).
 * Data is not copied here: a pull reads the entity's current row, so a pull is never stale.
 */
export const changeLog = sqliteTable(
  'change_log',
  {
    seq: bigInteger('seq').primaryKey({ autoIncrement: true }),
    entity: text('entity').notNull(),
    entityId: text('entity_id').notNull(),
    op: text('op', { enum: ['upsert', 'delete'] }).notNull(),
    companyId: text('company_id'),
    userId: text('user_id'),
    /**
     * `MEMBERS`: the company's residents read the row too, not only its staff (a listing, a forum
     * post, a member document: decision 0073). One row instead of one per resident.
     */
    audience: text('audience', { enum: ['MEMBERS'] }),
    createdAt: text('created_at').notNull(),
  },
  (t) => [
    index('change_log_company_seq').on(t.companyId, t.seq),
    index('change_log_user_seq').on(t.userId, t.seq),
    // The pull's rows for everyone (neither company nor user: decision 0065) without reading every company's.
    index('change_log_user_company_seq').on(t.userId, t.companyId, t.seq),
    index('change_log_created').on(t.createdAt),
    // A resident's pull reads its associations' rows for members without reading their staff's.
    index('change_log_members_seq')
      .on(t.companyId, t.seq)
      .where(sql`audience = 'MEMBERS'`),
  ],
)

/** Platform-wide counters: `compactedThrough` is the highest seq removed by compaction. */
export const syncState = sqliteTable('sync_state', {
  key: text('key').primaryKey(),
  value: bigInteger('value').notNull(),
})
