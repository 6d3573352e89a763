import { useCallback, useEffect, useState } from 'react'
import { Plural, Trans, useLingui } from '@lingui/react/macro'
import { Link } from '@tanstack/react-router'
import type { ClosedMonth, JournalPage } from '../../../shared/contract/bookkeeping'
import { monthHasEnded, monthRange, previousMonth } from '../../../shared/domain/bookkeeping'
import { isIsoDate } from '../../../shared/domain/statistics-period'
import { isCompanyAdminStaff } from '../../../shared/domain/roles'
import { Alert } from '../../components/ui/Alert'
import { Button, buttonClass } from '../../components/ui/Button'
import { Modal } from '../../components/ui/Modal'
import { Spinner } from '../../components/ui/Spinner'
import { Switch } from '../../components/ui/Switch'
import { Table } from '../../components/ui/Table'
import { TextField } from '../../components/ui/TextField'
import { useLocale } from '../../i18n/use-locale'
import { createActionKey, errorMessage } from '../../lib/api'
import { formatDate, formatDateTime, formatNumber, todayIso, type Locale } from '../../lib/format'
import { usePageTitle } from '../../lib/use-page-title'
import { useSync, useSyncStatus } from '../../sync/use-sync'
import { OfflineReason, offlineDisabled } from '../../components/sync/OfflineReason'
import { useSession } from '../auth/session'
import { roleOf } from '../shell/navigation'
import { closeMonth, fetchClosedMonths, fetchJournal, offlineOf } from './bookkeeping-api'
import { ExportActions } from './ExportActions'
import './bookkeeping.css'

type Entry = JournalPage['entries'][number]
type JournalState =
  | { status: 'loading' }
  | { status: 'ready'; page: JournalPage; entries: Entry[]; loadingMore: boolean }
  | { status: 'error'; offline: boolean; message: string }

/** Kroner with two decimals, debit-positive (the journal's sign), without the currency. */
const Amount = ({ ore, locale }: { ore: number; locale: Locale }) => <td className="cell-number cell-nowrap">{formatNumber(ore / 100, locale, 2)}</td>

export const monthName = (month: string, locale: Locale) =>
  new Intl.DateTimeFormat(locale === 'da' ? 'da-DK' : 'en-GB', { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(new Date(`${month}-01T00:00:00Z`))

/**
 * Bookkeeping (route /bookkeeping, decision 0067): the journal of a period for
 * the accountant — totals per account and the entries — exported as CSV or xlsx (only entries not
 * exported before, by default), and months closed for good. Company admin staff. It needs the
 * connection and says so offline.
 */
export function BookkeepingPage() {
  const { t } = useLingui()
  const locale = useLocale()
  usePageTitle(t`Bookkeeping`)
  const user = useSession().user
  const allowed = user ? isCompanyAdminStaff(roleOf(user)) : false
  const companyId = allowed ? (user?.currentCompany?.id ?? null) : null
  const [period, setPeriod] = useState(() => monthRange(previousMonth(todayIso())))
  const [onlyNew, setOnlyNew] = useState(true)
  const [state, setState] = useState<JournalState>({ status: 'loading' })
  const [generation, setGeneration] = useState(0)
  const [closed, setClosed] = useState<ClosedMonth[]>([])
  const valid = isIsoDate(period.from) && isIsoDate(period.to) && period.from <= period.to
  const reload = useCallback(() => setGeneration((g) => g + 1), [])

  useEffect(() => {
    if (!companyId || !valid) return
    const abort = new AbortController()
    setState((s) => (s.status === 'ready' ? s : { status: 'loading' }))
    fetchJournal(companyId, { ...period, onlyNew }, abort.signal).then(
      (page) => setState({ status: 'ready', page, entries: page.entries, loadingMore: false }),
      (err: unknown) => {
        if (!abort.signal.aborted) setState({ status: 'error', offline: offlineOf(err), message: errorMessage(err, '') })
      },
    )
    fetchClosedMonths(companyId).then(setClosed, () => {})
    return () => abort.abort()
  }, [companyId, period, onlyNew, valid, generation])

  async function more() {
    if (state.status !== 'ready' || !state.page.nextCursor || !companyId) return
    setState({ ...state, loadingMore: true })
    try {
      const page = await fetchJournal(companyId, { ...period, onlyNew, cursor: state.page.nextCursor })
      // A later page carries no totals (decision 0067): the first page's stay.
      const kept = {
        totals: state.page.totals,
        vouchers: state.page.vouchers,
        unexported: state.page.unexported,
        unexportedByFormat: state.page.unexportedByFormat,
      }
      setState({ status: 'ready', page: { ...page, ...kept }, entries: [...state.entries, ...page.entries], loadingMore: false })
    } catch (err) {
      setState({ status: 'error', offline: offlineOf(err), message: errorMessage(err, '') })
    }
  }

  const month = period.from.slice(0, 7)
  const wholeMonth = monthRange(month).from === period.from && monthRange(month).to === period.to

  return (
    <div className="page bookkeeping-page">
      <div className="page-header">
        <h1>
          <Trans>Bookkeeping</Trans>
        </h1>
        {allowed && (
          <Link to="/bookkeeping/accounts" className={buttonClass('secondary')}>
            <Trans>Account plan</Trans>
          </Link>
        )}
      </div>
      {!allowed || !companyId ?
        <Alert variant="info">
          <Trans>Bookkeeping is for the association's administrator, accountant and chairman.</Trans>
        </Alert>
      : <>
          <p className="field-hint">
            <Trans>
              The journal holds the money that moved: collected charges and refunds on their payment date, and invoices paid outside Vipps MobilePay on the day
              they were paid. Amounts are in kroner, positive on the debit side of the account.
            </Trans>
          </p>
          <fieldset className="bookkeeping-period">
            <legend>
              <Trans>Period</Trans>
            </legend>
            <TextField
              label={t`Month`}
              type="month"
              value={wholeMonth ? month : ''}
              onChange={(e) => /^\d{4}-\d{2}$/.test(e.target.value) && setPeriod(monthRange(e.target.value))}
            />
            <TextField label={t`From`} type="date" value={period.from} onChange={(e) => setPeriod({ ...period, from: e.target.value })} />
            <TextField label={t`To`} type="date" value={period.to} onChange={(e) => setPeriod({ ...period, to: e.target.value })} />
            <Switch label={t`Only entries not yet exported`} checked={onlyNew} onChange={setOnlyNew} />
          </fieldset>
          {!valid ?
            <Alert variant="error">
              <Trans>Choose a period whose end is not before its start.</Trans>
            </Alert>
          : state.status === 'loading' ?
            <Spinner label={t`Loading the journal`} />
          : state.status === 'error' ?
            <Alert variant={state.offline ? 'info' : 'error'}>
              {state.offline ? t`You are offline. Bookkeeping needs a connection.` : state.message || t`The journal could not be loaded.`}
            </Alert>
          : <Journal state={state} locale={locale} onMore={() => void more()} />}
          {valid && state.status === 'ready' && (
            <ExportActions companyId={companyId} period={period} onlyNew={onlyNew} counts={state.page} onExported={reload} />
          )}
          <CloseMonth companyId={companyId} closed={closed} onClosed={reload} />
        </>
      }
    </div>
  )
}

function Journal({ state, locale, onMore }: { state: Extract<JournalState, { status: 'ready' }>; locale: Locale; onMore: () => void }) {
  const { t } = useLingui()
  const { page, entries } = state
  const vouchers = page.vouchers ?? 0
  const unexported = page.unexported ?? 0
  const totals = page.totals ?? []
  return (
    <section aria-labelledby="journal-heading">
      <h2 id="journal-heading">
        <Trans>Journal</Trans>
      </h2>
      <p>
        <Plural value={vouchers} one="# voucher in the period" other="# vouchers in the period" />
        {' · '}
        <Plural value={unexported} one="# not yet exported" other="# not yet exported" />
      </p>
      {totals.length > 0 && (
        <Table caption={t`Totals per account for the period`} className="table-bookkeeping-totals">
          <thead>
            <tr>
              <th scope="col">
                <Trans>Account</Trans>
              </th>
              <th scope="col" className="cell-number">
                <Trans>Amount (DKK)</Trans>
              </th>
            </tr>
          </thead>
          <tbody>
            {totals.map((x) => (
              <tr key={x.account}>
                <td>{x.account}</td>
                <Amount ore={x.amount} locale={locale} />
              </tr>
            ))}
          </tbody>
        </Table>
      )}
      {entries.length === 0 ?
        <p className="empty">
          <Trans>No entries in this period.</Trans>
        </p>
      : <Table caption={t`Entries`} className="table-bookkeeping">
          <thead>
            <tr>
              <th scope="col">
                <Trans>Date</Trans>
              </th>
              <th scope="col">
                <Trans>Voucher</Trans>
              </th>
              <th scope="col">
                <Trans>Account</Trans>
              </th>
              <th scope="col">
                <Trans>Contra account</Trans>
              </th>
              <th scope="col">
                <Trans>VAT code</Trans>
              </th>
              <th scope="col" className="cell-number">
                <Trans>Amount (DKK)</Trans>
              </th>
              <th scope="col">
                <Trans>Text</Trans>
              </th>
              <th scope="col">
                <Trans>Exported before</Trans>
              </th>
            </tr>
          </thead>
          <tbody>
            {entries.map((e) => (
              <tr key={`${e.invoiceId}:${e.event}:${e.account}:${e.vatCode}`}>
                <td className="cell-nowrap">{formatDate(e.date, locale, 'short')}</td>
                <td>{e.voucher}</td>
                <td>{e.account}</td>
                <td>{e.contraAccount}</td>
                <td>{e.vatCode}</td>
                <Amount ore={e.amount} locale={locale} />
                <td className="bookkeeping-text">{e.text}</td>
                <td className="cell-nowrap">{e.exportedAt ? formatDate(e.exportedAt, locale, 'short') : ''}</td>
              </tr>
            ))}
          </tbody>
        </Table>
      }
      {page.nextCursor && (
        <div className="form-actions">
          <Button variant="secondary" busy={state.loadingMore} onClick={onMore}>
            <Trans>Show more</Trans>
          </Button>
        </div>
      )}
    </section>
  )
}

function CloseMonth({ companyId, closed, onClosed }: { companyId: string; closed: ClosedMonth[]; onClosed: () => void }) {
  const { t } = useLingui()
  const locale = useLocale()
  const [month, setMonth] = useState(() => previousMonth(todayIso()))
  const [confirming, setConfirming] = useState(false)
  const [busy, setBusy] = useState(false)
  const [notice, setNotice] = useState<{ variant: 'success' | 'error' | 'info'; text: string } | null>(null)
  const [action] = useState(createActionKey)
  const online = useSyncStatus(useSync()).online
  const ended = /^\d{4}-\d{2}$/.test(month) && monthHasEnded(month, todayIso())
  // Closing a month closes every month before it (decision 0079): the closed period ends with the latest close.
  const latest = closed.reduce<string | null>((m, c) => (m === null || c.month > m ? c.month : m), null)
  const already = latest !== null && /^\d{4}-\d{2}$/.test(month) && month <= latest
  const latestName = latest ? monthName(latest, locale) : ''
  const name = /^\d{4}-\d{2}$/.test(month) ? monthName(month, locale) : ''

  async function confirm() {
    setBusy(true)
    try {
      await closeMonth(companyId, month, action)
      setNotice({ variant: 'success', text: t`${name} is closed.` })
      setConfirming(false)
      onClosed()
    } catch (err) {
      setConfirming(false)
      setNotice(
        offlineOf(err) ?
          { variant: 'info', text: t`You are offline. The month was not closed; try again when you are online.` }
        : { variant: 'error', text: errorMessage(err, t`The month could not be closed.`) },
      )
    } finally {
      setBusy(false)
    }
  }

  return (
    <section aria-labelledby="close-heading" className="bookkeeping-section">
      <h2 id="close-heading">
        <Trans>Close a month</Trans>
      </h2>
      {notice && <Alert variant={notice.variant}>{notice.text}</Alert>}
      <div className="bookkeeping-close">
        <TextField label={t`Month to close`} type="month" value={month} onChange={(e) => setMonth(e.target.value)} />
        <Button variant="danger" {...offlineDisabled(online, 'close-offline')} disabled={!online || !ended || already} onClick={() => setConfirming(true)}>
          <Trans>Close month…</Trans>
        </Button>
      </div>
      {!online && <OfflineReason id="close-offline">{t`You are offline. Closing a month needs a connection.`}</OfflineReason>}
      {!ended && name && (
        <p className="field-hint">
          <Trans>A month can only be closed once it has ended.</Trans>
        </p>
      )}
      {already && (
        <p className="field-hint">
          <Trans>{name} is already closed.</Trans>
        </p>
      )}
      <h3>
        <Trans>Closed months</Trans>
      </h3>
      {closed.length === 0 ?
        <p className="empty">
          <Trans>No month is closed yet.</Trans>
        </p>
      : <>
          <p>
            <Trans>The books are closed up to and including {latestName}: no month before it can change either.</Trans>
          </p>
          <ul className="bookkeeping-closed">
            {closed.map((c) => {
              const closedName = monthName(c.month, locale)
              const when = formatDateTime(c.closedAt, locale)
              const who = c.closedByName
              return (
                <li key={c.month}>
                  <Trans>
                    {closedName}: closed {when} by {who}
                  </Trans>
                </li>
              )
            })}
          </ul>
        </>
      }
      <Modal
        open={confirming}
        title={t`Close ${name}?`}
        onClose={() => setConfirming(false)}
        closeLabel={t`Cancel`}
        footer={
          <>
            <Button variant="secondary" onClick={() => setConfirming(false)}>
              <Trans>Cancel</Trans>
            </Button>
            <Button variant="danger" busy={busy} onClick={() => void confirm()}>
              <Trans>Close {name}</Trans>
            </Button>
          </>
        }
      >
        <p>
          <Trans>
            Invoices, credit notes and payments dated in {name} or any month before it can then no longer change: marking an invoice paid on a day in them is
            refused, and a correction is recorded as a new credit note in an open month. The month keeps today's account plan. A closed month cannot be
            reopened.
          </Trans>
        </p>
      </Modal>
    </section>
  )
}
