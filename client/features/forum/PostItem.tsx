import { useState, type FormEvent } from 'react'
import { Trans, useLingui } from '@lingui/react/macro'
import { MAX_MODERATION_REASON, MAX_POST_BODY, MAX_REPORT_REASON, ReportPostRequest, UpdatePostRequest } from '../../../shared/contract/forum'
import { useQueuedText } from '../../components/sync/QueuedNotice'
import { PendingMarker } from '../../components/sync/PendingMarker'
import { Button } from '../../components/ui/Button'
import { TextAreaField } from '../../components/ui/TextField'
import { useLocale } from '../../i18n/use-locale'
import { ApiError, createActionKey, errorMessage } from '../../lib/api'
import { formatDateTime } from '../../lib/format'
import { issuesByField } from '../../lib/form-issues'
import { sanitizeHtml } from '../../lib/safe-html'
import { showToast } from '../../lib/toast'
import type { Queued } from '../../sync/await-server'
import { useSyncStatus, type SyncHandle } from '../../sync/use-sync'
import { useSession } from '../auth/session'
import { useRefusalText } from '../sync-status/refusal'
import { moderatePost, reportPost } from './forum-api'
import { deletePost, editPost } from './forum-mutations'
import { settleChange } from './outcome'
import { HiddenBy } from './ForumMarks'
import { ReasonDialog } from './ReasonDialog'
import type { PostView } from './use-forum'
import { personName } from '../../../shared/erased-person'

/** `settleChange` (outcome.ts) in the user's language. */
export function useOutcome() {
  const { t } = useLingui()
  const queuedText = useQueuedText()
  const refusalText = useRefusalText()
  return (handle: SyncHandle, queued: Queued, texts: { done: string; conflict?: string }, refused: (message: string) => void) =>
    settleChange(handle, queued, texts, refused, { queued: queuedText, refusal: refusalText, refused: t`The server refused the request.` })
}

/**
 * One post: its author, time and sanitized text ("deleted" once its author deleted it; for
 * moderators, a hidden one marked with who hid it and why). Its author edits and deletes it; other
 * members report it; moderators hide or show it.
 */
export function PostItem({ handle, post, locked, moderates }: { handle: SyncHandle; post: PostView; locked: boolean; moderates: boolean }) {
  const { t, i18n } = useLingui()
  const locale = useLocale()
  const user = useSession().user
  const outcome = useOutcome()
  const { online } = useSyncStatus(handle)
  const mine = !!user && post.author?.id === user.id
  const [editing, setEditing] = useState(false)
  const [text, setText] = useState(post.body ?? '')
  const [error, setError] = useState<string | undefined>()
  const [reporting, setReporting] = useState(false)
  const [hiding, setHiding] = useState(false)
  const [action] = useState(() => createActionKey())
  const versioned = post as PostView & { _version: number }
  const placeholder = post.id.endsWith('-opening')

  const save = async (event: FormEvent) => {
    event.preventDefault()
    const parsed = UpdatePostRequest.safeParse({ body: text })
    if (!parsed.success) return setError(issuesByField<'body'>(parsed.error.issues, i18n).body)
    setError(undefined)
    setEditing(false)
    const queued = await editPost(handle, versioned, parsed.data.body)
    // Refused or changed meanwhile: the editor opens again with what was typed, and says why.
    await outcome(
      handle,
      queued,
      { done: t`Your post was saved.`, conflict: t`This post was changed in the meantime. Your text is kept: check it and save again.` },
      (message) => {
        setText(parsed.data.body)
        setError(message)
        setEditing(true)
      },
    )
  }
  const remove = async () => {
    if (!window.confirm(t`Delete this post? It shows as deleted in the thread.`)) return
    const queued = await deletePost(handle, versioned)
    await outcome(
      handle,
      queued,
      { done: t`Your post was deleted.`, conflict: t`This post was changed in the meantime, so it was not deleted. Look at it again first.` },
      (message) => showToast('error', message),
    )
  }
  const moderate = async (hide: boolean, reason?: string) => {
    await moderatePost(post.id, { action: hide ? 'HIDE' : 'UNHIDE', reason }, action)
    await handle.engine.syncNow().catch(() => undefined)
    showToast('success', hide ? t`The post is hidden from members.` : t`Members see the post again.`)
  }
  const unhide = () =>
    void moderate(false).catch((err: unknown) =>
      showToast(
        'error',
        err instanceof ApiError && err.status === 0 ? t`This needs a connection. Try again when you are online.` : errorMessage(err, t`It could not be saved.`),
      ),
    )

  return (
    <li id={`post-${post.id}`} tabIndex={-1} className={`forum-post card${post.hidden ? ' forum-post-hidden' : ''}`}>
      <div className="forum-post-head">
        <span className="forum-post-author">{personName(post.author?.fullName, i18n)}</span>
        {post.createdAt && <span className="muted">{formatDateTime(post.createdAt, locale)}</span>}
        {post.editedAt && !post.deleted && (
          <span className="muted">
            <Trans>(edited)</Trans>
          </span>
        )}
        {post._pending && <PendingMarker />}
      </div>
      {post.hidden && (
        <p className="muted">
          <HiddenBy hidden={post.hidden} />
        </p>
      )}
      {post.deleted ?
        <p className="forum-post-deleted muted">
          <Trans>This post was deleted.</Trans>
        </p>
      : editing ?
        <form className="form" noValidate onSubmit={(e) => void save(e)}>
          <TextAreaField label={t`Edit your post`} value={text} onChange={(e) => setText(e.target.value)} error={error} rows={4} maxLength={MAX_POST_BODY} />
          <div className="form-actions">
            <Button variant="secondary" onClick={() => setEditing(false)}>
              <Trans>Cancel</Trans>
            </Button>
            <Button type="submit">
              <Trans>Save</Trans>
            </Button>
          </div>
        </form>
      : <div className="forum-post-body message-body" dangerouslySetInnerHTML={{ __html: sanitizeHtml(post.body ?? '') }} />}
      {!placeholder && !post.deleted && !editing && (
        <div className="forum-post-actions">
          {mine && !locked && !post._pending && (
            <Button variant="secondary" size="sm" onClick={() => (setText(post.body ?? ''), setEditing(true), setError(undefined))}>
              <Trans>Edit</Trans>
            </Button>
          )}
          {mine && !post._pending && (
            <Button variant="ghost" size="sm" onClick={() => void remove()}>
              <Trans>Delete</Trans>
            </Button>
          )}
          {!mine && !post._pending && (
            <Button variant="ghost" size="sm" disabled={!online} onClick={() => setReporting(true)}>
              <Trans>Report</Trans>
            </Button>
          )}
          {moderates &&
            !post._pending &&
            (post.hidden ?
              <Button variant="secondary" size="sm" disabled={!online} onClick={unhide}>
                <Trans>Show post again</Trans>
              </Button>
            : <Button variant="danger" size="sm" disabled={!online} onClick={() => setHiding(true)}>
                <Trans>Hide post</Trans>
              </Button>)}
        </div>
      )}
      <ReasonDialog
        open={reporting}
        title={t`Report this post to the board`}
        label={t`What is wrong with it?`}
        submitLabel={t`Send report`}
        required
        maxLength={MAX_REPORT_REASON}
        check={(reason) => {
          const parsed = ReportPostRequest.safeParse({ reason })
          return parsed.success ? undefined : issuesByField<'reason'>(parsed.error.issues, i18n).reason
        }}
        onSend={async (reason) => {
          await reportPost(post.id, reason, action)
          showToast('success', t`Thank you. The board has been told.`)
        }}
        onClose={() => setReporting(false)}
      />
      <ReasonDialog
        open={hiding}
        title={t`Hide the post from members`}
        label={t`Reason (optional, seen by moderators)`}
        submitLabel={t`Hide post`}
        required={false}
        maxLength={MAX_MODERATION_REASON}
        check={() => undefined}
        onSend={(reason) => moderate(true, reason)}
        onClose={() => setHiding(false)}
      />
    </li>
  )
}
