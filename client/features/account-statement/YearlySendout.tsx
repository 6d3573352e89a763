import { useEffect, useState } from 'react'
import { Plural, Trans, useLingui } from '@lingui/react/macro'
import { Alert } from '../../components/ui/Alert'
import { Button } from '../../components/ui/Button'
import { ConfirmDialog } from '../../components/ui/ConfirmDialog'
import { useLocale } from '../../i18n/use-locale'
import { ApiError } from '../../lib/api'
import { formatDateTime } from '../../lib/format'
import { useStatementSendouts } from './use-statement-sendouts'

/**
 * Sending the year's account statement to every member (decision 0068), for company
 * admin staff: what was sent (to how many, when) or is queued, and the button when the year has
 * not been sent. A year goes out once; the server refuses it again, so a double click sends nothing
 * twice. It needs the connection.
 */
export function YearlySendout({ companyId, year }: { companyId: string; year: number }) {
  const { t } = useLingui()
  const locale = useLocale()
  const { state, send: queue, reload, round } = useStatementSendouts(companyId)
  const [asking, setAsking] = useState(false)
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)

  // A queued sendout goes out within seconds: look again until it has.
  const sendout = state.status === 'ready' ? state.sendouts.find((s) => s.year === year) : undefined
  useEffect(() => {
    if (sendout?.status !== 'QUEUED') return
    const timer = setTimeout(reload, 3000)
    return () => clearTimeout(timer)
  }, [sendout?.status, round, reload])

  async function send() {
    setBusy(true)
    setError(null)
    try {
      await queue(year)
    } catch (err) {
      setError(
        err instanceof ApiError && err.status === 0 ? t`You are offline. Sending the statements needs a connection.`
        : err instanceof ApiError ? err.message
        : '',
      )
    } finally {
      setAsking(false)
      setBusy(false)
    }
  }

  const sentAt = sendout?.sentAt ? formatDateTime(sendout.sentAt, locale) : ''
  const by = sendout?.requestedBy ?? ''
  return (
    <section className="card statement-sendout no-print" aria-labelledby="statement-sendout-title">
      <h2 id="statement-sendout-title">
        <Trans>Send the year's statements to all members</Trans>
      </h2>
      {state.status === 'error' ?
        <p className="muted">
          {state.offline ? t`You are offline. Sending the statements needs a connection.` : t`What was sent could not be loaded. Please try again.`}
        </p>
      : state.status === 'loading' ?
        <p className="muted">
          <Trans>Loading…</Trans>
        </p>
      : sendout?.status === 'SENT' ?
        <Alert variant="success">
          <Plural
            value={sendout.recipients ?? 0}
            one={`The statements for ${year} were sent to # member on ${sentAt} (asked for by ${by}).`}
            other={`The statements for ${year} were sent to # members on ${sentAt} (asked for by ${by}).`}
          />
        </Alert>
      : sendout?.status === 'QUEUED' ?
        <Alert variant="info">
          <Trans>
            The statements for {year} are queued since {formatDateTime(sendout.requestedAt, locale)} and go out to every member within a minute.
          </Trans>
        </Alert>
      : <>
          <p className="muted">
            <Trans>
              Every member gets an e-mail in their own language and a notification, with a link to their printable statement for {year}. Each year can be sent
              once.
            </Trans>
          </p>
          <Button onClick={() => setAsking(true)}>
            <Trans>Send the statements for {year}</Trans>
          </Button>
        </>
      }
      {error && <Alert variant="error">{error}</Alert>}
      <ConfirmDialog
        open={asking}
        title={t`Send the statements for ${year}?`}
        confirmLabel={t`Send to all members`}
        tone="primary"
        busy={busy}
        onConfirm={() => void send()}
        onCancel={() => setAsking(false)}
      >
        <p>
          <Trans>Every member of the association gets their account statement for {year}. This cannot be undone, and the year cannot be sent again.</Trans>
        </p>
      </ConfirmDialog>
    </section>
  )
}
