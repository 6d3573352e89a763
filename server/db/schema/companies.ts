import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core'
import { users } from './users'

/** Housing associations (docs/PRODUCT.md §3 "Company"; their statuses: docs/decisions/0014-company-life-cycle.md). */
export const companies = sqliteTable(
  'companies',
  {
    id: text('id').primaryKey(),
    name: text('name').notNull(),
    acronym: text('acronym').notNull(),
    cvr: text('cvr').notNull(),
    unionType: text('union_type', { enum: ['COOP', 'CONDO'] }).notNull(),
    status: text('status', { enum: ['NEW', 'ACTIVE', 'SUSPENDED', 'DEACTIVATED', 'DELETED'] })
      .notNull()
      .default('NEW'),
    heatingWaterPeriodStartDate: text('heating_water_period_start_date'),
    heatingWaterPeriodEndDate: text('heating_water_period_end_date'),
    version: integer('version').notNull().default(1),
    createdAt: text('created_at').notNull(),
    updatedAt: text('updated_at').notNull(),
  },
  (t) => [uniqueIndex('companies_cvr_unique').on(t.cvr)],
)

/** A user's role in a company (staff). Residents are linked through agreements, not here. */
export const companyMembers = sqliteTable(
  'company_members',
  {
    id: text('id').primaryKey(),
    companyId: text('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    role: text('role', { enum: ['CHAIRMAN', 'ADMINISTRATOR', 'ACCOUNTANT', 'BOARDMEMBER'] }).notNull(),
    /** Moves when the role changes (decision 0038), so an offline role change carries If-Match. */
    version: integer('version').notNull().default(1),
    createdAt: text('created_at').notNull(),
  },
  (t) => [uniqueIndex('company_members_company_user').on(t.companyId, t.userId), index('company_members_user').on(t.userId)],
)

/** Addresses of a company's properties (docs/PRODUCT.md §3 "Company address"); country is always Denmark. */
export const addresses = sqliteTable(
  'addresses',
  {
    id: text('id').primaryKey(),
    companyId: text('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    referenceId: text('reference_id'),
    street: text('street').notNull(),
    number: text('number').notNull(),
    floor: text('floor'),
    side: text('side'),
    zip: text('zip').notNull(),
    city: text('city').notNull(),
    country: text('country').notNull().default('Denmark'),
    /**
     * The address in one comparable form (shared/domain/address.ts `addressKey`): one address is
     * added to a company once (docs/decisions/0038-companies-members-and-addresses.md). NULL only for rows that were duplicates before the key
     * existed (migration 0012 keys every other row).
     */
    addressKey: text('address_key'),
    createdAt: text('created_at').notNull(),
  },
  (t) => [index('addresses_company').on(t.companyId), uniqueIndex('addresses_company_key').on(t.companyId, t.addressKey)],
)
