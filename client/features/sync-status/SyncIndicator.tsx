import { useState } from 'react'
import { Plural, Trans, useLingui } from '@lingui/react/macro'
import { Spinner } from '../../components/ui/Spinner'
import { formatRecent } from '../../lib/format'
import { useLocale } from '../../i18n/use-locale'
import { useOutbox, useSyncStatus, type SyncHandle } from '../../sync/use-sync'
import { SyncPanel } from './SyncPanel'
import { summarize } from './sync-summary'

/**
 * The sync state in the shell: online or offline, how many changes wait, how many the server
 * refused, and when the last sync finished. Opens the panel where waiting and refused changes are
 * listed and can be retried or discarded.
 */
export function SyncIndicator({ handle, className }: { handle: SyncHandle; className?: string }) {
  const { t } = useLingui()
  const locale = useLocale()
  const status = useSyncStatus(handle)
  const outbox = useOutbox(handle) ?? []
  const summary = summarize(status, outbox)
  const [open, setOpen] = useState(false)
  const { pending, problems } = summary
  const lastSynced = summary.lastSyncedAt ? formatRecent(summary.lastSyncedAt, locale) : null

  return (
    <>
      <button
        type="button"
        className={['sync-indicator', `sync-${summary.state}`, className ?? ''].filter(Boolean).join(' ')}
        aria-haspopup="dialog"
        onClick={() => setOpen(true)}
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
            {pending > 0 && (
              <span className="sync-count">
                {' · '}
                <Plural value={pending} one="# pending" other="# pending" />
              </span>
            )}
            {problems > 0 && (
              <span className="sync-count sync-count-problem">
                {' · '}
                <Plural value={problems} one="# rejected" other="# rejected" />
              </span>
            )}
          </span>
          <span className="sync-line sync-line-muted">
            {status.syncing ?
              <Trans>Syncing…</Trans>
            : lastSynced ?
              <Trans>Synced {lastSynced}</Trans>
            : <Trans>Never synced</Trans>}
          </span>
        </span>
        <span className="sr-only">{t`Show sync details`}</span>
      </button>
      <SyncPanel open={open} onClose={() => setOpen(false)} handle={handle} outbox={outbox} summary={summary} />
    </>
  )
}
