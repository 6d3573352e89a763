// GENERATED from server/db/schema/market.ts by scripts/generate-pg-schema.ts (npm run db:generate:pg-schema,
// which npm run db:generate runs first): do not edit. Change the SQLite table and run npm run db:generate
// (docs/decisions/0074-one-definition-per-table-and-query.md).
import { index, integer, pgTable, text } from 'drizzle-orm/pg-core'
import { companies } from './companies'
import { users } from './users'

export const marketListings = pgTable(
  'market_listings',
  {
    id: text('id').primaryKey(),
    companyId: text('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    sellerUserId: text('seller_user_id').references(() => users.id, { onDelete: 'set null' }),
    sellerName: text('seller_name').notNull(),
    kind: text('kind', { enum: ['BUY', 'SHARE', 'SWAP'] }).notNull(),
    title: text('title').notNull(),
    description: text('description').notNull().default(''),
    priceOre: integer('price_ore'),
    photoId: text('photo_id'),
    photoContentType: text('photo_content_type'),
    photoSize: integer('photo_size'),
    status: text('status', { enum: ['AVAILABLE', 'RESERVED', 'GONE'] })
      .notNull()
      .default('AVAILABLE'),
    reservedByUserId: text('reserved_by_user_id').references(() => users.id, { onDelete: 'set null' }),
    expiresAt: text('expires_at').notNull(),
    version: integer('version').notNull().default(1),
    createdAt: text('created_at').notNull(),
    updatedAt: text('updated_at').notNull(),
  },
  (t) => [index('market_listings_company_created').on(t.companyId, t.createdAt, t.id), index('market_listings_seller').on(t.sellerUserId)],
)
