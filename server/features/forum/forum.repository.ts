import { and, asc, desc, eq, gt, inArray, isNull, lt, ne, or, sql, type SQL } from 'drizzle-orm'
import type { Db } from '../../db/client'
import { companyMembers } from '../../db/schema/companies'
import { forumFollows, forumModerationEvents, forumPosts, forumReports, forumThreads } from '../../db/schema/forum'
import { users } from '../../db/schema/users'

export type ThreadRow = typeof forumThreads.$inferSelect
export type PostRow = typeof forumPosts.$inferSelect
export type ReportRow = typeof forumReports.$inferSelect
export type ThreadPageKey = [pinned: number, lastActivityAt: string, id: string]
export type PostPageKey = [createdAt: string, id: string]

/**
 * What a caller sees of the forum: the companies they are a member of, and among those the ones
 * they moderate (who also see hidden threads and posts). The super admin reads every forum.
 */
export interface ForumScope {
  all: boolean
  companyIds: string[]
  moderates: string[]
}

function threadsVisible(scope: ForumScope): SQL | undefined {
  if (scope.all) return undefined
  if (!scope.companyIds.length) return sql`1 = 0`
  const plain = scope.companyIds.filter((id) => !scope.moderates.includes(id))
  return or(
    scope.moderates.length ? inArray(forumThreads.companyId, scope.moderates) : undefined,
    plain.length ? and(inArray(forumThreads.companyId, plain), isNull(forumThreads.hiddenAt)) : undefined,
  )
}

/** Posts a scope sees: of threads it sees, and (outside the companies it moderates) not hidden. */
function postsVisible(scope: ForumScope): SQL | undefined {
  if (scope.all) return undefined
  if (!scope.companyIds.length) return sql`1 = 0`
  const plain = scope.companyIds.filter((id) => !scope.moderates.includes(id))
  return or(
    scope.moderates.length ? inArray(forumPosts.companyId, scope.moderates) : undefined,
    plain.length ?
      and(
        inArray(forumPosts.companyId, plain),
        isNull(forumPosts.hiddenAt),
        sql`exists (select 1 from ${forumThreads} where ${forumThreads.id} = ${forumPosts.threadId} and ${forumThreads.hiddenAt} is null)`,
      )
    : undefined,
  )
}

export const forumRepository = {
  thread: async (db: Db, id: string): Promise<ThreadRow | undefined> => await db.select().from(forumThreads).where(eq(forumThreads.id, id)).get(),
  post: async (db: Db, id: string): Promise<PostRow | undefined> => await db.select().from(forumPosts).where(eq(forumPosts.id, id)).get(),

  /** A page of a company's threads: pinned first, then the latest activity first; hidden ones only for moderators. */
  threadPage: async (db: Db, filter: { companyId: string; withHidden: boolean }, after: ThreadPageKey | undefined, limit: number) =>
    await db
      .select()
      .from(forumThreads)
      .where(
        and(
          eq(forumThreads.companyId, filter.companyId),
          filter.withHidden ? undefined : isNull(forumThreads.hiddenAt),
          after ?
            or(
              lt(forumThreads.pinned, after[0]),
              and(eq(forumThreads.pinned, after[0]), lt(forumThreads.lastActivityAt, after[1])),
              and(eq(forumThreads.pinned, after[0]), eq(forumThreads.lastActivityAt, after[1]), lt(forumThreads.id, after[2])),
            )
          : undefined,
        ),
      )
      .orderBy(desc(forumThreads.pinned), desc(forumThreads.lastActivityAt), desc(forumThreads.id))
      .limit(limit)
      .all(),

  /** A page of a thread's posts, oldest first; hidden ones only for moderators. */
  postPage: async (db: Db, filter: { threadId: string; withHidden: boolean }, after: PostPageKey | undefined, limit: number) =>
    await db
      .select()
      .from(forumPosts)
      .where(
        and(
          eq(forumPosts.threadId, filter.threadId),
          filter.withHidden ? undefined : isNull(forumPosts.hiddenAt),
          after ? or(gt(forumPosts.createdAt, after[0]), and(eq(forumPosts.createdAt, after[0]), gt(forumPosts.id, after[1]))) : undefined,
        ),
      )
      .orderBy(asc(forumPosts.createdAt), asc(forumPosts.id))
      .limit(limit)
      .all(),

  /** Of these threads, those the user follows (one statement for a page). */
  followed: async (db: Db, userId: string, threadIds: string[]): Promise<Set<string>> =>
    new Set(
      threadIds.length === 0 ?
        []
      : (
          await db
            .select({ id: forumFollows.threadId })
            .from(forumFollows)
            .where(and(eq(forumFollows.userId, userId), eq(forumFollows.following, 1), inArray(forumFollows.threadId, threadIds)))
            .all()
        ).map((r) => r.id),
    ),

  /** Follows (or follows again) a thread; `following` 0 to stop. */
  setFollowing: async (db: Db, threadId: string, userId: string, following: boolean, at: string) =>
    void (await db
      .insert(forumFollows)
      .values({ threadId, userId, following: following ? 1 : 0, createdAt: at })
      .onConflictDoUpdate({ target: [forumFollows.threadId, forumFollows.userId], set: { following: following ? 1 : 0 } })
      .run()),

  /** The people told about a new reply: the thread's followers but the replier, with what an e-mail needs, in one statement. */
  followers: async (db: Db, threadId: string, exceptUserId: string) =>
    await db
      .select({ id: users.id, fullName: users.fullName, emailAddress: users.emailAddress, language: users.language })
      .from(forumFollows)
      .innerJoin(users, eq(users.id, forumFollows.userId))
      .where(and(eq(forumFollows.threadId, threadId), eq(forumFollows.following, 1), ne(forumFollows.userId, exceptUserId)))
      .orderBy(asc(users.id))
      .all(),

  /** The company's staff (every role: they moderate), for an in-app notice about a report. */
  moderators: async (db: Db, companyId: string) =>
    await db
      .selectDistinct({ id: users.id, language: users.language })
      .from(companyMembers)
      .innerJoin(users, eq(users.id, companyMembers.userId))
      .where(eq(companyMembers.companyId, companyId))
      .all(),

  insertThread: async (db: Db, row: typeof forumThreads.$inferInsert) => void (await db.insert(forumThreads).values(row).run()),
  insertPost: async (db: Db, row: typeof forumPosts.$inferInsert) => void (await db.insert(forumPosts).values(row).run()),

  updateThread: async (db: Db, id: string, fields: Partial<typeof forumThreads.$inferInsert>) =>
    void (await db
      .update(forumThreads)
      .set({ ...fields, version: sql`${forumThreads.version} + 1` })
      .where(eq(forumThreads.id, id))
      .run()),

  /** A reply arrived: one more reply, the thread's activity now. */
  replied: async (db: Db, id: string, at: string) =>
    void (await db
      .update(forumThreads)
      .set({ replyCount: sql`${forumThreads.replyCount} + 1`, lastActivityAt: at, updatedAt: at, version: sql`${forumThreads.version} + 1` })
      .where(eq(forumThreads.id, id))
      .run()),

  /** The replies members see, counted again after a reply was hidden, unhidden or deleted. */
  recount: async (db: Db, id: string, at: string) =>
    void (await db
      .update(forumThreads)
      .set({
        replyCount: sql`(select count(*) from ${forumPosts} where ${forumPosts.threadId} = ${id} and ${forumPosts.opening} = 0 and ${forumPosts.hiddenAt} is null and ${forumPosts.deletedAt} is null)`,
        updatedAt: at,
        version: sql`${forumThreads.version} + 1`,
      })
      .where(eq(forumThreads.id, id))
      .run()),

  updatePost: async (db: Db, id: string, fields: Partial<typeof forumPosts.$inferInsert>) =>
    void (await db
      .update(forumPosts)
      .set({ ...fields, version: sql`${forumPosts.version} + 1` })
      .where(eq(forumPosts.id, id))
      .run()),

  /** How many posts (threads and replies) a user wrote since an instant, and the oldest of them (the posting limit). */
  postsSince: async (db: Db, userId: string, since: string): Promise<{ count: number; oldest: string | null }> => {
    const row = await db
      .select({ count: sql<number>`count(*)`, oldest: sql<string | null>`min(${forumPosts.createdAt})` })
      .from(forumPosts)
      .where(and(eq(forumPosts.authorUserId, userId), gt(forumPosts.createdAt, since)))
      .get()
    return { count: Number(row?.count ?? 0), oldest: row?.oldest ?? null }
  },

  /** The thread's posts' ids (sync: a hidden or unhidden thread changes what members see of its posts). */
  postIdsOf: async (db: Db, threadId: string): Promise<string[]> =>
    (await db.select({ id: forumPosts.id }).from(forumPosts).where(eq(forumPosts.threadId, threadId)).all()).map((r) => r.id),

  report: async (db: Db, postId: string, reporterUserId: string) =>
    await db
      .select()
      .from(forumReports)
      .where(and(eq(forumReports.postId, postId), eq(forumReports.reporterUserId, reporterUserId)))
      .get(),
  reportById: async (db: Db, id: string) => await db.select().from(forumReports).where(eq(forumReports.id, id)).get(),
  insertReport: async (db: Db, row: typeof forumReports.$inferInsert) => void (await db.insert(forumReports).values(row).run()),
  resolveReport: async (db: Db, id: string, at: string, byName: string) =>
    void (await db.update(forumReports).set({ resolvedAt: at, resolvedByName: byName }).where(eq(forumReports.id, id)).run()),

  /** Open reports of a company, oldest first, with the thread's title and the post's author and text (one statement). */
  openReports: async (db: Db, companyId: string, after: [string, string] | undefined, limit: number) =>
    await db
      .select({
        report: forumReports,
        threadTitle: forumThreads.title,
        postAuthorName: forumPosts.authorName,
        postBody: forumPosts.body,
        postDeletedAt: forumPosts.deletedAt,
      })
      .from(forumReports)
      .innerJoin(forumThreads, eq(forumThreads.id, forumReports.threadId))
      .innerJoin(forumPosts, eq(forumPosts.id, forumReports.postId))
      .where(
        and(
          eq(forumReports.companyId, companyId),
          isNull(forumReports.resolvedAt),
          after ? or(gt(forumReports.createdAt, after[0]), and(eq(forumReports.createdAt, after[0]), gt(forumReports.id, after[1]))) : undefined,
        ),
      )
      .orderBy(asc(forumReports.createdAt), asc(forumReports.id))
      .limit(limit)
      .all(),

  audit: async (db: Db, row: typeof forumModerationEvents.$inferInsert) => void (await db.insert(forumModerationEvents).values(row).run()),

  /** Sync's snapshot of threads in id order. */
  threadSyncPage: async (db: Db, scope: ForumScope, afterId: string | null, limit: number) =>
    await db
      .select()
      .from(forumThreads)
      .where(and(threadsVisible(scope), afterId ? gt(forumThreads.id, afterId) : undefined))
      .orderBy(asc(forumThreads.id))
      .limit(limit)
      .all(),
  threadsByIds: async (db: Db, scope: ForumScope, ids: string[]) =>
    ids.length === 0 ?
      []
    : await db
        .select()
        .from(forumThreads)
        .where(and(inArray(forumThreads.id, ids), threadsVisible(scope)))
        .all(),

  /** Sync's snapshot of posts in id order. */
  postSyncPage: async (db: Db, scope: ForumScope, afterId: string | null, limit: number) =>
    await db
      .select()
      .from(forumPosts)
      .where(and(postsVisible(scope), afterId ? gt(forumPosts.id, afterId) : undefined))
      .orderBy(asc(forumPosts.id))
      .limit(limit)
      .all(),
  postsByIds: async (db: Db, scope: ForumScope, ids: string[]) =>
    ids.length === 0 ?
      []
    : await db
        .select()
        .from(forumPosts)
        .where(and(inArray(forumPosts.id, ids), postsVisible(scope)))
        .all(),
}
