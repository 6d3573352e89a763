import { snapshot, type Db } from '../../db/client'
import { conflict, DomainError, forbidden, notFound, rateLimited, ruleViolation, validation, versionConflict } from '../../errors'
import { decodeCursor, pageOf } from '../../http/paging'
import { isoNow, type Clock } from '../../lib/clock'
import { newId } from '../../lib/ids'
import { sanitizeHtml } from '../../lib/sanitize-html'
import type {
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
import { messages as m } from '../../../shared/i18n-messages'
import type { Actor } from '../../access/actor'
import { assertCompanyInScope } from '../companies'
import { isSuperAdmin, roleIn } from '../../access/policy'
import type { CompaniesService } from '../companies'
import type { Residency } from '../agreements'
import type { NotificationsService } from '../notifications'
import type { Addressee, NoticesService } from '../notifications'
import { recordChange } from '../sync'
import type { SyncedEntity } from '../sync'
import { forumRepository as repo, type ForumScope, type PostRow, type ThreadRow } from './forum.repository'

const threadView = (r: ThreadRow, following: boolean): ForumThread => ({
  id: r.id,
  companyId: r.companyId,
  title: r.title,
  author: { id: r.authorUserId, fullName: r.authorName },
  pinned: r.pinned === 1,
  locked: r.lockedAt ? { at: r.lockedAt, byName: r.lockedByName ?? '' } : null,
  hidden: r.hiddenAt ? { at: r.hiddenAt, byName: r.hiddenByName ?? '', reason: r.hiddenReason } : null,
  replyCount: r.replyCount,
  lastActivityAt: r.lastActivityAt,
  following,
  createdAt: r.createdAt,
  updatedAt: r.updatedAt,
  version: r.version,
})

const postView = (r: PostRow): ForumPost => ({
  id: r.id,
  threadId: r.threadId,
  companyId: r.companyId,
  author: { id: r.authorUserId, fullName: r.authorName },
  opening: r.opening === 1,
  body: r.deletedAt ? '' : r.body,
  editedAt: r.editedAt,
  deleted: r.deletedAt !== null,
  hidden: r.hiddenAt ? { at: r.hiddenAt, byName: r.hiddenByName ?? '', reason: r.hiddenReason } : null,
  createdAt: r.createdAt,
  updatedAt: r.updatedAt,
  version: r.version,
})

const entities: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' }

/**
 * The first ~140 characters of a post (sanitized HTML) as one line of plain text, for the reports
 * page: tags become spaces, entities their characters; longer text ends with "…".
 */
export const excerptOf = (body: string, max = 140): string => {
  const text = body
    .replace(/<[^>]*>/g, ' ')
    .replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (whole, name: string) =>
      name[0] === '#' ?
        String.fromCodePoint(parseInt(name.slice(name[1] === 'x' || name[1] === 'X' ? 2 : 1), name[1] === 'x' || name[1] === 'X' ? 16 : 10))
      : (entities[name.toLowerCase()] ?? whole),
    )
    .replace(/\s+/g, ' ')
    .trim()
  return text.length <= max ? text : `${text.slice(0, max - 1).trimEnd()}…`
}

/** Threads and replies a user may post an hour (docs/API.md "Forum"). */
export const POSTS_PER_HOUR = 30
const HOUR_MS = 3_600_000

export interface ForumServiceDeps {
  db: Db
  clock: Clock
  publicUrl?: string
  companies: CompaniesService
  residency: Residency
  notices: NoticesService
  notifications: NotificationsService
}

/**
 * The caller of one request: the associations they live in are asked once per request (not per
 * check), and forgotten with it (the actor object itself is reused for a few seconds).
 */
interface Caller {
  actor: Actor
  isMember(companyId: string): Promise<boolean>
}

/**
 * A post's sanitized body; 400 on `body` when nothing readable is left (only a script, a style,
 * empty tags): the same message as an empty field.
 */
function cleanBody(html: string): string {
  const body = sanitizeHtml(html)
  const text = body
    .replace(/<[^>]*>/g, '')
    .replace(/&nbsp;|&#160;|&#xa0;/gi, ' ')
    .trim()
  if (!text) throw validation([{ path: 'body', message: m.forumBodyRequired.id }])
  return body
}

/** The association's staff (every role, the board included) moderate its forum. */
const moderates = (actor: Actor, companyId: string) => roleIn(actor, companyId) !== undefined

const seesHidden = (actor: Actor, companyId: string) => isSuperAdmin(actor) || moderates(actor, companyId)

function assertModerator(actor: Actor, companyId: string) {
  if (!moderates(actor, companyId)) throw forbidden()
}

/**
 * The forum of an association (docs/PRODUCT.md "Forum", decision 0066). Its members
 * (residents with a living agreement, and its staff) read, start threads and reply; authors edit
 * and delete their own posts; its staff (every role: the board moderates) hide, lock and pin, and
 * resolve members' reports. A reply tells the thread's followers (its author, everyone who posted,
 * whoever chose "Follow"), never the replier, in-app and by e-mail in their language. Another
 * association's thread is 404; a hidden one is 404 for members.
 */
export class ForumService {
  constructor(private readonly deps: ForumServiceDeps) {}

  private now() {
    return isoNow(this.deps.clock)
  }

  private async scopeOf(actor: Actor): Promise<ForumScope> {
    if (isSuperAdmin(actor)) return { all: true, companyIds: [], moderates: [] }
    const staff = actor.companies.map((c) => c.id)
    return { all: false, companyIds: [...new Set([...staff, ...(await this.deps.residency.residentCompanyIds(actor.userId))])], moderates: staff }
  }

  private callerOf(actor: Actor): Caller {
    let homes: Promise<string[]> | undefined
    return {
      actor,
      isMember: async (companyId) =>
        roleIn(actor, companyId) !== undefined || (await (homes ??= this.deps.residency.residentCompanyIds(actor.userId))).includes(companyId),
    }
  }

  /**
   * At most POSTS_PER_HOUR threads and replies an hour per user, counted from the posts themselves
   * inside the write's transaction: a run PostgreSQL gives up on (and runs again) left no post, so
   * it counts once, and a refused or failed request counts not at all.
   */
  private async assertUnderPostLimit(actor: Actor) {
    const since = new Date(this.deps.clock.now().getTime() - HOUR_MS).toISOString()
    const recent = await repo.postsSince(this.deps.db, actor.userId, since)
    if (recent.count >= POSTS_PER_HOUR && recent.oldest)
      throw rateLimited((new Date(recent.oldest).getTime() + HOUR_MS - this.deps.clock.now().getTime()) / 1000)
  }

  /** A thread the actor may read: a member's (hidden ones for moderators only) or any for the super admin; else 404. */
  private async readableThread(who: Caller, id: string, row?: ThreadRow): Promise<ThreadRow> {
    row ??= await repo.thread(this.deps.db, id)
    if (!row || !(isSuperAdmin(who.actor) || (await who.isMember(row.companyId)))) throw notFound(m.forumThreadNotFound.id)
    if (row.hiddenAt && !seesHidden(who.actor, row.companyId)) throw notFound(m.forumThreadNotFound.id)
    return row
  }

  private async readablePost(who: Caller, id: string, row?: PostRow): Promise<{ post: PostRow; thread: ThreadRow }> {
    const post = row ?? (await repo.post(this.deps.db, id))
    if (!post) throw notFound(m.forumPostNotFound.id)
    // A thread the caller may not read hides its posts as well; any other failure (the database) stays what it is.
    const thread = await this.readableThread(who, post.threadId).catch((err: unknown) => {
      throw err instanceof DomainError && err.code === 'NOT_FOUND' ? notFound(m.forumPostNotFound.id) : err
    })
    if (post.hiddenAt && !seesHidden(who.actor, post.companyId)) throw notFound(m.forumPostNotFound.id)
    return { post, thread }
  }

  /** Writing in the forum: a member (not only a reader), in an association that is not read-only. */
  private async assertWriter(who: Caller, companyId: string) {
    await this.assertMember(who.actor, companyId, who)
    await this.deps.companies.assertWritable(companyId)
  }

  // Who may act (docs/decisions/0066), also the routes' `act` checks (server/access/scope.ts): decided before the body.

  /** Throws 403 unless the actor is a member of the association (its staff or a resident): who writes in its forum. */
  async assertMember(actor: Actor, companyId: string, who: Caller = this.callerOf(actor)): Promise<void> {
    if (!(await who.isMember(companyId))) throw forbidden(m.forumNotMember.id)
  }

  /** A thread the actor may reply in (a member; locked or not is the reply's own question); 404 for one they may not read. */
  async repliable(actor: Actor, id: string): Promise<ThreadRow> {
    const who = this.callerOf(actor)
    const thread = await this.readableThread(who, id)
    await this.assertMember(actor, thread.companyId, who)
    return thread
  }

  /** A post of the actor's own, who alone edits and deletes it: 403 for anyone else who reads it. */
  async ownPost(actor: Actor, id: string): Promise<{ post: PostRow; thread: ThreadRow }> {
    const found = await this.readablePost(this.callerOf(actor), id)
    if (found.post.authorUserId !== actor.userId) throw forbidden()
    return found
  }

  /** A thread the actor moderates (the association's staff): 403 for its members. */
  async moderatedThread(actor: Actor, id: string): Promise<ThreadRow> {
    const thread = await this.readableThread(this.callerOf(actor), id)
    assertModerator(actor, thread.companyId)
    return thread
  }

  /** A post the actor moderates (the association's staff): 403 for its members. */
  async moderatedPost(actor: Actor, id: string): Promise<{ post: PostRow; thread: ThreadRow }> {
    const found = await this.readablePost(this.callerOf(actor), id)
    assertModerator(actor, found.post.companyId)
    return found
  }

  /** A post the actor may report (a member of its association): 403 for the super admin, who reads but is no member. */
  async reportable(actor: Actor, id: string): Promise<{ post: PostRow; thread: ThreadRow }> {
    const who = this.callerOf(actor)
    const found = await this.readablePost(who, id)
    await this.assertMember(actor, found.post.companyId, who)
    return found
  }

  /** The change for sync: one row the company's staff and residents read (decision 0073). */
  private async changed(companyId: string, entity: 'forumThread' | 'forumPost', ids: readonly string[]) {
    for (const id of ids) await recordChange(this.deps.db, this.deps.clock, entity, id, 'upsert', { companyId, members: true })
  }

  /** A change only one user's copy shows (their "following"). */
  private async changedFor(id: string, userId: string) {
    return await recordChange(this.deps.db, this.deps.clock, 'forumThread', id, 'upsert', { userId })
  }

  private async currentThread(actor: Actor, id: string): Promise<ForumThread> {
    return threadView((await repo.thread(this.deps.db, id))!, (await repo.followed(this.deps.db, actor.userId, [id])).has(id))
  }

  private async currentPost(id: string) {
    return postView((await repo.post(this.deps.db, id))!)
  }

  private async audit(
    actor: Actor,
    thread: ThreadRow,
    action: 'HIDE' | 'UNHIDE' | 'LOCK' | 'UNLOCK' | 'PIN' | 'UNPIN' | 'RESOLVE_REPORT',
    postId: string | null,
    reason?: string | null,
  ) {
    await repo.audit(this.deps.db, {
      id: newId(),
      companyId: thread.companyId,
      threadId: thread.id,
      postId,
      actorUserId: actor.userId,
      actorName: actor.fullName,
      action,
      reason: reason ?? null,
      createdAt: this.now(),
    })
  }

  /** Tells the thread's followers but the replier about a reply: in-app and by e-mail in each one's language; set-based. */
  private async tellFollowers(thread: ThreadRow, replier: Actor) {
    const followers = await repo.followers(this.deps.db, thread.id, replier.userId)
    if (!followers.length) return
    // Only those who may still read the thread are told: its members, or its moderators alone when it is hidden.
    const moderators = (await repo.moderators(this.deps.db, thread.companyId)).map((p) => p.id)
    const members = new Set(thread.hiddenAt ? moderators : (await this.deps.residency.residentIds(thread.companyId)).concat(moderators))
    const people: Addressee[] = followers.filter((p) => members.has(p.id))
    await this.deps.notices.tellMany(people, {
      type: 'info',
      title: /*i18n*/ { id: '{name} replied in “{title}”' },
      message: /*i18n*/ { id: '{name} replied in the forum thread “{title}”.' },
      values: { name: replier.fullName, title: thread.title },
      actionUrl: `/forum/thread/${thread.id}`,
      actionText: /*i18n*/ { id: 'Open thread' },
    })
  }

  /** A page of a company's threads: pinned first, then by last activity; another association is 404. */
  async list(actor: Actor, query: ThreadListQuery): Promise<{ items: ForumThread[]; next: string | null }> {
    const after = decodeCursor(query.cursor, ['number', 'string', 'string'])
    const who = this.callerOf(actor)
    return await snapshot(this.deps.db, async () => {
      await assertCompanyInScope(this.deps.db, actor, query.companyId)
      if (!isSuperAdmin(actor) && !(await who.isMember(query.companyId))) throw notFound()
      const rows = await repo.threadPage(this.deps.db, { companyId: query.companyId, withHidden: seesHidden(actor, query.companyId) }, after, query.limit + 1)
      const page = pageOf(rows, query.limit, (r) => [r.pinned, r.lastActivityAt, r.id])
      const followed = await repo.followed(
        this.deps.db,
        actor.userId,
        page.rows.map((r) => r.id),
      )
      return { items: page.rows.map((r) => threadView(r, followed.has(r.id))), next: page.next }
    })
  }

  /** The company of a post the actor may read (its thread readable, a hidden one only for moderators); else 404. */
  async postOf(actor: Actor, id: string): Promise<{ companyId: string }> {
    return { companyId: (await this.readablePost(this.callerOf(actor), id)).post.companyId }
  }

  async thread(actor: Actor, id: string): Promise<ForumThread> {
    const row = await this.readableThread(this.callerOf(actor), id)
    return threadView(row, (await repo.followed(this.deps.db, actor.userId, [id])).has(id))
  }

  /** A page of a thread's posts, oldest first (hidden ones for moderators only). */
  async posts(actor: Actor, id: string, query: PostListQuery): Promise<{ items: ForumPost[]; next: string | null }> {
    const after = decodeCursor(query.cursor, ['string', 'string'])
    const thread = await this.readableThread(this.callerOf(actor), id)
    const rows = await repo.postPage(this.deps.db, { threadId: id, withHidden: seesHidden(actor, thread.companyId) }, after, query.limit + 1)
    const page = pageOf(rows, query.limit, (r) => [r.createdAt, r.id])
    return { items: page.rows.map(postView), next: page.next }
  }

  /** A new thread with its opening post; the author follows it. A client-made id makes a retried create one thread. */
  async createThread(actor: Actor, input: CreateThreadRequest): Promise<ForumThread> {
    const who = this.callerOf(actor)
    if (input.id) {
      const existing = await repo.thread(this.deps.db, input.id)
      if (existing) {
        // Read as any thread: one hidden meanwhile is 404 for a member, even its author.
        await this.readableThread(who, existing.id, existing)
        if (existing.authorUserId === actor.userId && existing.companyId === input.companyId) return await this.currentThread(actor, existing.id)
        throw conflict(m.billingRecordExists.id, 'id')
      }
    }
    if (input.postId) {
      const taken = await repo.post(this.deps.db, input.postId)
      // Another's id: 404 like any row the caller may not read, 409 only for one they read.
      if (taken && !(isSuperAdmin(actor) || (await who.isMember(taken.companyId)))) throw notFound(m.forumPostNotFound.id)
      if (taken) throw conflict(m.billingRecordExists.id, 'postId')
    }
    if (!(await who.isMember(input.companyId))) await assertCompanyInScope(this.deps.db, actor, input.companyId)
    await this.assertWriter(who, input.companyId)
    const body = cleanBody(input.body)
    await this.assertUnderPostLimit(actor)
    const at = this.now()
    const id = input.id ?? newId()
    const postId = input.postId ?? newId()
    const author = { authorUserId: actor.userId, authorName: actor.fullName }
    await repo.insertThread(this.deps.db, {
      id,
      companyId: input.companyId,
      ...author,
      title: input.title.trim(),
      lastActivityAt: at,
      createdAt: at,
      updatedAt: at,
    })
    await repo.insertPost(this.deps.db, { id: postId, threadId: id, companyId: input.companyId, ...author, opening: 1, body, createdAt: at, updatedAt: at })
    await repo.setFollowing(this.deps.db, id, actor.userId, true, at)
    await this.changed(input.companyId, 'forumThread', [id])
    await this.changed(input.companyId, 'forumPost', [postId])
    return await this.currentThread(actor, id)
  }

  /** A reply: refused on a locked thread; the replier follows the thread; its followers are told. */
  async reply(actor: Actor, threadId: string, input: CreateReplyRequest): Promise<ForumPost> {
    const who = this.callerOf(actor)
    const thread = await this.readableThread(who, threadId)
    if (input.id) {
      const existing = await repo.post(this.deps.db, input.id)
      if (existing) {
        // The same reply sent again (a retry from the outbox) answers the stored one, if the caller may still read it.
        await this.readablePost(who, existing.id, existing)
        if (existing.authorUserId === actor.userId && existing.threadId === threadId) return postView(existing)
        throw conflict(m.billingRecordExists.id, 'id')
      }
    }
    await this.assertWriter(who, thread.companyId)
    if (thread.lockedAt) throw ruleViolation(m.forumLocked.id)
    const body = cleanBody(input.body)
    await this.assertUnderPostLimit(actor)
    const at = this.now()
    const id = input.id ?? newId()
    await repo.insertPost(this.deps.db, {
      id,
      threadId,
      companyId: thread.companyId,
      authorUserId: actor.userId,
      authorName: actor.fullName,
      body,
      createdAt: at,
      updatedAt: at,
    })
    await repo.replied(this.deps.db, threadId, at)
    await repo.setFollowing(this.deps.db, threadId, actor.userId, true, at)
    await this.changed(thread.companyId, 'forumPost', [id])
    await this.changed(thread.companyId, 'forumThread', [threadId])
    await this.tellFollowers(thread, actor)
    return await this.currentPost(id)
  }

  /** The author edits their post (If-Match); a deleted post stays deleted. */
  async editPost(actor: Actor, id: string, input: UpdatePostRequest, version?: number): Promise<ForumPost> {
    const { post, thread } = await this.ownPost(actor, id)
    if (version !== undefined && version !== post.version) throw versionConflict(postView(post))
    if (post.deletedAt) throw ruleViolation(m.forumPostDeleted.id)
    if (thread.lockedAt) throw ruleViolation(m.forumLockedNoEdit.id)
    await this.deps.companies.assertWritable(post.companyId)
    const body = cleanBody(input.body)
    if (body === post.body) return postView(post)
    const at = this.now()
    await repo.updatePost(this.deps.db, id, { body, editedAt: at, updatedAt: at })
    await this.changed(post.companyId, 'forumPost', [id])
    return await this.currentPost(id)
  }

  /** The author deletes their post: it stays in the thread as "deleted" (its text is gone). */
  async deletePost(actor: Actor, id: string, version?: number): Promise<ForumPost> {
    const { post } = await this.ownPost(actor, id)
    if (version !== undefined && version !== post.version) throw versionConflict(postView(post))
    await this.deps.companies.assertWritable(post.companyId)
    if (post.deletedAt) return postView(post)
    const at = this.now()
    await repo.updatePost(this.deps.db, id, { body: '', deletedAt: at, updatedAt: at })
    await this.changed(post.companyId, 'forumPost', [id])
    if (post.opening === 0) {
      await repo.recount(this.deps.db, post.threadId, at)
      await this.changed(post.companyId, 'forumThread', [post.threadId])
    }
    return await this.currentPost(id)
  }

  async follow(actor: Actor, id: string, following: boolean): Promise<ForumThread> {
    const who = this.callerOf(actor)
    const thread = await this.readableThread(who, id)
    if (!(await who.isMember(thread.companyId))) throw forbidden(m.forumNotMember.id)
    await repo.setFollowing(this.deps.db, id, actor.userId, following, this.now())
    // A new version, so the follower's copy takes the changed "following" (others' copies are not told).
    await repo.updateThread(this.deps.db, id, { updatedAt: thread.updatedAt })
    await this.changedFor(id, actor.userId)
    return await this.currentThread(actor, id)
  }

  /** Hide, unhide, lock, unlock, pin, unpin a thread (the association's staff); audited. */
  async moderateThread(actor: Actor, id: string, input: ThreadModerationRequest): Promise<ForumThread> {
    const thread = await this.moderatedThread(actor, id)
    await this.deps.companies.assertWritable(thread.companyId)
    const at = this.now()
    const reason = input.reason ?? null
    const fields =
      input.action === 'HIDE' ? { hiddenAt: at, hiddenByName: actor.fullName, hiddenReason: reason }
      : input.action === 'UNHIDE' ? { hiddenAt: null, hiddenByName: null, hiddenReason: null }
      : input.action === 'LOCK' ? { lockedAt: at, lockedByName: actor.fullName }
      : input.action === 'UNLOCK' ? { lockedAt: null, lockedByName: null }
      : { pinned: input.action === 'PIN' ? 1 : 0 }
    await repo.updateThread(this.deps.db, id, { ...fields, updatedAt: at })
    await this.audit(actor, thread, input.action, null, reason)
    await this.changed(thread.companyId, 'forumThread', [id])
    // Members' copies gain or lose the thread's posts with it: one change per post.
    if (input.action === 'HIDE' || input.action === 'UNHIDE') await this.changed(thread.companyId, 'forumPost', await repo.postIdsOf(this.deps.db, id))
    return await this.currentThread(actor, id)
  }

  /** Hide or unhide a post (the association's staff); audited. Hiding the opening post hides the thread's text only. */
  async moderatePost(actor: Actor, id: string, input: PostModerationRequest): Promise<ForumPost> {
    const { post, thread } = await this.moderatedPost(actor, id)
    await this.deps.companies.assertWritable(post.companyId)
    const at = this.now()
    const reason = input.reason ?? null
    await repo.updatePost(
      this.deps.db,
      id,
      input.action === 'HIDE' ?
        { hiddenAt: at, hiddenByName: actor.fullName, hiddenReason: reason, updatedAt: at }
      : { hiddenAt: null, hiddenByName: null, hiddenReason: null, updatedAt: at },
    )
    await this.audit(actor, thread, input.action, id, reason)
    await this.changed(post.companyId, 'forumPost', [id])
    if (post.opening === 0) {
      await repo.recount(this.deps.db, post.threadId, at)
      await this.changed(post.companyId, 'forumThread', [post.threadId])
    }
    return await this.currentPost(id)
  }

  /** A member reports a post (once per post; not their own): the moderators are told in-app. */
  async report(actor: Actor, id: string, input: ReportPostRequest): Promise<void> {
    const { post, thread } = await this.reportable(actor, id)
    if (post.authorUserId === actor.userId) throw ruleViolation(m.forumOwnReport.id)
    if (await repo.report(this.deps.db, id, actor.userId)) throw conflict(m.forumAlreadyReported.id)
    await repo.insertReport(this.deps.db, {
      id: newId(),
      postId: id,
      threadId: post.threadId,
      companyId: post.companyId,
      reporterUserId: actor.userId,
      reporterName: actor.fullName,
      reason: input.reason.trim(),
      createdAt: this.now(),
    })
    const moderators = (await repo.moderators(this.deps.db, post.companyId)).filter((p) => p.id !== actor.userId)
    await this.deps.notifications.notifyMany(moderators, {
      type: 'warning',
      title: /*i18n*/ { id: 'A forum post was reported' },
      message: /*i18n*/ { id: 'A post in “{title}” was reported: “{reason}”' },
      values: { title: thread.title, reason: input.reason.trim() },
      actionUrl: '/forum/reports',
      actionText: /*i18n*/ { id: 'Open reports' },
    })
  }

  /** The open reports of a company, oldest first (its staff). */
  async reports(actor: Actor, query: ReportListQuery): Promise<{ items: ForumReport[]; next: string | null }> {
    const after = decodeCursor(query.cursor, ['string', 'string'])
    await assertCompanyInScope(this.deps.db, actor, query.companyId)
    if (!moderates(actor, query.companyId)) {
      if (isSuperAdmin(actor) || (await this.callerOf(actor).isMember(query.companyId))) throw forbidden()
      throw notFound()
    }
    const rows = await repo.openReports(this.deps.db, query.companyId, after, query.limit + 1)
    const page = pageOf(rows, query.limit, (r) => [r.report.createdAt, r.report.id])
    return {
      items: page.rows.map(({ report: r, threadTitle, postAuthorName, postBody, postDeletedAt }) => ({
        id: r.id,
        postId: r.postId,
        postExcerpt: postDeletedAt ? '' : excerptOf(postBody),
        threadId: r.threadId,
        threadTitle,
        postAuthorName,
        reporterName: r.reporterName,
        reason: r.reason,
        createdAt: r.createdAt,
        resolvedAt: r.resolvedAt,
        resolvedByName: r.resolvedByName,
      })),
      next: page.next,
    }
  }

  /** A moderator marks a report handled (not in a read-only association); audited. */
  async resolveReport(actor: Actor, id: string): Promise<void> {
    const report = await repo.reportById(this.deps.db, id)
    if (!report || !(isSuperAdmin(actor) || (await this.callerOf(actor).isMember(report.companyId)))) throw notFound()
    assertModerator(actor, report.companyId)
    await this.deps.companies.assertWritable(report.companyId)
    if (report.resolvedAt) return
    await repo.resolveReport(this.deps.db, id, this.now(), actor.fullName)
    await this.audit(actor, (await repo.thread(this.deps.db, report.threadId))!, 'RESOLVE_REPORT', report.postId, null)
  }

  /** Sync: threads of the actor's associations (hidden ones for their moderators), shaped for the actor. */
  threadSync(): SyncedEntity {
    const shaped = async (actor: Actor, rows: ThreadRow[]) => {
      const followed = await repo.followed(
        this.deps.db,
        actor.userId,
        rows.map((r) => r.id),
      )
      return rows.map((r) => {
        const v = threadView(r, followed.has(r.id))
        return { id: v.id, version: v.version, data: v as unknown as Record<string, unknown> }
      })
    }
    return {
      name: 'forumThread',
      snapshot: async (db, actor, afterId, limit) => await shaped(actor, await repo.threadSyncPage(db, await this.scopeOf(actor), afterId, limit)),
      load: async (db, actor, ids) => await shaped(actor, await repo.threadsByIds(db, await this.scopeOf(actor), ids)),
    }
  }

  postSync(): SyncedEntity {
    const shaped = (rows: PostRow[]) =>
      rows.map((r) => {
        const v = postView(r)
        return { id: v.id, version: v.version, data: v as unknown as Record<string, unknown> }
      })
    return {
      name: 'forumPost',
      snapshot: async (db, actor, afterId, limit) => shaped(await repo.postSyncPage(db, await this.scopeOf(actor), afterId, limit)),
      load: async (db, actor, ids) => shaped(await repo.postsByIds(db, await this.scopeOf(actor), ids)),
    }
  }
}

export const createForumService = (deps: ForumServiceDeps) => new ForumService(deps)
