import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { ApiError } from '../../lib/api'
import { SyncEngine } from '../../sync/engine'
import { deleteLocalDb, LocalDb, type Mutation } from '../../sync/local-db'
import type { SyncTransport } from '../../sync/transport'
import { onLeavingPage } from './drafts'
import { openReports } from './forum-api'
import { editPost, sendReply } from './forum-mutations'
import { settleChange, type OutcomeWords } from './outcome'
import { postProblemsOf } from './use-forum'

const json = (status: number, body?: unknown, headers: Record<string, string> = {}) =>
  new Response(body === undefined ? null : JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json', ...headers } })

/** A server answering every write with `write()`, and the pull with nothing new. */
const serverAnswering = (write: () => Response): SyncTransport => ({
  getToken: () => 't',
  getLocale: () => 'en',
  fetch: (async (_url: string, init: RequestInit) =>
    init.method === 'GET' ? json(200, { changes: [], cursor: 'c', hasMore: false, reset: false }) : write()) as typeof fetch,
})

const words: OutcomeWords = { queued: () => 'queued', refusal: () => null, refused: 'refused' }
const author = { id: 'u1', fullName: 'Ida Christensen' }

let db: LocalDb
let userId: string
let engine: SyncEngine | undefined
beforeEach(() => {
  userId = crypto.randomUUID()
  db = new LocalDb(userId)
})
afterEach(async () => {
  await engine?.stop()
  engine = undefined
  db.close()
  await deleteLocalDb(userId)
})

describe('a refused forum change', () => {
  it('a refused reply is taken back from the outbox and its reason handed to the form, which keeps the text', async () => {
    engine = new SyncEngine(
      db,
      serverAnswering(() => json(422, { message: 'This thread is locked: no new replies.' })),
    )
    const queued = await sendReply({ db, engine, userId }, { id: 't1', companyId: 'c1' }, { id: 'p1', body: 'Hej' }, author)
    const refused = vi.fn()
    expect(await settleChange({ db, engine }, queued, { done: 'posted' }, refused, words, () => true)).toBe(false)
    expect(refused).toHaveBeenCalledWith('This thread is locked: no new replies.')
    expect(await db.outbox.count()).toBe(0)
  })

  it('an edit that met a newer version says so in its own words and is withdrawn', async () => {
    engine = new SyncEngine(
      db,
      serverAnswering(() => json(412, { code: 'VERSION_CONFLICT', message: 'Someone else changed this in the meantime.', current: {} })),
    )
    await db.forumPosts.put({ id: 'p1', threadId: 't1', body: 'old', _version: 1 } as never)
    const queued = await editPost({ db, engine, userId }, { id: 'p1', _version: 1 }, 'new')
    const refused = vi.fn()
    const kept = await settleChange({ db, engine }, queued, { done: 'saved', conflict: 'changed meanwhile' }, refused, words, () => true)
    expect(kept).toBe(false)
    expect(refused).toHaveBeenCalledWith('changed meanwhile')
    expect(await db.outbox.count()).toBe(0)
  })

  it('an accepted reply keeps nothing back', async () => {
    engine = new SyncEngine(
      db,
      serverAnswering(() => json(201, { id: 'p1' })),
    )
    const queued = await sendReply({ db, engine, userId }, { id: 't1', companyId: 'c1' }, { id: 'p1', body: 'Hej' }, author)
    const refused = vi.fn()
    expect(await settleChange({ db, engine }, queued, { done: 'posted' }, refused, words, () => true)).toBe(true)
    expect(refused).not.toHaveBeenCalled()
  })

  it("lists the refused and conflicting changes of a thread's posts, and only those", async () => {
    await db.forumPosts.bulkPut([{ id: 'p1', threadId: 't1' } as never, { id: 'p9', threadId: 't9' } as never])
    const row = (m: Partial<Mutation>) =>
      ({
        mutationId: crypto.randomUUID(),
        kind: 'x',
        method: 'POST',
        entity: 'forumPost',
        status: 'queued',
        attempts: 0,
        nextAttemptAt: 0,
        createdAt: 0,
        ...m,
      }) as Mutation
    await db.outbox.bulkAdd([
      row({ path: '/forum/threads/t1/posts', entityId: 'p2', status: 'rejected' }),
      row({ path: '/forum/posts/p1', entityId: 'p1', status: 'conflict', method: 'PATCH' }),
      row({ path: '/forum/threads/t1/posts', entityId: 'p3', status: 'queued' }),
      row({ path: '/forum/posts/p9', entityId: 'p9', status: 'rejected', method: 'PATCH' }),
      row({ path: '/forum/threads/t9/posts', entityId: 'p4', status: 'rejected' }),
    ])
    expect((await postProblemsOf(db, 't1')).map((m) => m.entityId).sort()).toEqual(['p1', 'p2'])
  })
})

describe('drafts', () => {
  it('are saved when the page is hidden or left, not while it is shown, and no longer after unsubscribing', () => {
    const win = new EventTarget()
    const doc = Object.assign(new EventTarget(), { visibilityState: 'visible' as DocumentVisibilityState })
    const flush = vi.fn()
    const stop = onLeavingPage(win, doc, flush)
    doc.dispatchEvent(new Event('visibilitychange'))
    expect(flush).not.toHaveBeenCalled()
    doc.visibilityState = 'hidden'
    doc.dispatchEvent(new Event('visibilitychange'))
    win.dispatchEvent(new Event('pagehide'))
    expect(flush).toHaveBeenCalledTimes(2)
    stop()
    win.dispatchEvent(new Event('pagehide'))
    expect(flush).toHaveBeenCalledTimes(2)
  })
})

describe('the reports list', () => {
  const report = (id: string) => ({
    id,
    postId: crypto.randomUUID(),
    postExcerpt: 'Hvem holder på min plads?',
    threadId: crypto.randomUUID(),
    threadTitle: 'Parkering',
    postAuthorName: 'Lars',
    reporterName: 'Sofie',
    reason: 'Udhængning',
    createdAt: '2026-11-25T10:00:00.000Z',
    resolvedAt: null,
    resolvedByName: null,
  })

  it('reads the next page from the Link header and asks for it with its cursor', async () => {
    const asked: string[] = []
    const transport: SyncTransport = {
      getToken: () => 't',
      getLocale: () => 'da',
      fetch: (async (url: string) => {
        asked.push(url)
        return url.includes('cursor=') ?
            json(200, [report(crypto.randomUUID())])
          : json(200, [report(crypto.randomUUID())], { Link: '</api/forum/reports?companyId=c1&cursor=abc>; rel="next"' })
      }) as typeof fetch,
    }
    const first = await openReports('c1', undefined, transport)
    expect(first.items).toHaveLength(1)
    expect(first.next).toBe('abc')
    const second = await openReports('c1', first.next, transport)
    expect(second.next).toBeUndefined()
    expect(asked).toEqual(['/api/forum/reports?companyId=c1', '/api/forum/reports?companyId=c1&cursor=abc'])
  })

  it("says the server's refusal, and status 0 without a connection", async () => {
    const refusing: SyncTransport = {
      getToken: () => 't',
      getLocale: () => 'en',
      fetch: (async () => json(403, { code: 'FORBIDDEN', message: 'No' })) as typeof fetch,
    }
    await expect(openReports('c1', undefined, refusing)).rejects.toMatchObject({ status: 403, message: 'No' })
    const offline: SyncTransport = { ...refusing, fetch: (async () => Promise.reject(new TypeError('offline'))) as typeof fetch }
    const error = await openReports('c1', undefined, offline).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ApiError)
    expect((error as ApiError).status).toBe(0)
  })
})
