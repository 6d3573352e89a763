/** The forum from the local copy with queued changes applied, live (it reads offline). */
import type { ForumPost, ForumThread } from '../../../shared/contract/forum'
import type { LocalDb, Mutation, Row } from '../../sync/local-db'
import type { ViewRow } from '../../sync/optimistic'
import { pendingOf, viewWithOutbox } from '../../sync/queue-reads'
import { sharedQuery, useSharedQuery } from '../../sync/shared-query'
import { useRecord } from '../../sync/use-record'
import { isProblem, type SyncHandle } from '../../sync/use-sync'
import './forum-mutations'

export type ThreadView = Partial<ForumThread> & ViewRow & { openingBody?: string; unread?: boolean }
export type PostView = Partial<ForumPost> & ViewRow

/** Pinned first, then the latest activity first (the server's order). */
export const threadOrder = (a: ThreadView, b: ThreadView) =>
  Number(b.pinned ?? false) - Number(a.pinned ?? false) || (b.lastActivityAt ?? '').localeCompare(a.lastActivityAt ?? '') || b.id.localeCompare(a.id)

/** Oldest first, the opening post first. */
export const postOrder = (a: PostView, b: PostView) =>
  Number(b.opening ?? false) - Number(a.opening ?? false) || (a.createdAt ?? '').localeCompare(b.createdAt ?? '') || a.id.localeCompare(b.id)

/** "New": activity since this device last showed the thread (never for a thread still on its way). */
export const isUnread = (thread: ThreadView, seen: string | undefined) =>
  !thread._pending && !!thread.lastActivityAt && (seen === undefined || seen < thread.lastActivityAt)

const threadsQuery = sharedQuery<ThreadView[]>('forum:threads', ['forumThreads', 'outbox', 'forumSeen'], async (db: LocalDb) => {
  const rows: Row[] = await db.forumThreads.toArray()
  const seen = new Map((await db.forumSeen.toArray()).map((s) => [s.threadId, s.lastActivityAt]))
  return ((await viewWithOutbox(db, 'forumThread', rows)) as ThreadView[]).map((t) => ({ ...t, unread: isUnread(t, seen.get(t.id)) })).sort(threadOrder)
})

/** Remembers that the thread was shown up to its last activity. */
export const markSeen = async (db: LocalDb, thread: ThreadView) => {
  if (!thread._pending && thread.lastActivityAt) await db.forumSeen.put({ threadId: thread.id, lastActivityAt: thread.lastActivityAt })
}

/** Every thread of the user's associations the sync sends them; undefined while IndexedDB opens. */
export const useThreads = (handle: SyncHandle | null): ThreadView[] | undefined => useSharedQuery(handle?.db, threadsQuery)

export const useThread = (handle: SyncHandle | null, id: string) => useRecord<ForumThread & { openingBody?: string }>(handle, 'forumThread', id)

const postsQueries = new Map<string, ReturnType<typeof sharedQuery<PostView[]>>>()
const postsQueryOf = (threadId: string) => {
  let query = postsQueries.get(threadId)
  if (!query) {
    query = sharedQuery<PostView[]>(`forum:posts:${threadId}`, ['forumPosts', 'outbox'], async (db: LocalDb) => {
      const rows: Row[] = await db.forumPosts.where('threadId').equals(threadId).toArray()
      const view = (await viewWithOutbox(db, 'forumPost', rows)) as PostView[]
      return view.filter((p) => p.threadId === threadId).sort(postOrder)
    })
    postsQueries.set(threadId, query)
  }
  return query
}

/** A thread's posts, oldest first (the opening post first). */
export const usePosts = (handle: SyncHandle | null, threadId: string): PostView[] | undefined => useSharedQuery(handle?.db, postsQueryOf(threadId))

/**
 * The changes to a thread's posts the server refused or that met a newer version (a reply, an
 * edit, a delete), oldest first: shown on the thread with what the user can do (ChangeProblem).
 */
export async function postProblemsOf(db: LocalDb, threadId: string): Promise<Mutation[]> {
  const problems = (await pendingOf(db, 'forumPost')).filter(isProblem)
  if (!problems.length) return []
  const ids = new Set((await db.forumPosts.where('threadId').equals(threadId).primaryKeys()) as string[])
  const replies = `/forum/threads/${threadId}/posts`
  return problems.filter((m) => m.path === replies || (m.entityId !== null && ids.has(m.entityId)))
}

const problemQueries = new Map<string, ReturnType<typeof sharedQuery<Mutation[]>>>()
export const usePostProblems = (handle: SyncHandle | null, threadId: string): Mutation[] | undefined => {
  let query = problemQueries.get(threadId)
  if (!query) {
    query = sharedQuery<Mutation[]>(`forum:post-problems:${threadId}`, ['forumPosts', 'outbox'], (db: LocalDb) => postProblemsOf(db, threadId))
    problemQueries.set(threadId, query)
  }
  return useSharedQuery(handle?.db, query)
}
