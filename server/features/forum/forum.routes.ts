import { createRoute, z } from '@hono/zod-openapi'
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
import { bearer, errorResponses as e, json, jsonBody, router, versionedWriteHeaders, writeHeaders } from '../../http/openapi'
import { nextLinkHeader, setNextLink } from '../../http/paging'
import { ifMatchVersion, setETag } from '../../http/versioning'
import { requireActor } from '../access/actor'
import type { ForumService } from './forum.service'

const tags = ['Forum']
const IdParam = z.object({ id: z.uuid() })
const thread = (description: string) => ({ description: `${description} (ETag: its version)`, ...json(ForumThread) })
const post = (description: string) => ({ description: `${description} (ETag: its version)`, ...json(ForumPost) })
const WHO =
  'Members of the association read its forum: its staff (every role) and its residents with a living agreement; the super admin reads all. ' +
  'Another association’s thread is 404, and so is a hidden one for members who do not moderate.'

const list = createRoute({
  method: 'get',
  path: '/forum/threads',
  tags,
  security: bearer,
  summary: "A company's forum threads: pinned first, then the latest activity first",
  description: `${WHO} A page of at most \`limit\` (1–200, default 200); the next page is in the \`Link\` header.`,
  request: { query: ThreadListQuery },
  responses: { 200: { description: 'A page of threads', headers: nextLinkHeader, ...json(z.array(ForumThread)) }, 400: e[400], 401: e[401], 404: e[404] },
})
const create = createRoute({
  method: 'post',
  path: '/forum/threads',
  tags,
  security: bearer,
  summary:
    'Start a thread with its opening post (a member of the association; client-made `id` and `postId` make a retried create one thread). The body is sanitized HTML. At most 30 threads and replies an hour per user.',
  request: { headers: writeHeaders, ...jsonBody(CreateThreadRequest) },
  responses: { 201: thread('The thread'), 400: e[400], 401: e[401], 403: e[403], 404: e[404], 409: e[409], 422: e[422], 429: e[429] },
})
const getOne = createRoute({
  method: 'get',
  path: '/forum/threads/{id}',
  tags,
  security: bearer,
  summary: 'A thread',
  description: WHO,
  request: { params: IdParam },
  responses: { 200: thread('The thread'), 401: e[401], 404: e[404] },
})
const posts = createRoute({
  method: 'get',
  path: '/forum/threads/{id}/posts',
  tags,
  security: bearer,
  summary: "A thread's posts, oldest first (the opening post first); hidden ones for moderators only, a deleted one without its text",
  description: `${WHO} A page of at most \`limit\`; the next page is in the \`Link\` header.`,
  request: { params: IdParam, query: PostListQuery },
  responses: { 200: { description: 'A page of posts', headers: nextLinkHeader, ...json(z.array(ForumPost)) }, 400: e[400], 401: e[401], 404: e[404] },
})
const reply = createRoute({
  method: 'post',
  path: '/forum/threads/{id}/posts',
  tags,
  security: bearer,
  summary:
    'Reply (a member; a client-made `id` makes a retried reply one post). 422 when the thread is locked. The thread’s followers but the replier are told in-app and by e-mail.',
  request: { params: IdParam, headers: writeHeaders, ...jsonBody(CreateReplyRequest) },
  responses: { 201: post('The reply'), 400: e[400], 401: e[401], 403: e[403], 404: e[404], 409: e[409], 422: e[422], 429: e[429] },
})
const follow = createRoute({
  method: 'put',
  path: '/forum/threads/{id}/follow',
  tags,
  security: bearer,
  summary: 'Follow a thread: be told about its new replies (a member)',
  request: { params: IdParam, headers: writeHeaders },
  responses: { 200: thread('The thread'), 401: e[401], 403: e[403], 404: e[404] },
})
const unfollow = createRoute({
  method: 'delete',
  path: '/forum/threads/{id}/follow',
  tags,
  security: bearer,
  summary: 'Unfollow a thread: no more notices about its replies (posting again follows it again)',
  request: { params: IdParam, headers: writeHeaders },
  responses: { 200: thread('The thread'), 401: e[401], 403: e[403], 404: e[404] },
})
const moderateThread = createRoute({
  method: 'post',
  path: '/forum/threads/{id}/moderation',
  tags,
  security: bearer,
  summary: 'Hide, unhide, lock, unlock, pin or unpin a thread (the association’s staff, the board included); audited with an optional reason',
  request: { params: IdParam, headers: writeHeaders, ...jsonBody(ThreadModerationRequest) },
  responses: { 200: thread('The thread'), 400: e[400], 401: e[401], 403: e[403], 404: e[404] },
})
const editPost = createRoute({
  method: 'patch',
  path: '/forum/posts/{id}',
  tags,
  security: bearer,
  summary: 'Edit a post (its author; If-Match). Not on a locked thread, not once deleted.',
  request: { params: IdParam, headers: versionedWriteHeaders, ...jsonBody(UpdatePostRequest) },
  responses: { 200: post('The post'), 400: e[400], 401: e[401], 403: e[403], 404: e[404], 412: e[412], 422: e[422] },
})
const deletePost = createRoute({
  method: 'delete',
  path: '/forum/posts/{id}',
  tags,
  security: bearer,
  summary: 'Delete a post (its author): it stays in the thread marked deleted, without its text',
  request: { params: IdParam, headers: versionedWriteHeaders },
  responses: { 200: post('The post'), 401: e[401], 403: e[403], 404: e[404], 412: e[412] },
})
const moderatePost = createRoute({
  method: 'post',
  path: '/forum/posts/{id}/moderation',
  tags,
  security: bearer,
  summary: 'Hide or unhide a post (the association’s staff); audited with an optional reason',
  request: { params: IdParam, headers: writeHeaders, ...jsonBody(PostModerationRequest) },
  responses: { 200: post('The post'), 400: e[400], 401: e[401], 403: e[403], 404: e[404] },
})
const report = createRoute({
  method: 'post',
  path: '/forum/posts/{id}/report',
  tags,
  security: bearer,
  summary: 'Report a post (a member; once per post, not one’s own): the moderators are told in-app',
  request: { params: IdParam, headers: writeHeaders, ...jsonBody(ReportPostRequest) },
  responses: { 202: { description: 'Reported' }, 400: e[400], 401: e[401], 403: e[403], 404: e[404], 409: e[409], 422: e[422] },
})
const reports = createRoute({
  method: 'get',
  path: '/forum/reports',
  tags,
  security: bearer,
  summary: "A company's open reports, oldest first (its staff; residents 403, another association 404)",
  request: { query: ReportListQuery },
  responses: {
    200: { description: 'A page of reports', headers: nextLinkHeader, ...json(z.array(ForumReport)) },
    400: e[400],
    401: e[401],
    403: e[403],
    404: e[404],
  },
})
const resolve = createRoute({
  method: 'post',
  path: '/forum/reports/{id}/resolve',
  tags,
  security: bearer,
  summary: 'Mark a report handled (the association’s staff); audited',
  request: { params: IdParam, headers: writeHeaders },
  responses: { 204: { description: 'Resolved' }, 401: e[401], 403: e[403], 404: e[404] },
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
