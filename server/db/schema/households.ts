import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core'
import { bigInteger } from '../columns'
import { householdTypes, residentKinds } from '../../../shared/domain/household'
import { addresses, companies } from './companies'
import { users } from './users'

/**
 * The association's dwellings (docs/PRODUCT.md "Households", docs/decisions/0090): a household IS
 * one of the association's addresses — `address_id` is its id and its key — with what the
 * association keeps of it. Figures are exact integers: the area in hundredths of m², the
 * allocation figure (fordelingstal) in thousandths, a co-op share (andel) in øre. `external_id`
 * is the previous administrator's number, unique per association, for the spreadsheet import.
 */
export const households = sqliteTable(
  'households',
  {
    addressId: text('address_id')
      .primaryKey()
      .references(() => addresses.id, { onDelete: 'cascade' }),
    companyId: text('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    type: text('type', { enum: householdTypes }).notNull().default('APARTMENT'),
    /** Hundredths of a square metre (74.5 m² is 7450). */
    areaCentiM2: integer('area_centi_m2'),
    /** Thousandths (fordelingstal 1.25 is 1250). */
    allocationMilli: integer('allocation_milli'),
    /** A co-op's (COOP) share value, øre. */
    shareOre: bigInteger('share_ore'),
    externalId: text('external_id'),
    version: integer('version').notNull().default(1),
    createdAt: text('created_at').notNull(),
    updatedAt: text('updated_at').notNull(),
  },
  (t) => [index('households_company').on(t.companyId), uniqueIndex('households_company_external').on(t.companyId, t.externalId)],
)

/**
 * Who lived in a household when (docs/decisions/0090): a person moves in on `move_in_date` and
 * out on `move_out_date` (the first day they no longer live there; NULL while they do). Dates
 * are Copenhagen calendar dates. One resident of a household at a time is its payer.
 */
export const householdResidents = sqliteTable(
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
    /**
     * The name as the association knows the resident: typed by its staff, or the user's own name when
     * they were picked among the association's people (someone from outside keeps their own data,
     * docs/decisions/0037).
     */
    fullName: text('full_name').notNull(),
    moveInDate: text('move_in_date').notNull(),
    moveOutDate: text('move_out_date'),
    kind: text('kind', { enum: residentKinds }).notNull(),
    isPayer: integer('is_payer', { mode: 'boolean' }).notNull().default(false),
    createdAt: text('created_at').notNull(),
    updatedAt: text('updated_at').notNull(),
  },
  (t) => [
    index('household_residents_household').on(t.householdId, t.moveInDate),
    index('household_residents_user').on(t.userId),
    index('household_residents_company').on(t.companyId),
  ],
)

/**
 * Moves registered on a household (ejerskifte, fraflytning): one row per move, its client-made id
 * makes a retried move one move. `settlement` is the leaving payer's final settlement as shown
 * before it was confirmed (shared/domain/household-settlement.ts).
 */
export const householdMoves = sqliteTable(
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
    settlement: text('settlement', { mode: 'json' }).$type<Record<string, unknown>>(),
    createdByUserId: text('created_by_user_id'),
    createdAt: text('created_at').notNull(),
  },
  (t) => [index('household_moves_household').on(t.householdId, t.moveDate)],
)
