import { z } from 'zod'
import { messages as m } from '../i18n-messages'
import { pageQueryFields } from './paging'
import { multiLineText, optionalPlainText, plainText } from './text'

/**
 * The forum of an association (docs/PRODUCT.md "Forum", decision 0066):
 * threads with an opening post and replies, written by the members of one association and
 * moderated by its board (hide, lock, pin; reports). The same schemas check the client's form and
 * the server's request.
 */
export const MAX_THREAD_TITLE = 150
/** Characters of a post's (HTML) body. */
export const MAX_POST_BODY = 10_000
export const MAX_REPORT_REASON = 500
export const MAX_MODERATION_REASON = 300

const title = plainText(MAX_THREAD_TITLE, m.forumTitleRequired.id)
const body = multiLineText(MAX_POST_BODY, m.forumBodyRequired.id).meta({
  description: 'HTML (sanitized by the server as messages are: the tags of shared/domain/html-policy.ts); line breaks are kept',
})

export const CreateThreadRequest = z
  .object({
    /** Made by the client so an offline create is one thread however often it is sent. */
    id: z.uuid().optional(),
    /** The opening post's id, made by the client like `id`. */
    postId: z.uuid().optional(),
    companyId: z.uuid(),
    title,
    body,
  })
  .meta({ id: 'CreateThreadRequest' })
export type CreateThreadRequest = z.input<typeof CreateThreadRequest>

export const CreateReplyRequest = z.object({ id: z.uuid().optional(), body }).meta({ id: 'CreateReplyRequest' })
export type CreateReplyRequest = z.input<typeof CreateReplyRequest>

export const UpdatePostRequest = z.object({ body }).meta({ id: 'UpdatePostRequest' })
export type UpdatePostRequest = z.input<typeof UpdatePostRequest>

export const threadModerationActions = ['HIDE', 'UNHIDE', 'LOCK', 'UNLOCK', 'PIN', 'UNPIN'] as const
export const postModerationActions = ['HIDE', 'UNHIDE'] as const

export const ThreadModerationRequest = z
  .object({ action: z.enum(threadModerationActions, { error: m.optionInvalid.id }), reason: optionalPlainText(MAX_MODERATION_REASON) })
  .meta({ id: 'ThreadModerationRequest' })
export type ThreadModerationRequest = z.input<typeof ThreadModerationRequest>

export const PostModerationRequest = z
  .object({ action: z.enum(postModerationActions, { error: m.optionInvalid.id }), reason: optionalPlainText(MAX_MODERATION_REASON) })
  .meta({ id: 'PostModerationRequest' })
export type PostModerationRequest = z.input<typeof PostModerationRequest>

export const ReportPostRequest = z.object({ reason: multiLineText(MAX_REPORT_REASON, m.forumReasonRequired.id) }).meta({ id: 'ReportPostRequest' })
export type ReportPostRequest = z.input<typeof ReportPostRequest>

const person = z.object({ id: z.string().nullable(), fullName: z.string() })
/** Set when a moderator hid it: who, when and why (moderators only see hidden things). */
const Hidden = z.object({ at: z.string(), byName: z.string(), reason: z.string().nullable() }).nullable()

export const ForumThread = z
  .object({
    id: z.string(),
    companyId: z.string(),
    title: z.string(),
    author: person,
    pinned: z.boolean(),
    locked: z.object({ at: z.string(), byName: z.string() }).nullable(),
    hidden: Hidden,
    /** Replies members see (the opening post not counted). */
    replyCount: z.number().int(),
    lastActivityAt: z.string(),
    /** Whether the caller is told about new replies. */
    following: z.boolean(),
    createdAt: z.string(),
    updatedAt: z.string(),
    version: z.number().int(),
  })
  .meta({ id: 'ForumThread' })
export type ForumThread = z.infer<typeof ForumThread>

export const ForumPost = z
  .object({
    id: z.string(),
    threadId: z.string(),
    companyId: z.string(),
    author: person,
    /** The thread's opening post. */
    opening: z.boolean(),
    /** Sanitized HTML; '' once deleted. */
    body: z.string(),
    editedAt: z.string().nullable(),
    deleted: z.boolean(),
    hidden: Hidden,
    createdAt: z.string(),
    updatedAt: z.string(),
    version: z.number().int(),
  })
  .meta({ id: 'ForumPost' })
export type ForumPost = z.infer<typeof ForumPost>

export const ForumReport = z
  .object({
    id: z.string(),
    postId: z.string(),
    /** The reported post's first ~140 characters as plain text ('' once it is deleted). */
    postExcerpt: z.string(),
    threadId: z.string(),
    threadTitle: z.string(),
    postAuthorName: z.string(),
    reporterName: z.string(),
    reason: z.string(),
    createdAt: z.string(),
    resolvedAt: z.string().nullable(),
    resolvedByName: z.string().nullable(),
  })
  .meta({ id: 'ForumReport' })
export type ForumReport = z.infer<typeof ForumReport>

export const ThreadListQuery = z.object({ companyId: z.uuid(), ...pageQueryFields })
export type ThreadListQuery = z.output<typeof ThreadListQuery>

export const ReportListQuery = z.object({ companyId: z.uuid(), ...pageQueryFields })
export type ReportListQuery = z.output<typeof ReportListQuery>

export const PostListQuery = z.object({ ...pageQueryFields })
export type PostListQuery = z.output<typeof PostListQuery>
