import {
  CreateReplyRequest,
  CreateThreadRequest,
  ForumPost,
  ForumReport,
  ForumThread,
  PostListQuery,
  PostModerationRequest,
  ReportListQuery,
  ReportPostRequest,
  ThreadListQuery,
  ThreadModerationRequest,
  UpdatePostRequest,
} from '../../../shared/contract/forum'
import { IdParam, itemRoutes, PAGED } from '../../http/item-routes'
import { jsonBody, router, versionedWriteHeaders, writeHeaders } from '../../http/openapi'
import { setNextLink } from '../../http/paging'
import { ifMatchVersion, setETag } from '../../http/versioning'
import { requireActor } from '../../access/actor'
import type { ForumService } from './forum.service'

const tags = ['Forum']
const onThreads = itemRoutes({ tags, entity: ForumThread, name: 'thread', scope: 'forumThread' })
const onPosts = itemRoutes({ tags, entity: ForumPost, name: 'post', scope: 'forumPost' })
const WHO =
  'Members of the association read its forum: its staff (every role) and its residents with a living agreement; the super admin reads all. ' +
  'Another association’s thread is 404, and so is a hidden one for members who do not moderate.'

const list = onThreads.page('/forum/threads', {
  summary: "A company's forum threads: pinned first, then the latest activity first",
  description: `${WHO} ${PAGED}`,
  query: ThreadListQuery,
})
const create = onThreads.create('/forum/threads', {
  scope: { of: 'association', in: 'body', param: 'companyId', act: 'forum:write' },
  summary:
    'Start a thread with its opening post (a member of the association; client-made `id` and `postId` make a retried create one thread). The body is sanitized HTML. At most 30 threads and replies an hour per user.',
  body: CreateThreadRequest,
  errors: [400, 401, 403, 404, 409, 422, 429],
})
const getOne = onThreads.read('/forum/threads/{id}', { summary: 'A thread', description: WHO })
const posts = onPosts.page('/forum/threads/{id}/posts', {
  summary: "A thread's posts, oldest first (the opening post first); hidden ones for moderators only, a deleted one without its text",
  description: `${WHO} A page of at most \`limit\`; the next page is in the \`Link\` header.`,
  params: IdParam,
  query: PostListQuery,
})
const reply = onPosts.route({
  rules: { access: 'signed-in', data: 'write', scope: { of: 'forumThread', act: 'forum:reply' } },
  method: 'post',
  path: '/forum/threads/{id}/posts',
  summary:
    'Reply (a member; a client-made `id` makes a retried reply one post). 422 when the thread is locked. The thread’s followers but the replier are told in-app and by e-mail.',
  request: { params: IdParam, headers: writeHeaders, ...jsonBody(CreateReplyRequest) },
  ok: { 201: onPosts.one('The reply') },
  errors: [400, 401, 403, 404, 409, 422, 429],
})
/** Following a thread, or no longer (a PUT and a DELETE of the same path). */
const following = <const M extends 'put' | 'delete'>(method: M, summary: string) =>
  onThreads.route({
    rules: { access: 'signed-in', data: 'write', scope: { of: 'forumThread' } },
    method,
    path: '/forum/threads/{id}/follow',
    summary,
    request: { params: IdParam, headers: writeHeaders },
    ok: { 200: onThreads.one() },
    errors: [401, 403, 404],
  })
const follow = following('put', 'Follow a thread: be told about its new replies (a member)')
const unfollow = following('delete', 'Unfollow a thread: no more notices about its replies (posting again follows it again)')
const moderateThread = onThreads.route({
  rules: { access: 'signed-in', data: 'write', scope: { of: 'forumThread', act: 'forum:moderateThread' } },
  method: 'post',
  path: '/forum/threads/{id}/moderation',
  summary: 'Hide, unhide, lock, unlock, pin or unpin a thread (the association’s staff, the board included); audited with an optional reason',
  request: { params: IdParam, headers: writeHeaders, ...jsonBody(ThreadModerationRequest) },
  ok: { 200: onThreads.one() },
  errors: [400, 401, 403, 404],
})
const editPost = onPosts.route({
  rules: { access: 'signed-in', data: 'write', scope: { of: 'forumPost', act: 'forum:author' } },
  method: 'patch',
  path: '/forum/posts/{id}',
  summary: 'Edit a post (its author; If-Match). Not on a locked thread, not once deleted.',
  request: { params: IdParam, headers: versionedWriteHeaders, ...jsonBody(UpdatePostRequest) },
  ok: { 200: onPosts.one() },
  errors: [400, 401, 403, 404, 412, 422],
})
const deletePost = onPosts.route({
  rules: { access: 'signed-in', data: 'write', scope: { of: 'forumPost', act: 'forum:author' } },
  method: 'delete',
  path: '/forum/posts/{id}',
  summary: 'Delete a post (its author): it stays in the thread marked deleted, without its text',
  request: { params: IdParam, headers: versionedWriteHeaders },
  ok: { 200: onPosts.one() },
  errors: [401, 403, 404, 412],
})
const moderatePost = onPosts.route({
  rules: { access: 'signed-in', data: 'write', scope: { of: 'forumPost', act: 'forum:moderatePost' } },
  method: 'post',
  path: '/forum/posts/{id}/moderation',
  summary: 'Hide or unhide a post (the association’s staff); audited with an optional reason',
  request: { params: IdParam, headers: writeHeaders, ...jsonBody(PostModerationRequest) },
  ok: { 200: onPosts.one() },
  errors: [400, 401, 403, 404],
})
const report = onPosts.route({
  rules: { access: 'signed-in', data: 'write', scope: { of: 'forumPost', act: 'forum:report' } },
  method: 'post',
  path: '/forum/posts/{id}/report',
  summary: 'Report a post (a member; once per post, not one’s own): the moderators are told in-app',
  request: { params: IdParam, headers: writeHeaders, ...jsonBody(ReportPostRequest) },
  ok: { 202: { description: 'Reported' } },
  errors: [400, 401, 403, 404, 409, 422],
})
const reports = onThreads.page('/forum/reports', {
  summary: "A company's open reports, oldest first (its staff; residents 403, another association 404)",
  query: ReportListQuery,
  items: ForumReport,
  of: 'reports',
  errors: [400, 401, 403, 404],
})
const resolve = onThreads.route({
  rules: { access: 'signed-in', data: 'write' },
  method: 'post',
  path: '/forum/reports/{id}/resolve',
  summary: 'Mark a report handled (the association’s staff); audited',
  request: { params: IdParam, headers: writeHeaders },
  ok: { 204: { description: 'Resolved' } },
  errors: [401, 403, 404],
})

/**
 * The forum's routes. Posting is limited (30 threads and replies an hour per user) inside the
 * service, counted from the stored posts in the write's transaction: a write PostgreSQL runs again
 * after a serialization failure counts once (an in-memory limiter here would count each run).
 */
export const forumRoutes = (forum: ForumService) =>
  router()
    .openapi(list, async (c) => {
      const page = await forum.list(requireActor(c.var.actor), c.req.valid('query'))
      setNextLink(c, page.next)
      return c.json(page.items, 200)
    })
    .openapi(create, async (c) => {
      const actor = requireActor(c.var.actor)
      const found = await forum.createThread(actor, c.req.valid('json'))
      setETag(c, found.version)
      return c.json(found, 201)
    })
    .openapi(getOne, async (c) => {
      const found = await forum.thread(requireActor(c.var.actor), c.req.valid('param').id)
      setETag(c, found.version)
      return c.json(found, 200)
    })
    .openapi(posts, async (c) => {
      const page = await forum.posts(requireActor(c.var.actor), c.req.valid('param').id, c.req.valid('query'))
      setNextLink(c, page.next)
      return c.json(page.items, 200)
    })
    .openapi(reply, async (c) => {
      const actor = requireActor(c.var.actor)
      const found = await forum.reply(actor, c.req.valid('param').id, c.req.valid('json'))
      setETag(c, found.version)
      return c.json(found, 201)
    })
    .openapi(follow, async (c) => c.json(await forum.follow(requireActor(c.var.actor), c.req.valid('param').id, true), 200))
    .openapi(unfollow, async (c) => c.json(await forum.follow(requireActor(c.var.actor), c.req.valid('param').id, false), 200))
    .openapi(moderateThread, async (c) => c.json(await forum.moderateThread(requireActor(c.var.actor), c.req.valid('param').id, c.req.valid('json')), 200))
    .openapi(editPost, async (c) => {
      const found = await forum.editPost(requireActor(c.var.actor), c.req.valid('param').id, c.req.valid('json'), ifMatchVersion(c))
      setETag(c, found.version)
      return c.json(found, 200)
    })
    .openapi(deletePost, async (c) => {
      const found = await forum.deletePost(requireActor(c.var.actor), c.req.valid('param').id, ifMatchVersion(c))
      setETag(c, found.version)
      return c.json(found, 200)
    })
    .openapi(moderatePost, async (c) => c.json(await forum.moderatePost(requireActor(c.var.actor), c.req.valid('param').id, c.req.valid('json')), 200))
    .openapi(report, async (c) => {
      await forum.report(requireActor(c.var.actor), c.req.valid('param').id, c.req.valid('json'))
      return c.body(null, 202)
    })
    .openapi(reports, async (c) => {
      const page = await forum.reports(requireActor(c.var.actor), c.req.valid('query'))
      setNextLink(c, page.next)
      return c.json(page.items, 200)
    })
    .openapi(resolve, async (c) => {
      await forum.resolveReport(requireActor(c.var.actor), c.req.valid('param').id)
      return c.body(null, 204)
    })
