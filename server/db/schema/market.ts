import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core'
import { companies } from './companies'
import { users } from './users'

/**
 * The market's listings (docs/PRODUCT.md "Market", decision 0063): things members of
 * one association sell (BUY, with a price in øre), share or swap. `expires_at` is 30 days after it
 * was made or renewed; "expired" is computed from it on read, so no job marks anything. The photo's
 * bytes live under `<attachments>/market/<id>/<photo_id>` (a replaced photo gets a new id).
 * `seller_name` keeps the name shown when the seller's account is deleted.
 */
export const marketListings = sqliteTable(
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
  (t) => [
    // The list's order (newest first) within a company, and sync's pages by id.
    index('market_listings_company_created').on(t.companyId, t.createdAt, t.id),
    index('market_listings_seller').on(t.sellerUserId),
  ],
)
