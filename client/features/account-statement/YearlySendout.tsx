import { useEffect, useState } from 'react'
import { Plural, Trans, useLingui } from '@lingui/react/macro'
import type { StatementSendout } from '../../../shared/contract/account-statement'
import { Alert } from '../../components/ui/Alert'
import { Button } from '../../components/ui/Button'
import { ConfirmDialog } from '../../components/ui/ConfirmDialog'
import { useLocale } from '../../i18n/use-locale'
import { ApiError } from '../../lib/api'
import { formatDate, formatDateTime, todayIso, type Locale } from '../../lib/format'
import { useStatementSendouts } from './use-statement-sendouts'

/** The server's refusal as it came (in the user's language), or the offline notice. */
function useFailureText() {
  const { t } = useLingui()
  return (err: unknown) =>
    err instanceof ApiError && err.status === 0 ? t`You are offline. Sending the statements needs a connection.`
    : err instanceof ApiError ? err.message
    : ''
}

/** One busy action at a time, its refusal kept to be shown. */
function useRun() {
  const failure = useFailureText()
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const run = async (fn: () => Promise<unknown>, after?: () => void): Promise<boolean> => {
    setBusy(true)
    setError(null)
    try {
      await fn()
      return true
    } catch (err) {
      setError(failure(err))
      return false
    } finally {
      setBusy(false)
      after?.()
    }
  }
  return { busy, error, run }
}

/**
 * The statements of a year to every member (decisions 0068 and 0081), for company admin staff:
 * each sendout of the year (yearly or interim: when, to how many, how many not reached), with
 * "Resend to those not reached"; "Send interim statement" while the year runs and "Send yearly
 * statement" once it has ended (once). It needs the connection; the server refuses a second send.
 */
export function YearlySendout({ companyId, year }: { companyId: string; year: number }) {
  const { t } = useLingui()
  const locale = useLocale()
  const { state, send, sendInterim, resend, reload, round } = useStatementSendouts(companyId)
  const [asking, setAsking] = useState<'YEARLY' | 'INTERIM' | null>(null)
  const { busy, error, run } = useRun()
  const today = todayIso()
  const ended = today > `${year}-12-31`
  const running = !ended && today >= `${year}-01-01`
  const ofYear = state.status === 'ready' ? state.sendouts.filter((s) => s.year === year) : []
  const yearly = ofYear.find((s) => s.kind === 'YEARLY')
  const moving = ofYear.some((s) => s.status === 'QUEUED' || s.resending)

  // A queued sendout or resend goes out within seconds: look again until it has.
  useEffect(() => {
    if (!moving) return
    const timer = setTimeout(reload, 3000)
    return () => clearTimeout(timer)
  }, [moving, round, reload])

  const confirm = () =>
    void run(
      async () => await (asking === 'YEARLY' ? send(year) : sendInterim(year)),
      () => setAsking(null),
    )
  const todayText = formatDate(today, locale, 'long')
  return (
    <section className="card statement-sendout no-print" aria-labelledby="statement-sendout-title">
      <h2 id="statement-sendout-title">
        <Trans>Statements to all members for {year}</Trans>
      </h2>
      {state.status === 'error' ?
        <p className="muted">
          {state.offline ? t`You are offline. Sending the statements needs a connection.` : t`What was sent could not be loaded. Please try again.`}
        </p>
      : state.status === 'loading' ?
        <p className="muted">
          <Trans>Loading…</Trans>
        </p>
      : <>
          {ofYear.length > 0 && (
            <ul className="statement-sendouts">
              {ofYear.map((s) => (
                <SendoutItem key={s.id} sendout={s} locale={locale} busy={busy} onResend={() => void run(async () => await resend(s.id))} />
              ))}
            </ul>
          )}
          <SendActions
            year={year}
            ended={ended}
            running={running}
            yearly={yearly}
            interimToday={ofYear.some((s) => s.kind === 'INTERIM' && s.through === today)}
            onAsk={setAsking}
          />
        </>
      }
      {error && <Alert variant="error">{error}</Alert>}
      <SendConfirm asking={asking} year={year} todayText={todayText} busy={busy} onConfirm={confirm} onCancel={() => setAsking(null)} />
    </section>
  )
}

/** Asks before a sendout to every member: the yearly statement, or an interim statement to today. */
function SendConfirm(p: { asking: 'YEARLY' | 'INTERIM' | null; year: number; todayText: string; busy: boolean; onConfirm: () => void; onCancel: () => void }) {
  const { t } = useLingui()
  const { asking, year, todayText } = p
  return (
    <ConfirmDialog
      open={asking !== null}
      title={asking === 'YEARLY' ? t`Send the yearly statement for ${year}?` : t`Send an interim statement for 1 January to ${todayText}?`}
      confirmLabel={asking === 'YEARLY' ? t`Send to all members` : t`Send the interim statement`}
      tone="primary"
      busy={p.busy}
      onConfirm={p.onConfirm}
      onCancel={p.onCancel}
    >
      <p>
        {asking === 'YEARLY' ?
          <Trans>
            Every member of the association gets their account statement for {year}. The yearly statement is sent once; you can resend it to those not reached.
          </Trans>
        : <Trans>
            Every member gets their statement for 1 January to {todayText}, marked as an interim statement. The yearly statement can still be sent once {year}{' '}
            has ended.
          </Trans>
        }
      </p>
    </ConfirmDialog>
  )
}

/** The buttons of the year: an interim statement while it runs, the yearly statement once it has ended and not been sent. */
function SendActions(p: {
  year: number
  ended: boolean
  running: boolean
  yearly: StatementSendout | undefined
  interimToday: boolean
  onAsk: (kind: 'YEARLY' | 'INTERIM') => void
}) {
  const { year } = p
  const next = year + 1
  if (p.running)
    return (
      <>
        <p className="muted">
          <Trans>
            {year} has not ended: the yearly statement can be sent from 1 January {next}. Until then, an interim statement shows each member their account from
            1 January to today.
          </Trans>{' '}
          {p.interimToday && <Trans>Today's interim statement has been sent; the next can be sent tomorrow.</Trans>}
        </p>
        {!p.interimToday && (
          <Button variant="secondary" onClick={() => p.onAsk('INTERIM')}>
            <Trans>Send interim statement</Trans>
          </Button>
        )}
      </>
    )
  if (!p.ended || p.yearly) return null
  return (
    <>
      <p className="muted">
        <Trans>
          Every member gets an e-mail in their own language and a notification, with a link to their printable statement for {year}. The yearly statement is
          sent once.
        </Trans>
      </p>
      <Button onClick={() => p.onAsk('YEARLY')}>
        <Trans>Send yearly statement</Trans>
      </Button>
    </>
  )
}

/** One sendout: what it was, when it went and to how many, and whom it did not reach (with the resend). */
function SendoutItem({ sendout: s, locale, busy, onResend }: { sendout: StatementSendout; locale: Locale; busy: boolean; onResend: () => void }) {
  const sentAt = s.sentAt ? formatDateTime(s.sentAt, locale) : ''
  const queuedAt = formatDateTime(s.requestedAt, locale)
  const by = s.requestedBy
  const through = s.through ? formatDate(s.through, locale, 'long') : ''
  const what = s.kind === 'YEARLY' ? <Trans>Yearly statement</Trans> : <Trans>Interim statement — 1 January to {through}</Trans>
  return (
    <li className="statement-sendout-item">
      <strong>{what}</strong>{' '}
      {s.status === 'QUEUED' ?
        <Trans>queued since {queuedAt}; it goes out to every member within a minute.</Trans>
      : <Plural
          value={s.recipients ?? 0}
          one={`sent on ${sentAt} to # member (asked for by ${by}).`}
          other={`sent on ${sentAt} to # members (asked for by ${by}).`}
        />
      }
      {s.status === 'SENT' && (
        <p className={s.notReached ? 'statement-not-reached' : 'muted'}>
          {s.notReached ?
            <Plural
              value={s.notReached}
              one="# member was not reached (no e-mail address, or the mail failed)."
              other="# members were not reached (no e-mail address, or the mail failed)."
            />
          : <Trans>Every member was reached.</Trans>}{' '}
          {s.resending && <Trans>A resend is on its way.</Trans>}
        </p>
      )}
      {s.status === 'SENT' && !!s.notReached && !s.resending && (
        <Button variant="secondary" disabled={busy} onClick={onResend}>
          <Trans>Resend to those not reached</Trans>
        </Button>
      )}
    </li>
  )
}

/**
 * Resending the year's statement to one member (decision 0081), on a member's statement for company
 * admin staff: one who lost it or changed their e-mail address. The last sendout of the year that went
 * out (the yearly statement, else the newest interim statement). A retry keeps its Idempotency-Key.
 */
export function ResendToMember({ companyId, year, userId, name }: { companyId: string; year: number; userId: string; name: string }) {
  const { state, resend } = useStatementSendouts(companyId)
  const { busy, error, run } = useRun()
  const [sent, setSent] = useState(false)
  const ofYear = state.status === 'ready' ? state.sendouts.filter((s) => s.year === year && s.status === 'SENT') : []
  const target = ofYear.find((s) => s.kind === 'YEARLY') ?? ofYear[0]
  if (!target) return null
  const go = async () => setSent(await run(async () => await resend(target.id, userId)))
  return (
    <section className="card statement-sendout no-print" aria-labelledby="statement-resend-title">
      <h2 id="statement-resend-title">
        <Trans>Send the statement to {name} again</Trans>
      </h2>
      <p className="muted">
        {target.kind === 'YEARLY' ?
          <Trans>For a member who lost the yearly statement for {year} or changed their e-mail address.</Trans>
        : <Trans>For a member who lost the interim statement or changed their e-mail address.</Trans>}
      </p>
      <Button variant="secondary" disabled={busy} onClick={() => void go()}>
        <Trans>Resend to {name}</Trans>
      </Button>
      {sent && !error && (
        <Alert variant="success">
          <Trans>The statement goes out to {name} again within a minute.</Trans>
        </Alert>
      )}
      {error && <Alert variant="error">{error}</Alert>}
    </section>
  )
}
