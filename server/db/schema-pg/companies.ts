// GENERATED from server/db/schema/companies.ts by scripts/generate-pg-schema.ts (npm run db:generate:pg-schema,
// which npm run db:generate runs first): do not edit. Change the SQLite table and run npm run db:generate
// (docs/decisions/0074-one-definition-per-table-and-query.md).
import { index, integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core'
import { users } from './users'

export const companies = pgTable(
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

export const companyMembers = pgTable(
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
    version: integer('version').notNull().default(1),
    createdAt: text('created_at').notNull(),
  },
  (t) => [uniqueIndex('company_members_company_user').on(t.companyId, t.userId), index('company_members_user').on(t.userId)],
)

export const addresses = pgTable(
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
    addressKey: text('address_key'),
    createdAt: text('created_at').notNull(),
  },
  (t) => [index('addresses_company').on(t.companyId), uniqueIndex('addresses_company_key').on(t.companyId, t.addressKey)],
)
