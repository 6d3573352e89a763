import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core'
import { companies } from './companies'
import { users } from './users'

/**
 * The knowledge bank and the linked specialists (docs/PRODUCT.md "Knowledge bank" and
 * "Specialists", decision 0065).
 *
 * `articles`: an association's articles (`company_id` set; its company admin staff write them, its
 * members read them) and the platform's shared ones (`company_id` null; the super admin writes them,
 * every signed-in user reads them). `body` is sanitized HTML (the messages' allow-list); `body_text`
 * is its text, which the search reads; `tags` are normalised tags joined by one space. Search:
 * SQLite's FTS5 table `articles_fts` (external content, kept in step by triggers) and PostgreSQL's
 * GIN index `articles_search` over `article_search_vector(title, body_text, tags)`, both made by
 * custom migrations.
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
