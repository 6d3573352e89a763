import { useState } from 'react'
import { Plural, Trans, useLingui } from '@lingui/react/macro'
import { Link } from '@tanstack/react-router'
import { MarkPaidRequest, SETTLEMENT_NOTE_MAX, WriteOffRequest, type Debtor, type RetryBlocker } from '../../../shared/contract/billing'
import { isCompanyAdminStaff } from '../../../shared/domain/roles'
import { copenhagenDateOf } from '../../../shared/domain/copenhagen'
import { isIsoDate } from '../../../shared/domain/statistics-period'
import { messages } from '../../../shared/i18n-messages'
import { Alert } from '../../components/ui/Alert'
import { Badge } from '../../components/ui/Badge'
import { Button } from '../../components/ui/Button'
import { Modal } from '../../components/ui/Modal'
import { Spinner } from '../../components/ui/Spinner'
import { Table, ActionsHeader } from '../../components/ui/Table'
import { TextField } from '../../components/ui/TextField'
import { useLocale } from '../../i18n/use-locale'
import { ApiError, createActionKey } from '../../lib/api'
import { formatDate, formatMoney } from '../../lib/format'
import { schemaMessages, type Notice } from '../../lib/form-issues'
import { newId } from '../../lib/ids'
import { usePageTitle } from '../../lib/use-page-title'
import { requestSync } from '../../sync/use-sync'
import { useSession } from '../auth/session'
import { roleOf } from '../shell/navigation'
import { chargeStatusBadge } from './labels'
import { markInvoicePaid, retryInvoice, useDebtors, writeOffInvoice } from './use-debtors'

type ActionKind = 'retry' | 'markPaid' | 'writeOff'

/**
 * The debtor overview (route /debtors, docs/PRODUCT.md §2 "Debtors", decision 0042): every unpaid invoice of the association — a
 * failed charge, or one past its due date that Vipps MobilePay has not collected — also after a
 * later month was paid, with member, address, what is owed, days overdue and the overdue steps
 * taken. Company admin staff act on each: collect again (a new one-time charge on the same
 * invoice), mark paid outside Vipps MobilePay (with a note on the invoice) or write off (a credit
 * note). It needs the connection: each action is sent at once and shown done only when the server
 * accepted it.
 */
export function DebtorsPage() {
  const { t } = useLingui()
  const locale = useLocale()
  usePageTitle(t`Debtors`)
  const user = useSession().user
  const role = user ? roleOf(user) : 'USER'
  const allowed = isCompanyAdminStaff(role)
  const companyId = allowed ? (user?.currentCompany?.id ?? null) : null
  const { state, more, reload } = useDebtors(companyId)
  const [action, setAction] = useState<{ kind: ActionKind; debtor: Debtor } | null>(null)
  const [notice, setNotice] = useState<Notice | null>(null)

  const done = (text: string) => {
    setAction(null)
    setNotice({ variant: 'success', text })
    reload()
    requestSync()
  }

  return (
    <div className="page">
      <div className="page-header">
        <h1>
          <Trans>Debtors</Trans>
        </h1>
      </div>
      {!allowed ?
        <Alert variant="info">
          <Trans>The debtor overview is for the association's administrator, accountant and chairman.</Trans>
        </Alert>
      : state.status === 'loading' ?
        <Spinner label={t`Loading debtors`} />
      : state.status === 'error' ?
        <Alert variant={state.offline ? 'info' : 'error'}>
          {state.offline ? t`You are offline. The debtor overview needs a connection.` : state.message || t`The debtor overview could not be loaded.`}
        </Alert>
      : <>
          <DebtorSummary
            count={state.page.total.count}
            owed={formatMoney(state.page.total.amount, locale)}
            reminderDays={state.page.reminderDays}
            debtCollectionDays={state.page.debtCollectionDays}
          />
          {notice && <Alert variant={notice.variant}>{notice.text}</Alert>}
          {state.items.length === 0 ?
            <p className="empty">
              <Trans>Nothing is owed. Every invoice is paid or settled.</Trans>
            </p>
          : <DebtorTable debtors={state.items} reminderCount={state.page.reminderDays.length} onAction={(kind, debtor) => setAction({ kind, debtor })} />}
          {state.page.nextCursor && (
            <div className="form-actions">
              <Button variant="secondary" busy={state.loadingMore} onClick={() => void more()}>
                <Trans>Show more</Trans>
              </Button>
            </div>
          )}
        </>
      }
      {action && (
        <DebtorActionDialog
          key={`${action.kind}:${action.debtor.invoiceId}`}
          kind={action.kind}
          debtor={action.debtor}
          onClose={() => setAction(null)}
          onDone={done}
        />
      )}
    </div>
  )
}

function DebtorSummary({ count, owed, reminderDays, debtCollectionDays }: { count: number; owed: string; reminderDays: number[]; debtCollectionDays: number }) {
  const locale = useLocale()
  const days = new Intl.ListFormat(locale === 'da' ? 'da' : 'en-GB', { type: 'conjunction' }).format(reminderDays.map(String))
  return (
    <>
      <p className="debtors-summary">
        <Plural value={count} one="# unpaid invoice" other="# unpaid invoices" />
        {' · '}
        <Trans>Owed in total: {owed}</Trans>
      </p>
      <p className="field-hint">
        <Trans>
          Reminders go out {days} days after a payment failed; after {debtCollectionDays} days the agreement goes to debt collection.
        </Trans>
      </p>
    </>
  )
}

function DebtorTable({ debtors, reminderCount, onAction }: { debtors: Debtor[]; reminderCount: number; onAction: (kind: ActionKind, debtor: Debtor) => void }) {
  const { t } = useLingui()
  const locale = useLocale()
  const blockedText: Record<RetryBlocker, string> = {
    COLLECTING: t`Vipps MobilePay is still trying to collect it`,
    UNDER_WAY: t`A new attempt is under way`,
    AGREEMENT_INACTIVE: t`The agreement is not active at Vipps MobilePay`,
  }
  return (
    <Table caption={t`Unpaid invoices`} captionHidden className="table-debtors">
      <thead>
        <tr>
          <th scope="col">
            <Trans>Member</Trans>
          </th>
          <th scope="col">
            <Trans>Invoice</Trans>
          </th>
          <th scope="col">
            <Trans>Due date</Trans>
          </th>
          <th scope="col" className="cell-number">
            <Trans>Owed</Trans>
          </th>
          <th scope="col">
            <Trans>Status</Trans>
          </th>
          <ActionsHeader />
        </tr>
      </thead>
      <tbody>
        {debtors.map((d) => {
          const sent = d.remindersSent
          const number = d.invoiceNumber
          const days = d.daysOverdue
          return (
            <tr key={d.invoiceId}>
              <th scope="row" className="debtor-member">
                <Link to="/agreements/$id" params={{ id: d.agreementId }} search={{}}>
                  {d.memberName}
                </Link>
                {d.address && <span className="muted cell-sub">{d.address}</span>}
                <Link className="cell-sub" to="/account-statement" search={{ userId: d.memberUserId }}>
                  <Trans>Account statement</Trans>
                </Link>
              </th>
              <td data-label={t`Invoice`}>
                <span>
                  <Link to="/invoices/$id" params={{ id: d.invoiceId }}>
                    {number}
                  </Link>
                  <span className="muted cell-sub">{d.name}</span>
                </span>
              </td>
              <td data-label={t`Due date`}>
                <span>
                  <span className="cell-nowrap">{formatDate(d.dueDate, locale)}</span>
                  <span className="muted cell-sub">
                    <Plural value={days} one="# day overdue" other="# days overdue" />
                  </span>
                </span>
              </td>
              <td className="cell-number cell-nowrap" data-label={t`Owed`}>
                {formatMoney(d.amount, locale)}
              </td>
              <td data-label={t`Status`}>
                <span>
                  <span className="debtor-status">
                    <Badge variant={chargeStatusBadge(d.status)}>{d.status === 'FAILED' ? t`Failed` : t`Not collected`}</Badge>
                    {d.debtCollection && (
                      <Badge variant="error">
                        <Trans>Debt collection</Trans>
                      </Badge>
                    )}
                    {d.retryPending && (
                      <Badge variant="info">
                        <Trans>New attempt under way</Trans>
                      </Badge>
                    )}
                  </span>
                  <span className="muted cell-sub">
                    <Trans>
                      Reminders sent: {sent} of {reminderCount}
                    </Trans>
                  </span>
                </span>
              </td>
              <td className="debtor-actions">
                <span className="button-row">
                  <Button
                    size="sm"
                    variant="secondary"
                    disabled={d.retryBlocked !== null}
                    onClick={() => onAction('retry', d)}
                    aria-describedby={d.retryBlocked ? `retry-${d.invoiceId}` : undefined}
                  >
                    <Trans>
                      Collect again <span className="sr-only">invoice {number}</span>
                    </Trans>
                  </Button>
                  <Button size="sm" variant="secondary" onClick={() => onAction('markPaid', d)}>
                    <Trans>
                      Mark paid <span className="sr-only">invoice {number}</span>
                    </Trans>
                  </Button>
                  <Button size="sm" variant="ghost" onClick={() => onAction('writeOff', d)}>
                    <Trans>
                      Write off <span className="sr-only">invoice {number}</span>
                    </Trans>
                  </Button>
                </span>
                {d.retryBlocked && d.retryBlocked !== 'UNDER_WAY' && (
                  <span id={`retry-${d.invoiceId}`} className="muted cell-sub">
                    {blockedText[d.retryBlocked]}
                  </span>
                )}
              </td>
            </tr>
          )
        })}
      </tbody>
    </Table>
  )
}

/**
 * One action on one unpaid invoice, sent at once with an Idempotency-Key kept across retries of
 * the same request (a double click or a lost answer makes it once) and a client-made id for what it
 * creates. It says it is done only after the server accepted it; offline it says it was not sent.
 */
function DebtorActionDialog({ kind, debtor, onClose, onDone }: { kind: ActionKind; debtor: Debtor; onClose: () => void; onDone: (text: string) => void }) {
  const { t, i18n } = useLingui()
  const locale = useLocale()
  const [note, setNote] = useState('')
  const [noteError, setNoteError] = useState<string | null>(null)
  // The day the member paid (mark paid only): today by default, never in the future (decision 0067).
  // Left unchanged, the server records its own business day: the device's date may differ from it.
  const [today] = useState(() => copenhagenDateOf(new Date()))
  const [paidOn, setPaidOn] = useState(today)
  const [paidOnError, setPaidOnError] = useState<string | null>(null)
  const [failure, setFailure] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const [key] = useState(createActionKey)
  const [id] = useState(newId)
  const amount = formatMoney(debtor.amount, locale)
  const member = debtor.memberName
  const number = debtor.invoiceNumber

  const submit = async () => {
    setFailure(null)
    if (kind !== 'retry') {
      const problems = schemaMessages<'note'>((kind === 'markPaid' ? MarkPaidRequest : WriteOffRequest).safeParse({ id, note }), i18n)
      setNoteError(problems.note ?? null)
      const dateProblem =
        kind !== 'markPaid' ? null
        : !isIsoDate(paidOn) ? i18n._(messages.bookkeepingDateInvalid.id)
        : paidOn > copenhagenDateOf(new Date()) ? i18n._(messages.bookkeepingPaidOnInFuture.id)
        : null
      setPaidOnError(dateProblem)
      if (problems.note || dateProblem) return
    }
    setBusy(true)
    try {
      if (kind === 'retry') {
        const charge = await retryInvoice(debtor.invoiceId, id, key)
        const due = formatDate(charge.due, locale)
        onDone(t`Invoice ${number}: the new payment request was accepted. Vipps MobilePay collects it on ${due}.`)
      } else if (kind === 'markPaid') {
        await markInvoicePaid(debtor.invoiceId, note.trim(), paidOn === today ? undefined : paidOn, key)
        onDone(t`Invoice ${number} is marked as paid outside Vipps MobilePay.`)
      } else {
        const creditNote = await writeOffInvoice(debtor.invoiceId, id, note.trim(), key)
        const credit = creditNote.invoiceNumber
        onDone(t`Invoice ${number} is written off with credit note ${credit}.`)
      }
    } catch (err) {
      if (err instanceof ApiError && err.status === 0) setFailure(t`You are offline. Nothing was sent; try again when you are online.`)
      else if (err instanceof ApiError && err.issues.some((i) => i.path === 'note')) setNoteError(err.issues.find((i) => i.path === 'note')!.message)
      else if (err instanceof ApiError && err.issues.some((i) => i.path === 'paidOn')) setPaidOnError(err.issues.find((i) => i.path === 'paidOn')!.message)
      // A closed month (409) and any other refusal: the server's message, in the user's language; the input stays.
      else setFailure(err instanceof ApiError && err.message ? err.message : t`The server refused the request.`)
    } finally {
      setBusy(false)
    }
  }

  const title =
    kind === 'retry' ? t`Collect again`
    : kind === 'markPaid' ? t`Mark as paid outside Vipps MobilePay`
    : t`Write off`
  const confirm =
    kind === 'retry' ? t`Collect ${amount}`
    : kind === 'markPaid' ? t`Mark as paid`
    : t`Write off ${amount}`
  return (
    <Modal
      open
      title={title}
      closeLabel={t`Close`}
      onClose={onClose}
      footer={
        <>
          <Button variant="secondary" onClick={onClose} disabled={busy}>
            <Trans>Cancel</Trans>
          </Button>
          <Button variant={kind === 'writeOff' ? 'danger' : 'primary'} onClick={() => void submit()} busy={busy}>
            {busy ? t`Sending…` : confirm}
          </Button>
        </>
      }
    >
      <div className="form">
        {kind === 'retry' && (
          <p>
            <Trans>
              A new payment request of {amount} for invoice {number} is sent to {member} through Vipps MobilePay, due tomorrow.
            </Trans>
          </p>
        )}
        {kind === 'markPaid' && (
          <p>
            <Trans>
              Invoice {number} ({amount}) is recorded as paid by {member} another way, for example by bank transfer. Anything Vipps MobilePay still tries to
              collect for it is cancelled. Statistics count only what Vipps MobilePay collected.
            </Trans>
          </p>
        )}
        {kind === 'writeOff' && (
          <p>
            <Trans>
              A credit note of {amount} is issued for invoice {number}: {member} no longer owes it, and nothing is paid back. Anything Vipps MobilePay still
              tries to collect for it is cancelled.
            </Trans>
          </p>
        )}
        {failure && <Alert variant="error">{failure}</Alert>}
        {kind !== 'retry' && (
          <TextField
            label={kind === 'markPaid' ? t`How was it paid?` : t`Reason`}
            value={note}
            onChange={(e) => setNote(e.target.value)}
            error={noteError}
            maxLength={SETTLEMENT_NOTE_MAX}
            hint={t`Shown on the invoice, also to the member.`}
            required
          />
        )}
        {kind === 'markPaid' && (
          <TextField
            label={t`Date paid`}
            type="date"
            value={paidOn}
            max={today}
            onChange={(e) => setPaidOn(e.target.value)}
            error={paidOnError}
            hint={t`The day the member paid. Not in the future, and not in a month whose books are closed.`}
            required
          />
        )}
      </div>
    </Modal>
  )
}
