// The PostgreSQL twin of server/db/schema/forum.ts: the same tables, columns, indexes and constraints
// (server/db/schema-parity.test.ts); the column types per docs/decisions/0054-postgresql-schema-beside-sqlite.md.
import { index, integer, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core'
import { companies } from './companies'
import { users } from './users'

/**
 * The forum of an association (docs/PRODUCT.md "Forum", decision 0066).
 * A thread's opening post is its first `forum_posts` row (`opening` 1), so editing, deleting,
 * hiding and reporting work the same for it as for a reply. `pinned` is 0/1 (pinned threads are
 * listed first), `reply_count` and `last_activity_at` are kept with each reply so the list is one
 * indexed read. Names are kept beside the user ids so a deleted account's posts still show who wrote.
 */
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
  (t) => [
    // The list: pinned first, then by last activity, within a company (keyset pages).
    index('forum_threads_company_list').on(t.companyId, t.pinned, t.lastActivityAt, t.id),
  ],
)

/** A thread's posts: its opening post and the replies, oldest first. A deleted post keeps its row ("deleted"). */
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
    /** Sanitized HTML (server/lib/sanitize-html.ts, as messages); '' once deleted. */
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
    // The posting limit (a user's posts of the last hour) and the author's ON DELETE SET NULL.
    index('forum_posts_author_created').on(t.authorUserId, t.createdAt),
  ],
)

/**
 * Who is told about a thread's replies: its author and everyone who posted in it (a row made when
 * they post) and whoever chose "Follow"; `following` 0 after "Unfollow" (posting again follows again).
 */
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
  (t) => [primaryKey({ columns: [t.threadId, t.userId] }), index('forum_follows_user').on(t.userId)],
)

/** A member's report of a post (the opening post stands for its thread): one per member and post; moderators resolve it. */
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
    // A deleted thread's ON DELETE CASCADE.
    index('forum_reports_thread').on(t.threadId),
  ],
)

/** Every moderation action (hide, unhide, lock, unlock, pin, unpin, resolve a report): who, when, what, why. */
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
  (t) => [
    index('forum_moderation_events_thread').on(t.threadId, t.createdAt),
    // A deleted company's ON DELETE CASCADE.
    index('forum_moderation_events_company').on(t.companyId),
  ],
)
