import { Plural, Trans, useLingui } from '@lingui/react/macro'
import { ChangeProblem, useChangeLabel } from '../../components/sync/ChangeProblem'
import { Badge } from '../../components/ui/Badge'
import { Button } from '../../components/ui/Button'
import { Modal } from '../../components/ui/Modal'
import { formatDateTime } from '../../lib/format'
import { useLocale } from '../../i18n/use-locale'
import { isPending, isProblem, queueActions, useOutbox, useSyncStatus, type SyncHandle } from '../../sync/use-sync'
import { summarize } from './sync-summary'
import { userActions } from './user-actions'
import { OfflineReadinessDetail } from './OfflineReadiness'

/** Details of the sync state: the changes still waiting, and those the user must decide about. */
export function SyncPanel({ open, onClose, handle }: { open: boolean; onClose: () => void; handle: SyncHandle }) {
  const { t } = useLingui()
  const outbox = useOutbox(handle) ?? []
  const summary = summarize(useSyncStatus(handle), outbox)
  const locale = useLocale()
  const label = useChangeLabel()
  const pending = outbox.filter(isPending)
  const problems = outbox.filter(isProblem)
  // In the user's terms: a change made of several internal steps (write + send) is one change.
  const actions = userActions(outbox)
  const waiting = actions.length
  const browserOffline = typeof navigator !== 'undefined' && !navigator.onLine
  const refused = problems.length
  const lastSynced = summary.lastSyncedAt ? formatDateTime(new Date(summary.lastSyncedAt), locale) : null

  return (
    <Modal open={open} title={t`Sync status`} closeLabel={t`Close`} onClose={onClose}>
      <div className="sync-panel">
        <p className={`sync-panel-state sync-${summary.state}`}>
          <span className="sync-dot" aria-hidden="true" />
          {summary.online ?
            <Trans>Online</Trans>
          : <Trans>Offline: your changes are kept on this device and sent when the server can be reached.</Trans>}
        </p>
        <p className="muted">
          {lastSynced ?
            <Trans>Last synced {lastSynced}</Trans>
          : <Trans>Never synced</Trans>}
        </p>
        <OfflineReadinessDetail />
        <div className="form-actions form-actions-start">
          <Button size="sm" variant="secondary" onClick={() => void queueActions(handle).syncNow()}>
            <Trans>Sync now</Trans>
          </Button>
        </div>

        {problems.length > 0 && (
          <section aria-labelledby="sync-problems">
            <h3 id="sync-problems">
              <Plural value={refused} one="# change was not saved" other="# changes were not saved" />
            </h3>
            <ul className="plain-list">
              {problems.map((m) => (
                <li key={m.mutationId}>
                  <ChangeProblem handle={handle} mutation={m} />
                </li>
              ))}
            </ul>
          </section>
        )}

        {actions.length > 0 && (
          <section aria-labelledby="sync-pending">
            <h3 id="sync-pending">
              <Plural value={waiting} one="# change waiting to be sent" other="# changes waiting to be sent" />
            </h3>
            <ul className="plain-list pending-list">
              {actions.map(({ head, steps }) => {
                const all = [head, ...steps]
                return (
                  <li key={head.mutationId} className="pending-item">
                    <span>
                      {label(head)}
                      {steps.length > 0 && <span className="muted"> · {[...new Set(steps.map(label))].join(' · ')}</span>}
                    </span>
                    <span className="muted pending-time">{formatDateTime(new Date(head.createdAt), locale)}</span>
                    {all.some((m) => m.status === 'sending') && (
                      <Badge variant="info">
                        <Trans>Sending…</Trans>
                      </Badge>
                    )}
                    {all.some((m) => m.money) && (
                      <Badge variant="warning">
                        {browserOffline ?
                          <Trans>Will be sent when online</Trans>
                        : <Trans>Will be sent when the server answers</Trans>}
                      </Badge>
                    )}
                  </li>
                )
              })}
            </ul>
          </section>
        )}

        {pending.length === 0 && problems.length === 0 && (
          <p>
            <Trans>All your changes are saved on the server.</Trans>
          </p>
        )}
      </div>
    </Modal>
  )
}
