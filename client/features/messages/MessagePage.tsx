import { useEffect, useRef, useState } from 'react'
import { Trans, useLingui } from '@lingui/react/macro'
import { Link, useLocation, useNavigate } from '@tanstack/react-router'
import type { Message } from '../../../shared/contract/messages'
import { Alert } from '../../components/ui/Alert'
import { Badge } from '../../components/ui/Badge'
import { Button, buttonClass } from '../../components/ui/Button'
import { Spinner } from '../../components/ui/Spinner'
import { Table } from '../../components/ui/Table'
import { Tabs } from '../../components/ui/Tabs'
import { useLocale } from '../../i18n/use-locale'
import { formatDateTime } from '../../lib/format'
import { sanitizeHtml } from '../../lib/safe-html'
import { showToast } from '../../lib/toast'
import { usePageTitle } from '../../lib/use-page-title'
import { useSync, type SyncHandle } from '../../sync/use-sync'
import { useSession } from '../auth/session'
import { openAttachment } from './attachments'
import { messagesBase } from './base-path'
import { messageStatusLabels, messageTypeWords, recipientText, statusBadge } from './labels'
import { deleteDraft, markViewed, sendDraft } from './message-mutations'
import { useQueuedText } from '../../components/sync/QueuedNotice'
import type { Mutation } from '../../sync/local-db'
import { awaitServer } from '../../sync/await-server'
import { NotKeptError } from '../../sync/outcomes'
import { useNotKeptText } from '../sync-status/refusal'
import { statusFor, useMessage, type MessageView } from './use-messages'
import { RecordMissing } from '../../components/sync/RecordMissing'
import { personName, personEmail } from '../../../shared/erased-person'

/** One message (docs/PRODUCT.md §2): tabs Message and Recipients, and the footer sentence. Opening it marks it viewed. */
export function MessagePage({ id }: { id: string }) {
  const { t } = useLingui()
  usePageTitle(t`Message`)
  const base = messagesBase(useLocation().pathname)
  const handle = useSync()
  const record = useMessage(handle, id)
  const row = record?.row as MessageView | null | undefined

  return (
    <div className="page message-page">
      <div className="page-header">
        <Link to={base as never} className={buttonClass('link')}>
          <Trans>← Back to messages</Trans>
        </Link>
      </div>
      {!handle || record === undefined || (!row && record.absent === 'loading') ?
        <Spinner label={t`Loading message`} />
      : !row ?
        <RecordMissing absent={record.absent === 'offline' ? 'offline' : 'notFound'} notFound={<Trans>Message not found.</Trans>} />
      : <MessageDetails handle={handle} row={row} base={base} />}
    </div>
  )
}

function MessageDetails({ handle, row, base }: { handle: SyncHandle; row: MessageView; base: string }) {
  const { t, i18n } = useLingui()
  const locale = useLocale()
  const navigate = useNavigate()
  const user = useSession().user
  const [tab, setTab] = useState<'message' | 'recipients'>('message')
  const status = statusFor(row, user?.id)
  const mine = !!user && row.sender?.id === user.id
  const draft = row.status === 'DRAFT'

  // Opened tracking: once per opening of a message the user received and has not viewed yet.
  const marked = useRef(false)
  useEffect(() => {
    const own = row.recipients?.find((r) => r.userId === user?.id)
    if (!user || !own || own.viewedAt || marked.current || row._pending) return
    marked.current = true
    void markViewed(handle, row.id, user.id)
  }, [handle, row, user])

  // Sent only once the server has it; until then queued (docs/OFFLINE.md "Conflicts and refusals"). A refusal shows on the message and in the sync panel.
  const queuedText = useQueuedText()
  const notKeptText = useNotKeptText()
  const send = async () => {
    let queued: Mutation
    try {
      queued = await sendDraft(handle, row.id)
    } catch (error) {
      if (error instanceof NotKeptError) return showToast('error', notKeptText(error))
      throw error
    }
    const result = await awaitServer(handle, [queued])
    if (result.outcome === 'accepted') showToast('success', t`The message was sent.`)
    else if (result.outcome === 'queued') showToast('info', queuedText(result.waitingFor))
  }
  const remove = async () => {
    if (!window.confirm(t`Delete this draft?`)) return
    await deleteDraft(handle, row.id)
    void navigate({ to: base as never })
  }

  const type = i18n._(messageTypeWords[row.type ?? 'MESSAGE'])
  const sender = personName(row.sender?.fullName, i18n) ?? t`an anonymous member`
  const date = row.sentAt ? formatDateTime(row.sentAt, locale) : ''
  const scheduled = row.sendAt ? formatDateTime(row.sendAt, locale) : (row.scheduledAt ?? '').replace('T', ' ')

  return (
    <>
      <h1 className="message-subject">{row.subject}</h1>
      <p className="message-meta">
        <Badge variant={statusBadge(status)}>{i18n._(messageStatusLabels[status])}</Badge>{' '}
        <span className="muted">
          <Trans>To:</Trans> {recipientText(row.recipient, (d) => i18n._(d))}
        </span>
        {row._pending && (
          <span className="pending-marker">
            <Trans>Not yet synced</Trans>
          </span>
        )}
      </p>
      {row._rejected && <Alert variant="error">{row._rejected}</Alert>}
      {draft && row.scheduledAt && (
        <Alert variant="info">
          <Trans>Scheduled to be sent {scheduled}.</Trans>
        </Alert>
      )}
      {mine && draft && (
        <div className="form-actions message-actions">
          <Link to={`${base}/${row.id}/edit` as never} className={buttonClass('secondary')}>
            <Trans>Edit</Trans>
          </Link>
          <Button onClick={() => void send()}>
            <Trans>Send now</Trans>
          </Button>
          <Button variant="danger" onClick={() => void remove()}>
            <Trans>Delete draft</Trans>
          </Button>
        </div>
      )}
      <Tabs
        label={t`Message`}
        selected={tab}
        onSelect={setTab}
        tabs={[
          { key: 'message', label: t`Message` },
          { key: 'recipients', label: t`Recipients` },
        ]}
      >
        {tab === 'message' ?
          <div className="card">
            <div className="message-body" dangerouslySetInnerHTML={{ __html: sanitizeHtml(row.body ?? '') }} />
            {!!row.attachments?.length && (
              <ul className="message-attachments" aria-label={t`Attachments`}>
                {row.attachments.map((a) => (
                  <li key={a.id}>
                    <button
                      type="button"
                      className="link-button"
                      onClick={() => void openAttachment(row.id, a.id).catch(() => showToast('error', t`The file could not be opened.`))}
                    >
                      📎 {a.name}
                    </button>
                  </li>
                ))}
              </ul>
            )}
          </div>
        : <Recipients recipients={row.recipients ?? []} />}
      </Tabs>
      {row.sentAt && (
        <p className="table-footer">
          <Trans>
            The message was a {type} sent by {sender} on {date}.
          </Trans>
        </p>
      )}
    </>
  )
}

function Recipients({ recipients }: { recipients: Message['recipients'] }) {
  const { t, i18n } = useLingui()
  const locale = useLocale()
  if (!recipients.length)
    return (
      <p className="empty">
        <Trans>The recipients are fixed when the message is sent.</Trans>
      </p>
    )
  const when = (v: string | null) => (v ? formatDateTime(v, locale) : t`N/A`)
  return (
    <Table caption={t`Recipients`} captionHidden className="table-recipients">
      <thead>
        <tr>
          <th scope="col">
            <Trans>E-mail</Trans>
          </th>
          <th scope="col">
            <Trans>Received</Trans>
          </th>
          <th scope="col">
            <Trans>Viewed</Trans>
          </th>
        </tr>
      </thead>
      <tbody>
        {recipients.map((r) => (
          <tr key={r.id}>
            <th scope="row" className="cell-wrap">
              {personEmail(r.emailAddress)}
              <br />
              <span className="muted">{personName(r.fullName, i18n)}</span>
            </th>
            <td data-label={t`Received`}>{when(r.receivedAt)}</td>
            <td data-label={t`Viewed`}>{when(r.viewedAt)}</td>
          </tr>
        ))}
      </tbody>
    </Table>
  )
}
