import { useEffect, useState } from 'react'
import { Trans, useLingui } from '@lingui/react/macro'
import { Link } from '@tanstack/react-router'
import { MAX_MODERATION_REASON, type ThreadModerationRequest } from '../../../shared/contract/forum'
import { RecordBody } from '../../components/sync/RecordBody'
import { Alert } from '../../components/ui/Alert'
import { Button, buttonClass } from '../../components/ui/Button'
import { Spinner } from '../../components/ui/Spinner'
import { ApiError, createActionKey, errorMessage } from '../../lib/api'
import { showToast } from '../../lib/toast'
import { usePageTitle } from '../../lib/use-page-title'
import { useSync, useSyncStatus, type SyncHandle } from '../../sync/use-sync'
import { moderateThread, setFollowing } from './forum-api'
import { useModerates } from './moderation'
import { HiddenBy, ThreadBadges } from './ForumMarks'
import { PostItem } from './PostItem'
import { ReasonDialog } from './ReasonDialog'
import { ReplyBox } from './ReplyBox'
import { markSeen, usePostProblems, usePosts, useThread, type PostView, type ThreadView } from './use-forum'
import './forum.css'

/** One thread (decision 0066): its posts oldest first, the reply box (with its draft kept offline), following, and the board's moderation. */
export function ThreadPage({ id }: { id: string }) {
  const { t } = useLingui()
  usePageTitle(t`Forum thread`)
  const handle = useSync()
  const record = useThread(handle, id)
  // Replies, edits and deletes of this thread's posts the server refused or that conflict: shown with what to do.
  const postProblems = usePostProblems(handle, id)
  return (
    <div className="page forum-thread-page">
      <div className="page-header">
        <Link to="/forum" className={buttonClass('link')}>
          <Trans>← Back to the forum</Trans>
        </Link>
      </div>
      <RecordBody<ThreadView>
        handle={handle}
        record={record}
        loading={t`Loading thread`}
        notFound={<Trans>Thread not found.</Trans>}
        problems={[...(record?.problems ?? []), ...(postProblems ?? [])]}
      >
        {(row, handle) => <Thread handle={handle} thread={row} />}
      </RecordBody>
    </div>
  )
}

function Thread({ handle, thread }: { handle: SyncHandle; thread: ThreadView }) {
  const posts = usePosts(handle, thread.id)
  const moderates = useModerates(thread.companyId)
  useEffect(() => {
    void markSeen(handle.db, thread)
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per activity seen
  }, [handle.db, thread.id, thread.lastActivityAt, thread._pending])
  // A link to one post (the board's reports page: `#post-<id>`) shows it once the posts are there.
  const loaded = posts !== undefined
  useEffect(() => {
    if (!loaded || !window.location.hash.startsWith('#post-')) return
    const target = document.getElementById(window.location.hash.slice(1))
    target?.scrollIntoView({ block: 'center' })
    target?.focus({ preventScroll: true })
  }, [loaded])
  const shown: PostView[] | undefined =
    posts && thread.openingBody && !posts.some((p) => p.opening) ?
      [
        {
          id: `${thread.id}-opening`,
          threadId: thread.id,
          author: thread.author,
          opening: true,
          body: thread.openingBody,
          deleted: false,
          hidden: null,
          createdAt: thread.createdAt,
          _version: 0,
          _pending: true,
        } as PostView,
        ...posts,
      ]
    : posts
  return (
    <>
      <div className="forum-thread-head">
        <h1>{thread.title}</h1>
        <ThreadBadges thread={thread} />
        {thread.hidden && (
          <Alert variant="warning">
            <HiddenBy hidden={thread.hidden} />
          </Alert>
        )}
        <Follow handle={handle} thread={thread} />
      </div>
      {moderates && <ThreadModeration handle={handle} thread={thread} />}
      {!shown ?
        <Spinner />
      : <ol className="forum-posts" aria-label={thread.title}>
          {shown.map((post) => (
            <PostItem key={post.id} handle={handle} post={post} locked={!!thread.locked} moderates={moderates} />
          ))}
        </ol>
      }
      {thread.locked ?
        <Alert variant="info">
          <Trans>This thread is locked: no new replies.</Trans>
        </Alert>
      : <ReplyBox handle={handle} thread={thread} />}
    </>
  )
}

/** Follow / Unfollow: be told about new replies (needs a connection). */
function Follow({ handle, thread }: { handle: SyncHandle; thread: ThreadView }) {
  const { t } = useLingui()
  const { online } = useSyncStatus(handle)
  const [busy, setBusy] = useState(false)
  const [action] = useState(() => createActionKey())
  if (thread._pending) return null
  const toggle = async () => {
    setBusy(true)
    try {
      await setFollowing(thread.id, !thread.following, action)
      await handle.engine.syncNow().catch(() => undefined)
      showToast('success', thread.following ? t`You no longer follow this thread.` : t`You follow this thread: you are told about new replies.`)
    } catch (err) {
      showToast(
        'error',
        err instanceof ApiError && err.status === 0 ? t`This needs a connection. Try again when you are online.` : errorMessage(err, t`It could not be saved.`),
      )
    } finally {
      setBusy(false)
    }
  }
  return (
    <div className="forum-actions">
      <Button variant="secondary" size="sm" busy={busy} disabled={busy || !online} onClick={() => void toggle()}>
        {thread.following ?
          <Trans>Unfollow</Trans>
        : <Trans>Follow</Trans>}
      </Button>
      <span className="muted">
        {thread.following ?
          <Trans>You are told about new replies.</Trans>
        : <Trans>Follow to be told about new replies.</Trans>}
      </span>
    </div>
  )
}

/** The board's actions on a thread: pin, lock, hide (with an optional reason); each is audited. */
function ThreadModeration({ handle, thread }: { handle: SyncHandle; thread: ThreadView }) {
  const { t } = useLingui()
  const { online } = useSyncStatus(handle)
  const [hiding, setHiding] = useState(false)
  const [action] = useState(() => createActionKey())
  if (thread._pending) return null
  const run = async (body: ThreadModerationRequest, done: string) => {
    try {
      await moderateThread(thread.id, body, action)
      await handle.engine.syncNow().catch(() => undefined)
      showToast('success', done)
    } catch (err) {
      showToast(
        'error',
        err instanceof ApiError && err.status === 0 ? t`This needs a connection. Try again when you are online.` : errorMessage(err, t`It could not be saved.`),
      )
      throw err
    }
  }
  const quiet = (body: ThreadModerationRequest, done: string) => void run(body, done).catch(() => undefined)
  return (
    <section className="forum-moderation card" aria-labelledby="forum-moderation-title">
      <h2 id="forum-moderation-title">
        <Trans>Moderation</Trans>
      </h2>
      <div className="forum-actions">
        <Button
          variant="secondary"
          size="sm"
          disabled={!online}
          onClick={() => quiet({ action: thread.pinned ? 'UNPIN' : 'PIN' }, thread.pinned ? t`The thread is no longer pinned.` : t`The thread is pinned.`)}
        >
          {thread.pinned ?
            <Trans>Unpin</Trans>
          : <Trans>Pin</Trans>}
        </Button>
        <Button
          variant="secondary"
          size="sm"
          disabled={!online}
          onClick={() =>
            quiet({ action: thread.locked ? 'UNLOCK' : 'LOCK' }, thread.locked ? t`The thread is open for replies again.` : t`The thread is locked.`)
          }
        >
          {thread.locked ?
            <Trans>Unlock</Trans>
          : <Trans>Lock thread</Trans>}
        </Button>
        {thread.hidden ?
          <Button variant="secondary" size="sm" disabled={!online} onClick={() => quiet({ action: 'UNHIDE' }, t`Members see the thread again.`)}>
            <Trans>Show thread again</Trans>
          </Button>
        : <Button variant="danger" size="sm" disabled={!online} onClick={() => setHiding(true)}>
            <Trans>Hide thread</Trans>
          </Button>
        }
      </div>
      <ReasonDialog
        open={hiding}
        title={t`Hide the thread from members`}
        label={t`Reason (optional, seen by moderators)`}
        submitLabel={t`Hide thread`}
        required={false}
        maxLength={MAX_MODERATION_REASON}
        check={() => undefined}
        onSend={(reason) => run({ action: 'HIDE', reason }, t`The thread is hidden from members.`)}
        onClose={() => setHiding(false)}
      />
    </section>
  )
}
