import { index, integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core'
import { companies } from './companies'
import { users } from './users'

/**
 * The knowledge bank and the linked specialists (docs/PRODUCT.md "Knowledge bank" and
 * "Specialists", decision 0065).
 *
 * `articles`: an association's articles (`company_id` set; its company admin staff write them, its
 * members read them) and the platform's shared ones (`company_id` null; the super admin writes them,
 * every signed-in user reads them). `body` is sanitized HTML (the messages' allow-list); `body_text`
 * is its text, which the search reads; `tags` are normalised tags joined by one space.
 *
 * `article_search_grams`: the search's index (decision 0085), the same on both engines: each
 * article's distinct trigrams of its folded words (shared/domain/search), written by the articles
 * service in the transaction that writes the article, with the article's `company_id` copied (it
 * never changes) so the lookup keeps to the reader's articles without reading them.
 *
 * `article_attachments`: files of an article, stored under `<attachments>/articles/<article>/<id>`.
 *
 * `specialists`: an association's directory of craftsmen and advisers, written by its staff.
 */
export const articles = sqliteTable(
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
  (t) => [
    // The list's order (newest first) within a company (platform articles: company_id null).
    index('articles_company_created').on(t.companyId, t.createdAt, t.id),
    index('articles_author').on(t.authorUserId),
  ],
)

export const articleSearchGrams = sqliteTable(
  'article_search_grams',
  {
    articleId: text('article_id')
      .notNull()
      .references(() => articles.id, { onDelete: 'cascade' }),
    /** The article's association, null for the platform's (a copy of `articles.company_id`). */
    companyId: text('company_id'),
    gram: text('gram').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.articleId, t.gram] }),
    // The lookup: a query's grams within the reader's associations and the platform's.
    index('article_search_grams_gram').on(t.gram, t.companyId, t.articleId),
  ],
)

export const articleAttachments = sqliteTable(
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

export const specialists = sqliteTable(
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
