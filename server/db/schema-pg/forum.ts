// GENERATED from server/db/schema/forum.ts by scripts/generate-pg-schema.ts (npm run db:generate:pg-schema,
// which npm run db:generate runs first): do not edit. Change the SQLite table and run npm run db:generate
// (docs/decisions/0074-one-definition-per-table-and-query.md).
import { index, integer, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core'
import { companies } from './companies'
import { users } from './users'

export const forumThreads = pgTable(
  'forum_threads',
  {
    id: text('id').primaryKey(),
    companyId: text('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    authorUserId: text('author_user_id').references(() => users.id, { onDelete: 'set null' }),
    authorName: text('author_name').notNull(),
    title: text('title').notNull(),
    pinned: integer('pinned').notNull().default(0),
    lockedAt: text('locked_at'),
    lockedByName: text('locked_by_name'),
    hiddenAt: text('hidden_at'),
    hiddenByName: text('hidden_by_name'),
    hiddenReason: text('hidden_reason'),
    replyCount: integer('reply_count').notNull().default(0),
    lastActivityAt: text('last_activity_at').notNull(),
    version: integer('version').notNull().default(1),
    createdAt: text('created_at').notNull(),
    updatedAt: text('updated_at').notNull(),
  },
  (t) => [index('forum_threads_company_list').on(t.companyId, t.pinned, t.lastActivityAt, t.id)],
)

export const forumPosts = pgTable(
  'forum_posts',
  {
    id: text('id').primaryKey(),
    threadId: text('thread_id')
      .notNull()
      .references(() => forumThreads.id, { onDelete: 'cascade' }),
    companyId: text('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    authorUserId: text('author_user_id').references(() => users.id, { onDelete: 'set null' }),
    authorName: text('author_name').notNull(),
    opening: integer('opening').notNull().default(0),
    body: text('body').notNull(),
    editedAt: text('edited_at'),
    deletedAt: text('deleted_at'),
    hiddenAt: text('hidden_at'),
    hiddenByName: text('hidden_by_name'),
    hiddenReason: text('hidden_reason'),
    version: integer('version').notNull().default(1),
    createdAt: text('created_at').notNull(),
    updatedAt: text('updated_at').notNull(),
  },
  (t) => [
    index('forum_posts_thread_created').on(t.threadId, t.createdAt, t.id),
    index('forum_posts_company').on(t.companyId),
    index('forum_posts_author_created').on(t.authorUserId, t.createdAt),
  ],
)

export const forumFollows = pgTable(
  'forum_follows',
  {
    threadId: text('thread_id')
      .notNull()
      .references(() => forumThreads.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    following: integer('following').notNull().default(1),
    createdAt: text('created_at').notNull(),
  },
  (t) => [index('forum_follows_user').on(t.userId), primaryKey({ columns: [t.threadId, t.userId] })],
)

export const forumReports = pgTable(
  'forum_reports',
  {
    id: text('id').primaryKey(),
    postId: text('post_id')
      .notNull()
      .references(() => forumPosts.id, { onDelete: 'cascade' }),
    threadId: text('thread_id')
      .notNull()
      .references(() => forumThreads.id, { onDelete: 'cascade' }),
    companyId: text('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    reporterUserId: text('reporter_user_id').references(() => users.id, { onDelete: 'set null' }),
    reporterName: text('reporter_name').notNull(),
    reason: text('reason').notNull(),
    createdAt: text('created_at').notNull(),
    resolvedAt: text('resolved_at'),
    resolvedByName: text('resolved_by_name'),
  },
  (t) => [
    uniqueIndex('forum_reports_post_reporter').on(t.postId, t.reporterUserId),
    index('forum_reports_company_open').on(t.companyId, t.resolvedAt, t.createdAt),
    index('forum_reports_thread').on(t.threadId),
  ],
)

export const forumModerationEvents = pgTable(
  'forum_moderation_events',
  {
    id: text('id').primaryKey(),
    companyId: text('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    threadId: text('thread_id')
      .notNull()
      .references(() => forumThreads.id, { onDelete: 'cascade' }),
    postId: text('post_id'),
    actorUserId: text('actor_user_id').references(() => users.id, { onDelete: 'set null' }),
    actorName: text('actor_name').notNull(),
    action: text('action', { enum: ['HIDE', 'UNHIDE', 'LOCK', 'UNLOCK', 'PIN', 'UNPIN', 'RESOLVE_REPORT'] }).notNull(),
    reason: text('reason'),
    createdAt: text('created_at').notNull(),
  },
  (t) => [index('forum_moderation_events_thread').on(t.threadId, t.createdAt), index('forum_moderation_events_company').on(t.companyId)],
)
