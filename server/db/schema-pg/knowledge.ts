// GENERATED from server/db/schema/knowledge.ts by scripts/generate-pg-schema.ts (npm run db:generate:pg-schema,
// which npm run db:generate runs first): do not edit. Change the SQLite table and run npm run db:generate
// (docs/decisions/0074-one-definition-per-table-and-query.md).
import { index, integer, pgTable, primaryKey, text } from 'drizzle-orm/pg-core'
import { companies } from './companies'
import { users } from './users'

export const articles = pgTable(
  'articles',
  {
    id: text('id').primaryKey(),
    companyId: text('company_id').references(() => companies.id, { onDelete: 'cascade' }),
    language: text('language', { enum: ['en', 'da'] }).notNull(),
    title: text('title').notNull(),
    body: text('body').notNull(),
    bodyText: text('body_text').notNull(),
    tags: text('tags').notNull().default(''),
    authorUserId: text('author_user_id').references(() => users.id, { onDelete: 'set null' }),
    authorName: text('author_name').notNull(),
    version: integer('version').notNull().default(1),
    createdAt: text('created_at').notNull(),
    updatedAt: text('updated_at').notNull(),
  },
  (t) => [index('articles_company_created').on(t.companyId, t.createdAt, t.id), index('articles_author').on(t.authorUserId)],
)

export const articleSearchGrams = pgTable(
  'article_search_grams',
  {
    articleId: text('article_id')
      .notNull()
      .references(() => articles.id, { onDelete: 'cascade' }),
    companyId: text('company_id'),
    gram: text('gram').notNull(),
  },
  (t) => [index('article_search_grams_gram').on(t.gram, t.companyId, t.articleId), primaryKey({ columns: [t.articleId, t.gram] })],
)

export const articleAttachments = pgTable(
  'article_attachments',
  {
    id: text('id').primaryKey(),
    articleId: text('article_id')
      .notNull()
      .references(() => articles.id, { onDelete: 'cascade' }),
    fileName: text('file_name').notNull(),
    contentType: text('content_type').notNull(),
    size: integer('size').notNull(),
    sha256: text('sha256').notNull(),
    createdAt: text('created_at').notNull(),
  },
  (t) => [index('article_attachments_article').on(t.articleId, t.createdAt)],
)

export const specialists = pgTable(
  'specialists',
  {
    id: text('id').primaryKey(),
    companyId: text('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['PLUMBER', 'ELECTRICIAN', 'ADMINISTRATOR', 'LAWYER', 'OTHER'] }).notNull(),
    name: text('name').notNull(),
    companyName: text('company_name'),
    phone: text('phone'),
    email: text('email'),
    website: text('website'),
    address: text('address'),
    notes: text('notes').notNull().default(''),
    version: integer('version').notNull().default(1),
    createdAt: text('created_at').notNull(),
    updatedAt: text('updated_at').notNull(),
  },
  (t) => [index('specialists_company_kind').on(t.companyId, t.kind, t.name)],
)
