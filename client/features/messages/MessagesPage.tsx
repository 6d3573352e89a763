import { Trans, useLingui } from '@lingui/react/macro'
import { Link, useLocation, useNavigate } from '@tanstack/react-router'
import { messageStatuses, type MessageStatus } from '../../../shared/contract/messages'
import { Badge } from '../../components/ui/Badge'
import { buttonClass } from '../../components/ui/Button'
import { Spinner } from '../../components/ui/Spinner'
import { Table } from '../../components/ui/Table'
import { useLocale } from '../../i18n/use-locale'
import { formatDate } from '../../lib/format'
import { usePageTitle } from '../../lib/use-page-title'
import { useSync } from '../../sync/use-sync'
import { useSession } from '../auth/session'
import { messagesBase } from './base-path'
import { messageStatusLabels, recipientText, statusBadge } from './labels'
import { statusFor, useMessages } from './use-messages'

/**
 * The message list (docs/PRODUCT.md §2 Messages): filter badges All, Draft, Sent, Delivered, Read (query
 * `status`), subject, recipient, status and created. Read from the local copy, so it works offline.
 */
export function MessagesPage({ status }: { status?: MessageStatus }) {
  const { t, i18n } = useLingui()
  const locale = useLocale()
  usePageTitle(t`Messages`)
  const base = messagesBase(useLocation().pathname)
  const navigate = useNavigate()
  const userId = useSession().user?.id
  const rows = useMessages(useSync())
  const shown = rows?.filter((m) => !status || statusFor(m, userId) === status) ?? []
  const filters: Array<MessageStatus | undefined> = [undefined, ...messageStatuses]

  return (
    <div className="page">
      <div className="page-header">
        <h1>
          <Trans>Messages</Trans>
        </h1>
        <Link to={`${base}/create` as never} className={buttonClass('primary')} aria-label={t`Write a message`}>
          <span aria-hidden="true">+ </span>
          <Trans>Write</Trans>
        </Link>
      </div>
      <div role="group" aria-label={t`Filter by status`} className="filter-bar">
        {filters.map((f) => (
          <button
            key={f ?? 'ALL'}
            type="button"
            className="filter-option"
            aria-pressed={status === f}
            onClick={() => void navigate({ to: base as never, search: (f ? { status: f } : {}) as never })}
          >
            {f ? i18n._(messageStatusLabels[f]) : t`All`}
          </button>
        ))}
      </div>
      {!rows ?
        <Spinner label={t`Loading messages`} />
      : shown.length === 0 ?
        <p className="empty">
          <Trans>No messages</Trans>
        </p>
      : <Table caption={t`Messages`} captionHidden className="table-messages">
          <thead>
            <tr>
              <th scope="col">
                <Trans>Subject</Trans>
              </th>
              <th scope="col">
                <Trans>Recipient</Trans>
              </th>
              <th scope="col">
                <Trans>Status</Trans>
              </th>
              <th scope="col">
                <Trans>Created</Trans>
              </th>
            </tr>
          </thead>
          <tbody>
            {shown.map((m) => {
              const s = statusFor(m, userId)
              return (
                <tr key={m.id}>
                  <th scope="row" className="cell-wrap">
                    <Link to={`${base}/${m.id}` as never}>{m.subject}</Link>
                    {m.anonymous && (
                      <span className="muted">
                        {' '}
                        · <Trans>anonymous</Trans>
                      </span>
                    )}
                  </th>
                  <td className="cell-wrap" data-label={t`Recipient`}>
                    {recipientText(m.recipient, (d) => i18n._(d))}
                  </td>
                  <td data-label={t`Status`}>
                    <Badge variant={statusBadge(s)}>{i18n._(messageStatusLabels[s])}</Badge>
                    {m.scheduledAt && s === 'DRAFT' && (
                      <span className="muted">
                        {' '}
                        · <Trans>scheduled</Trans>
                      </span>
                    )}
                    {m._pending && (
                      <span className="pending-marker">
                        <Trans>Not yet synced</Trans>
                      </span>
                    )}
                    {m._rejected && (
                      <p className="field-error" role="status">
                        {m._rejected}
                      </p>
                    )}
                  </td>
                  <td className="cell-nowrap" data-label={t`Created`}>
                    {m.createdAt ? formatDate(m.createdAt, locale, 'short') : ''}
                  </td>
                </tr>
              )
            })}
          </tbody>
        </Table>
      }
    </div>
  )
}
