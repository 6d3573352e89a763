import { sqliteTable, text } from 'drizzle-orm/sqlite-core'
import { bigInteger } from '../columns'
import { companies } from './companies'

/**
 * An association's own storage quota, set by the super admin (docs/decisions/0082); an
 * association without a row has the default (STORAGE_QUOTA_MB). What its files take is not kept
 * here: it is summed from the files' own rows when asked.
 */
export const storageQuotas = sqliteTable('storage_quotas', {
  companyId: text('company_id')
    .primaryKey()
    .references(() => companies.id, { onDelete: 'cascade' }),
  quotaBytes: bigInteger('quota_bytes').notNull(),
  updatedAt: text('updated_at').notNull(),
})
