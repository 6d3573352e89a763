import { describe, expect, it } from 'vitest'
import { LocalDb, type Mutation } from '../../sync/local-db'
import { applyOutbox } from '../../sync/optimistic'
import { POST_DELETE, POST_REPLY, THREAD_CREATE } from './forum-mutations'
import { isUnread, postOrder, threadOrder, type PostView, type ThreadView } from './use-forum'

const queued = (m: Partial<Mutation> & Pick<Mutation, 'kind' | 'entity' | 'entityId'>): Mutation =>
  ({
    mutationId: crypto.randomUUID(),
    method: 'POST',
    path: '/',
    status: 'pending',
    attempts: 0,
    nextAttemptAt: 0,
    createdAt: Date.parse('2026-11-25T10:00:00Z'),
    ...m,
  }) as Mutation

describe('forum changes in the outbox', () => {
  it('shows a queued thread with its opening text, and a queued reply under its thread, marked pending', () => {
    const author = { id: 'u1', fullName: 'Ida Christensen' }
    const threads = applyOutbox(
      [],
      [
        queued({
          kind: THREAD_CREATE,
          entity: 'forumThread',
          entityId: 't1',
          body: { id: 't1', postId: 'p1', companyId: 'c1', title: ' Nøglen ', body: 'Hvem har den?' },
          preview: author,
        }),
      ],
      'forumThread',
    )
    expect(threads).toEqual([
      expect.objectContaining({ id: 't1', title: 'Nøglen', openingBody: 'Hvem har den?', author, replyCount: 0, following: true, _pending: true }),
    ])
    const posts = applyOutbox(
      [{ id: 'p0', threadId: 't1', body: 'old', deleted: false, _version: 1 }],
      [
        queued({
          kind: POST_REPLY,
          entity: 'forumPost',
          entityId: 'p2',
          body: { id: 'p2', body: 'Viceværten.' },
          preview: { author, threadId: 't1', companyId: 'c1' },
        }),
        queued({ kind: POST_DELETE, method: 'DELETE', entity: 'forumPost', entityId: 'p0' }),
      ],
      'forumPost',
    )
    expect(posts).toEqual([
      expect.objectContaining({ id: 'p0', deleted: true, body: '', _pending: true }),
      expect.objectContaining({ id: 'p2', threadId: 't1', opening: false, body: 'Viceværten.', author, _pending: true }),
    ])
  })

  it('orders threads pinned first, then by last activity; posts oldest first with the opening post first', () => {
    const t = (id: string, pinned: boolean, lastActivityAt: string) => ({ id, pinned, lastActivityAt, _version: 1 }) as ThreadView
    expect([t('a', false, '2026-01-02'), t('b', true, '2026-01-01'), t('c', false, '2026-01-03')].sort(threadOrder).map((x) => x.id)).toEqual(['b', 'c', 'a'])
    const p = (id: string, opening: boolean, createdAt: string) => ({ id, opening, createdAt, _version: 1 }) as PostView
    expect([p('r2', false, '2026-01-03'), p('r1', false, '2026-01-02'), p('o', true, '2026-01-02')].sort(postOrder).map((x) => x.id)).toEqual(['o', 'r1', 'r2'])
  })

  it('keeps drafts in the device database (version 9) per thread', async () => {
    const db = new LocalDb(`forum-test-${crypto.randomUUID()}`)
    await db.forumDrafts.put({ key: 'reply:t1', body: 'Tak!', updatedAt: 1 })
    await db.forumDrafts.put({ key: 'thread:c1', title: 'Grill', body: 'Må vi?', updatedAt: 2 })
    expect((await db.forumDrafts.get('reply:t1'))?.body).toBe('Tak!')
    expect((await db.forumDrafts.get('thread:c1'))?.title).toBe('Grill')
    expect(await db.forumDrafts.get('reply:t2')).toBeUndefined()
    db.close()
  })
})

describe('the "New" marker', () => {
  it('is set while the thread has activity this device has not shown, never on a queued thread', () => {
    const thread = { id: 't', lastActivityAt: '2026-11-25T10:00:00.000Z', _version: 1 } as ThreadView
    expect(isUnread(thread, undefined)).toBe(true)
    expect(isUnread(thread, '2026-11-25T09:00:00.000Z')).toBe(true)
    expect(isUnread(thread, '2026-11-25T10:00:00.000Z')).toBe(false)
    expect(isUnread({ ...thread, _pending: true }, undefined)).toBe(false)
  })
})
