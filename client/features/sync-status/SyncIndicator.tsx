import { Plural, Trans, useLingui } from '@lingui/react/macro'
import { Spinner } from '../../components/ui/Spinner'
import { formatRecent } from '../../lib/format'
import { useLocale } from '../../i18n/use-locale'
import { useOutbox, useSyncStatus, type SyncHandle } from '../../sync/use-sync'
import { summarize } from './sync-summary'
import { OfflineReadinessLine } from './OfflineReadiness'

/**
 * The sync state in the shell: online or offline, how many changes wait, how many the server
 * refused, when the last sync finished, and whether the app is ready offline. A button that opens
 * the sync panel.
 */
export function SyncIndicator({ handle, className, onOpen }: { handle: SyncHandle; className?: string; onOpen: () => void }) {
  const { t } = useLingui()
  const locale = useLocale()
  const status = useSyncStatus(handle)
  const summary = summarize(status, useOutbox(handle) ?? [])
  const { pending, problems, rejected, conflicts } = summary
  const lastSynced = summary.lastSyncedAt ? formatRecent(summary.lastSyncedAt, locale) : null

  return (
    <button
      type="button"
      className={['sync-indicator', `sync-${summary.state}`, className ?? ''].filter(Boolean).join(' ')}
      aria-haspopup="dialog"
      onClick={onOpen}
      data-state={summary.state}
    >
      <span className="sync-dot" aria-hidden="true">
        {status.syncing && <Spinner />}
      </span>
      <span className="sync-text">
        <span className="sync-line">
          {summary.online ?
            <Trans>Online</Trans>
          : <Trans>Offline</Trans>}
        </span>
        {(pending > 0 || problems > 0) && (
          <span className="sync-line sync-line-counts">
            {pending > 0 && (
              <span className="sync-count">
                <Plural value={pending} one="# change waiting" other="# changes waiting" />
              </span>
            )}
            {pending > 0 && problems > 0 && ' · '}
            {rejected > 0 && (
              <span className="sync-count sync-count-problem">
                <Plural value={rejected} one="# rejected" other="# rejected" />
              </span>
            )}
            {rejected > 0 && conflicts > 0 && ' · '}
            {conflicts > 0 && (
              <span className="sync-count sync-count-problem">
                <Plural value={conflicts} one="# needs your choice" other="# need your choice" />
              </span>
            )}
          </span>
        )}
        <span className="sync-line sync-line-muted sync-line-time">
          {status.syncing ?
            <Trans>Syncing…</Trans>
          : lastSynced ?
            <Trans>Synced {lastSynced}</Trans>
          : <Trans>Never synced</Trans>}
        </span>
        <OfflineReadinessLine />
      </span>
      <span className="sr-only">{t`Show sync details`}</span>
    </button>
  )
}
