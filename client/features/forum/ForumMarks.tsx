import { Plural, Trans } from '@lingui/react/macro'
import type { ForumPost } from '../../../shared/contract/forum'
import { PendingMarker } from '../../components/sync/PendingMarker'
import { Badge } from '../../components/ui/Badge'
import { useLocale } from '../../i18n/use-locale'
import { formatDateTime } from '../../lib/format'
import type { ThreadView } from './use-forum'

/** A thread's marks in the list and on its page: new (the list only), pinned, locked, hidden, its replies and a pending change. */
export function ThreadBadges({ thread, withUnread = false }: { thread: ThreadView; withUnread?: boolean }) {
  const replies = thread.replyCount ?? 0
  return (
    <p className="forum-thread-badges">
      {withUnread && thread.unread && (
        <Badge variant="success">
          <Trans>New</Trans>
        </Badge>
      )}
      {thread.pinned && (
        <Badge variant="info">
          <Trans>Pinned</Trans>
        </Badge>
      )}
      {thread.locked && (
        <Badge variant="warning">
          <Trans>Locked</Trans>
        </Badge>
      )}
      {thread.hidden && (
        <Badge variant="error">
          <Trans>Hidden</Trans>
        </Badge>
      )}
      <span className="muted">
        <Plural value={replies} one="# reply" other="# replies" />
      </span>
      {thread._pending && <PendingMarker />}
    </p>
  )
}

/** Who hid a thread or post from the members, when, and why if they said (moderators see it). */
export function HiddenBy({ hidden }: { hidden: NonNullable<ForumPost['hidden']> }) {
  const locale = useLocale()
  return hidden.reason ?
      <Trans>
        Hidden from members by {hidden.byName} on {formatDateTime(hidden.at, locale)}: {hidden.reason}
      </Trans>
    : <Trans>
        Hidden from members by {hidden.byName} on {formatDateTime(hidden.at, locale)}.
      </Trans>
}
