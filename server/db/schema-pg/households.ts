// GENERATED from server/db/schema/households.ts by scripts/generate-pg-schema.ts (npm run db:generate:pg-schema,
// which npm run db:generate runs first): do not edit. Change the SQLite table and run npm run db:generate
// (docs/decisions/0074-one-definition-per-table-and-query.md).
import { bigint, boolean, index, integer, json, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core'
import { addresses, companies } from './companies'
import { users } from './users'

export const households = pgTable(
  'households',
  {
    addressId: text('address_id')
      .primaryKey()
      .references(() => addresses.id, { onDelete: 'cascade' }),
    companyId: text('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    type: text('type', { enum: ['APARTMENT', 'HOUSE', 'COMMERCIAL', 'OTHER'] })
      .notNull()
      .default('APARTMENT'),
    areaCentiM2: integer('area_centi_m2'),
    allocationMilli: integer('allocation_milli'),
    shareOre: bigint('share_ore', { mode: 'number' }),
    externalId: text('external_id'),
    version: integer('version').notNull().default(1),
    createdAt: text('created_at').notNull(),
    updatedAt: text('updated_at').notNull(),
  },
  (t) => [index('households_company').on(t.companyId), uniqueIndex('households_company_external').on(t.companyId, t.externalId)],
)

export const householdResidents = pgTable(
  'household_residents',
  {
    id: text('id').primaryKey(),
    companyId: text('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    householdId: text('household_id')
      .notNull()
      .references(() => addresses.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id),
    fullName: text('full_name').notNull(),
    moveInDate: text('move_in_date').notNull(),
    moveOutDate: text('move_out_date'),
    kind: text('kind', { enum: ['OWNER', 'TENANT'] }).notNull(),
    isPayer: boolean('is_payer').notNull().default(false),
    createdAt: text('created_at').notNull(),
    updatedAt: text('updated_at').notNull(),
  },
  (t) => [
    index('household_residents_household').on(t.householdId, t.moveInDate),
    index('household_residents_user').on(t.userId),
    index('household_residents_company').on(t.companyId),
  ],
)

export const householdMoves = pgTable(
  'household_moves',
  {
    id: text('id').primaryKey(),
    companyId: text('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    householdId: text('household_id')
      .notNull()
      .references(() => addresses.id, { onDelete: 'cascade' }),
    moveDate: text('move_date').notNull(),
    endedAgreementId: text('ended_agreement_id'),
    newAgreementId: text('new_agreement_id'),
    settlement: json('settlement'),
    createdByUserId: text('created_by_user_id'),
    createdAt: text('created_at').notNull(),
  },
  (t) => [index('household_moves_household').on(t.householdId, t.moveDate)],
)
