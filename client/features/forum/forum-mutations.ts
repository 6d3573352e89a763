/**
 * The forum through the outbox (decision 0066): a new thread, a reply, and an author's edit or delete
 * of their post, also offline; the server's answered row replaces the local guess. Following,
 * moderation and reports need a connection (forum-api.ts).
 */
import { msg } from '@lingui/core/macro'
import type { CreateReplyRequest, CreateThreadRequest, ForumPost, ForumThread } from '../../../shared/contract/forum'
import type { Row } from '../../sync/local-db'
import { registerMutationKind } from '../../sync/mutation-kinds'
import { answerAsRow, reduce } from '../../sync/optimistic'
import type { SyncHandle } from '../../sync/use-sync'

export const THREAD_CREATE = 'forumThread.create'
export const POST_REPLY = 'forumPost.reply'
export const POST_EDIT = 'forumPost.edit'
export const POST_DELETE = 'forumPost.delete'

type Author = { id: string; fullName: string }

registerMutationKind(THREAD_CREATE, {
  reducer: reduce.insert((m) => {
    const body = m.body as CreateThreadRequest & { id: string; postId: string }
    const at = new Date(m.createdAt).toISOString()
    const row: Omit<ForumThread, 'version'> & { openingBody: string } = {
      id: body.id,
      companyId: body.companyId,
      title: body.title.trim(),
      author: m.preview as Author,
      pinned: false,
      locked: null,
      hidden: null,
      replyCount: 0,
      lastActivityAt: at,
      following: true,
      createdAt: at,
      updatedAt: at,
      // Shown as the opening post until the server's post arrives.
      openingBody: body.body,
    }
    return { ...row, _version: 0 } as Row
  }),
  label: msg`New forum thread`,
  failed: msg`Failed to start the thread`,
  answeredRow: answerAsRow,
})

registerMutationKind(POST_REPLY, {
  reducer: reduce.insert((m) => {
    const body = m.body as CreateReplyRequest & { id: string }
    const { author, threadId, companyId } = m.preview as { author: Author; threadId: string; companyId: string }
    const at = new Date(m.createdAt).toISOString()
    const row: Omit<ForumPost, 'version'> = {
      id: body.id,
      threadId,
      companyId,
      author,
      opening: false,
      body: body.body.trim(),
      editedAt: null,
      deleted: false,
      hidden: null,
      createdAt: at,
      updatedAt: at,
    }
    return { ...row, _version: 0 } as Row
  }),
  label: msg`Forum reply`,
  failed: msg`Failed to send the reply`,
  answeredRow: answerAsRow,
})

registerMutationKind(POST_EDIT, {
  reducer: reduce.patch((_row, m) => ({ body: (m.body as { body: string }).body.trim(), editedAt: new Date(m.createdAt).toISOString() })),
  label: msg`Edit forum post`,
  failed: msg`Failed to save the post`,
  answeredRow: answerAsRow,
})

registerMutationKind(POST_DELETE, {
  reducer: reduce.patch(() => ({ deleted: true, body: '' })),
  label: msg`Delete forum post`,
  failed: msg`Failed to delete the post`,
  answeredRow: answerAsRow,
})

/** POST /forum/threads with client-made ids, so a thread started offline keeps them. */
export const startThread = ({ engine }: SyncHandle, body: CreateThreadRequest & { id: string; postId: string }, author: Author) =>
  engine.mutate({ kind: THREAD_CREATE, method: 'POST', path: '/forum/threads', body, preview: author, entity: 'forumThread', entityId: body.id })

/** POST /forum/threads/{id}/posts with a client-made id. */
export const sendReply = ({ engine }: SyncHandle, thread: { id: string; companyId: string }, body: { id: string; body: string }, author: Author) =>
  engine.mutate({
    kind: POST_REPLY,
    method: 'POST',
    path: `/forum/threads/${thread.id}/posts`,
    body,
    preview: { author, threadId: thread.id, companyId: thread.companyId },
    entity: 'forumPost',
    entityId: body.id,
  })

export const editPost = ({ engine }: SyncHandle, post: { id: string; _version: number }, body: string) =>
  engine.mutate({
    kind: POST_EDIT,
    method: 'PATCH',
    path: `/forum/posts/${post.id}`,
    body: { body },
    entity: 'forumPost',
    entityId: post.id,
    baseVersion: post._version,
  })

export const deletePost = ({ engine }: SyncHandle, post: { id: string; _version: number }) =>
  engine.mutate({ kind: POST_DELETE, method: 'DELETE', path: `/forum/posts/${post.id}`, entity: 'forumPost', entityId: post.id, baseVersion: post._version })
