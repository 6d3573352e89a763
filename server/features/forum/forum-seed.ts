import type { Db } from '../../db/client'
import { forumFollows, forumPosts, forumThreads } from '../../db/schema/forum'
import { newId } from '../../lib/ids'

/**
 * The demo forum (server/db/seed.ts): one Solgården thread with two replies, written by residents
 * and the board. Its authors follow it, as posting does.
 */
export async function seedDemoForum(db: Db, companyId: string, people: { author: string; replies: [string, string] }, names: Map<string, string>, now: Date) {
  const at = (minutesAgo: number) => new Date(now.getTime() - minutesAgo * 60_000).toISOString()
  const threadId = newId()
  const posts = [
    {
      userId: people.author,
      opening: 1,
      minutesAgo: 3 * 24 * 60,
      body: '<p>Skal vi lave en fælles oprydning i cykelkælderen i maj? Der står mange cykler uden ejer.</p>',
    },
    { userId: people.replies[0], opening: 0, minutesAgo: 2 * 24 * 60, body: '<p>God idé! Jeg kan hjælpe en lørdag formiddag.</p>' },
    {
      userId: people.replies[1],
      opening: 0,
      minutesAgo: 24 * 60,
      body: '<p>Bestyrelsen sætter sedler på cyklerne to uger før, så ejerne kan nå at flytte dem.</p>',
    },
  ]
  await db
    .insert(forumThreads)
    .values({
      id: threadId,
      companyId,
      authorUserId: people.author,
      authorName: names.get(people.author) ?? '',
      title: 'Fælles cykeloprydning i maj?',
      replyCount: 2,
      lastActivityAt: at(24 * 60),
      createdAt: at(3 * 24 * 60),
      updatedAt: at(24 * 60),
    })
    .run()
  await db
    .insert(forumPosts)
    .values(
      posts.map((p) => ({
        id: newId(),
        threadId,
        companyId,
        authorUserId: p.userId,
        authorName: names.get(p.userId) ?? '',
        opening: p.opening,
        body: p.body,
        createdAt: at(p.minutesAgo),
        updatedAt: at(p.minutesAgo),
      })),
    )
    .run()
  await db
    .insert(forumFollows)
    .values([...new Set(posts.map((p) => p.userId))].map((userId) => ({ threadId, userId, following: 1, createdAt: at(3 * 24 * 60) })))
    .run()
}
