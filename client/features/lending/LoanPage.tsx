import { useState, type FormEvent } from 'react'
import { Trans, useLingui } from '@lingui/react/macro'
import { Link } from '@tanstack/react-router'
import { LoanReturnRequest, LoanTermsRequest } from '../../../shared/contract/lending'
import { handoverFrom, mayTake, type LoanParty } from '../../../shared/domain/lending'
import { messages as m } from '../../../shared/i18n-messages'
import { PendingMarker } from '../../components/sync/PendingMarker'
import { RecordBody } from '../../components/sync/RecordBody'
import { useQueuedText } from '../../components/sync/QueuedNotice'
import { Alert } from '../../components/ui/Alert'
import { Badge } from '../../components/ui/Badge'
import { Button, buttonClass } from '../../components/ui/Button'
import { TextAreaField, TextField } from '../../components/ui/TextField'
import { useLocale } from '../../i18n/use-locale'
import { formatDate, formatDateTime, formatMoney } from '../../lib/format'
import { issuesByField } from '../../lib/form-issues'
import { createActionKey, errorMessage } from '../../lib/api'
import { parseKroner } from '../../lib/kroner-input'
import { showToast } from '../../lib/toast'
import { usePageTitle } from '../../lib/use-page-title'
import { awaitServer } from '../../sync/await-server'
import { useSync, type SyncHandle } from '../../sync/use-sync'
import { useSession } from '../auth/session'
import { useMyAgreements } from '../market/use-listings'
import { bookingsOf, changedFields, depositFailedBeforeHandover, depositLabels, isFree, loanStatusLabels, loanStatusVariant, todayInCopenhagen } from './labels'
import { canPayDeposit, lendsForAssociation, seesContract } from './lending-access'
import { settleDeposit } from './lending-api'
import { loanStep, type LoanStep } from './lending-mutations'
import { useItem, useLoan, useLoans, type ItemView, type LoanView } from './use-lending'
import './lending.css'
import { personName } from '../../../shared/erased-person'

/**
 * One loan (decision 0064): the contract (dates, condition on handover, rules, deposit and its real
 * state) with who confirmed it when, and the steps the user can take now as lender or borrower.
 * Steps go through the outbox, so they work offline; the server decides again.
 */
export function LoanPage({ id }: { id: string }) {
  const { t } = useLingui()
  usePageTitle(t`Loan`)
  const handle = useSync()
  const record = useLoan(handle, id)
  return (
    <div className="page lending-loan-page">
      <div className="page-header">
        <Link to="/lending/loans" className={buttonClass('link')}>
          <Trans>← My loans</Trans>
        </Link>
      </div>
      <RecordBody<LoanView> handle={handle} record={record} loading={t`Loading loan`} notFound={<Trans>Loan not found.</Trans>}>
        {(row, handle) => <LoanDetails handle={handle} row={row} />}
      </RecordBody>
    </div>
  )
}

function LoanDetails({ handle, row }: { handle: SyncHandle; row: LoanView }) {
  const { t, i18n } = useLingui()
  const locale = useLocale()
  const item = useItem(handle, row.itemId ?? '')?.row as ItemView | null | undefined
  const party: LoanParty | null = row.mine ?? null
  const state = { status: row.status ?? 'REQUESTED', lenderConfirmedAt: row.lenderConfirmedAt ?? null, borrowerConfirmedAt: row.borrowerConfirmedAt ?? null }
  const can = (step: LoanStep | 'terms') => !!party && mayTake(state, step, party)
  const contract = seesContract(useSession().user, row)
  return (
    <>
      <h1>{item?.title ?? <Trans>Loan</Trans>}</h1>
      <p className="listing-badges">
        {row.status && <Badge variant={loanStatusVariant[row.status]}>{i18n._(loanStatusLabels[row.status])}</Badge>} {row._pending && <PendingMarker />}
      </p>
      <section className="card" aria-labelledby="loan-contract-title">
        <h2 id="loan-contract-title">
          <Trans>Contract</Trans>
        </h2>
        <dl className="lending-facts">
          <dt>
            <Trans>Item</Trans>
          </dt>
          <dd>
            {item ?
              <Link to="/lending/item/$id" params={{ id: item.id }}>
                {item.title}
              </Link>
            : '—'}
          </dd>
          <dt>
            <Trans>Lender</Trans>
          </dt>
          <dd>{personName(item?.lender?.fullName, i18n) ?? '—'}</dd>
          <dt>
            <Trans>Borrower</Trans>
          </dt>
          <dd>{personName(row.borrower?.fullName, i18n)}</dd>
          <dt>
            <Trans>Dates</Trans>
          </dt>
          <dd>
            {formatDate(row.fromDate ?? '', locale)} – {formatDate(row.toDate ?? '', locale)}
          </dd>
          {row.message && (
            <>
              <dt>
                <Trans>Message</Trans>
              </dt>
              <dd>{row.message}</dd>
            </>
          )}
          {contract && (
            <>
              <dt>
                <Trans>Condition on handover</Trans>
              </dt>
              <dd>{row.conditionOut || row.handoverCondition || (row.handedOverAt ? t`Not described` : t`Not described yet`)}</dd>
            </>
          )}
          {item?.rules && (
            <>
              <dt>
                <Trans>Rules</Trans>
              </dt>
              <dd>{item.rules}</dd>
            </>
          )}
          {contract && (
            <>
              <dt>
                <Trans>Deposit</Trans>
              </dt>
              <dd>
                {typeof row.depositOre === 'number' ?
                  <>
                    {formatMoney(row.depositOre, locale)} — {row.deposit && i18n._(depositLabels[row.deposit])}
                  </>
                : t`None`}
              </dd>
            </>
          )}
          <dt>
            <Trans>Lender confirmed</Trans>
          </dt>
          <dd>
            {row.lenderConfirmedAt ?
              `${formatDateTime(row.lenderConfirmedAt, locale)}${row.lenderConfirmedBy ? ` (${row.lenderConfirmedBy})` : ''}`
            : t`Not yet`}
          </dd>
          <dt>
            <Trans>Borrower confirmed</Trans>
          </dt>
          <dd>{row.borrowerConfirmedAt ? formatDateTime(row.borrowerConfirmedAt, locale) : t`Not yet`}</dd>
          {row.handedOverAt && (
            <>
              <dt>
                <Trans>Handed over</Trans>
              </dt>
              <dd>
                {formatDateTime(row.handedOverAt, locale)}
                {row.handoverCondition ? ` — ${row.handoverCondition}` : ''}
              </dd>
            </>
          )}
          {row.returnedAt && (
            <>
              <dt>
                <Trans>Returned</Trans>
              </dt>
              <dd>
                {formatDateTime(row.returnedAt, locale)}
                {row.conditionBack ? ` — ${row.conditionBack}` : ''}
              </dd>
            </>
          )}
          {row.damageNote && (
            <>
              <dt>
                <Trans>Damage reported</Trans>
              </dt>
              <dd>{row.damageNote}</dd>
            </>
          )}
        </dl>
        {!contract && (
          <p className="muted">
            <Trans>Only the borrower, the lender and the administration see the contract’s conditions and deposit.</Trans>
          </p>
        )}
      </section>
      {depositFailedBeforeHandover(row) && (
        <Alert variant="warning">
          <Trans>
            The deposit could not be collected from the borrower’s Vipps MobilePay. You can still hand the item over, but the deposit is not secured.
          </Trans>
        </Alert>
      )}
      {party && <Steps handle={handle} row={row} party={party} can={can} />}
      {row.deposit === 'HELD' && <SettleDeposit handle={handle} row={row as LoanView & { _version: number }} />}
    </>
  )
}

/** The steps open to the user now; each through the outbox against the version shown. */
function Steps({ handle, row, party, can }: { handle: SyncHandle; row: LoanView; party: LoanParty; can: (s: LoanStep | 'terms') => boolean }) {
  const { t, i18n } = useLingui()
  const locale = useLocale()
  const queuedText = useQueuedText()
  const user = useSession().user
  const agreements = useMyAgreements(handle)
  const [condition, setCondition] = useState('')
  const [back, setBack] = useState('')
  const [damage, setDamage] = useState('')
  const [errors, setErrors] = useState<{ condition?: string; damage?: string }>({})
  const [busy, setBusy] = useState(false)
  const opened = row as LoanView & { _version: number }
  const depositBlocked =
    party === 'borrower' && typeof row.depositOre === 'number' && agreements !== undefined && !canPayDeposit(user, agreements, row.companyId)
  // The handover is recorded from the day before the first day (the server refuses it earlier).
  const handoverDay = row.fromDate ? handoverFrom(row.fromDate) : undefined
  const handoverTooEarly = !!handoverDay && todayInCopenhagen() < handoverDay
  const take = async (step: LoanStep, done: string, body?: Record<string, unknown>) => {
    setBusy(true)
    try {
      const result = await awaitServer(handle, [await loanStep(handle, opened, step, body)])
      if (result.outcome === 'accepted') showToast('success', done)
      else if (result.outcome === 'queued') showToast('info', queuedText(result.waitingFor))
    } finally {
      setBusy(false)
    }
  }
  const recordReturn = async (event: FormEvent) => {
    event.preventDefault()
    const parsed = LoanReturnRequest.safeParse({ condition: back, damage })
    if (!parsed.success) return setErrors(issuesByField<'condition' | 'damage'>(parsed.error.issues, i18n))
    setErrors({})
    await take('return', t`The return is recorded.`, parsed.data)
  }
  const waitingForOther = row.status === 'ACCEPTED' && !can('confirm')
  const waitingForBorrower = row.status === 'REQUESTED' && party === 'borrower'
  // Nothing to do and nothing to wait for (declined, cancelled, returned): no section.
  if (!waitingForOther && !waitingForBorrower && !(['accept', 'decline', 'confirm', 'handover', 'cancel', 'terms', 'return'] as const).some(can)) return null
  return (
    <section className="lending-section" aria-labelledby="loan-steps-title">
      <h2 id="loan-steps-title">
        {party === 'lender' ?
          <Trans>You lend this</Trans>
        : <Trans>You borrow this</Trans>}
      </h2>
      {waitingForOther && (
        <Alert variant="info">
          {party === 'lender' ?
            <Trans>You have confirmed the contract. Waiting for the borrower to confirm.</Trans>
          : <Trans>You have confirmed the contract. Waiting for the lender to confirm.</Trans>}
        </Alert>
      )}
      {waitingForBorrower && (
        <Alert variant="info">
          <Trans>Your request is waiting for the lender’s answer.</Trans>
        </Alert>
      )}
      {can('confirm') && depositBlocked && (
        <Alert variant="warning">
          <Trans>
            The item has a deposit, which is collected through your agreement with the association in Vipps MobilePay. You need an active agreement to confirm.
          </Trans>
        </Alert>
      )}
      <div className="form-actions">
        {can('accept') && (
          <Button busy={busy} disabled={busy} onClick={() => void take('accept', t`The request is accepted.`)}>
            <Trans>Accept request</Trans>
          </Button>
        )}
        {can('decline') && (
          <Button variant="secondary" disabled={busy} onClick={() => void take('decline', t`The request is declined.`)}>
            <Trans>Decline</Trans>
          </Button>
        )}
        {can('confirm') && (
          <Button busy={busy} disabled={busy || depositBlocked} onClick={() => void take('confirm', t`You have confirmed the contract.`)}>
            <Trans>Confirm the contract</Trans>
          </Button>
        )}
        {can('handover') && (
          <Button
            busy={busy}
            disabled={busy || handoverTooEarly}
            aria-describedby={handoverTooEarly ? 'loan-handover-when' : undefined}
            onClick={() => void take('handover', t`The handover is recorded.`, condition.trim() ? { condition } : {})}
          >
            <Trans>Record handover</Trans>
          </Button>
        )}
        {can('cancel') && (
          <Button variant="secondary" disabled={busy} onClick={() => void (window.confirm(t`Cancel this loan?`) && take('cancel', t`The loan is cancelled.`))}>
            <Trans>Cancel the loan</Trans>
          </Button>
        )}
      </div>
      {can('handover') && handoverTooEarly && handoverDay && (
        <p id="loan-handover-when" className="muted">
          {i18n._(m.loanHandoverTooEarly.id, { date: formatDate(handoverDay, locale) })}
        </p>
      )}
      {can('handover') && (
        <TextAreaField
          label={t`Condition on handover (optional)`}
          hint={t`Leave empty to keep what the contract says.`}
          value={condition}
          onChange={(e) => setCondition(e.target.value)}
          rows={2}
        />
      )}
      {can('terms') && <TermsForm handle={handle} row={opened} />}
      {can('return') && (
        <form className="form card" noValidate onSubmit={(e) => void recordReturn(e)}>
          <TextAreaField label={t`Condition on return`} value={back} onChange={(e) => setBack(e.target.value)} error={errors.condition} rows={2} required />
          <TextAreaField
            label={t`Damage (optional)`}
            hint={
              typeof row.depositOre === 'number' ?
                t`With damage, the deposit is held for the administration to settle; without, it is refunded in full.`
              : undefined
            }
            value={damage}
            onChange={(e) => setDamage(e.target.value)}
            error={errors.damage}
            rows={2}
          />
          <div className="form-actions">
            <Button type="submit" busy={busy} disabled={busy}>
              <Trans>Record return</Trans>
            </Button>
          </div>
        </form>
      )}
    </section>
  )
}

/**
 * The lender changes the contract of an accepted loan: its dates (free of the item's other bookings,
 * not in the past) and the condition on handover. Saving clears both confirmations (said before
 * saving); the server decides the overlap again and its refusal shows on the page.
 */
function TermsForm({ handle, row }: { handle: SyncHandle; row: LoanView & { _version: number } }) {
  const { t, i18n } = useLingui()
  const queuedText = useQueuedText()
  const others = bookingsOf((useLoans(handle) ?? []).filter((l) => l.itemId === row.itemId && l.id !== row.id))
  const [fromDate, setFrom] = useState(row.fromDate ?? '')
  const [toDate, setTo] = useState(row.toDate ?? '')
  const [conditionOut, setConditionOut] = useState(row.conditionOut ?? '')
  const [errors, setErrors] = useState<Partial<Record<TermsField, string>>>({})
  const [busy, setBusy] = useState(false)
  const today = todayInCopenhagen()
  const save = async (event: FormEvent) => {
    event.preventDefault()
    const parsed = LoanTermsRequest.safeParse({ fromDate, toDate, conditionOut })
    if (!parsed.success) return setErrors(issuesByField<TermsField>(parsed.error.issues, i18n))
    const body = changedFields(row, { fromDate: parsed.data.fromDate, toDate: parsed.data.toDate, conditionOut: (parsed.data.conditionOut ?? '').trim() })
    if (!body) return showToast('info', t`Nothing was changed.`)
    const span = { fromDate: parsed.data.fromDate!, toDate: parsed.data.toDate! }
    if (body.fromDate || body.toDate) {
      if (span.fromDate < today) return setErrors({ fromDate: t`The first day cannot be in the past.` })
      if (!isFree(span, others)) return setErrors({ fromDate: t`The item is already lent out on some of these days. Please choose other dates.` })
    }
    setErrors({})
    setBusy(true)
    try {
      const result = await awaitServer(handle, [await loanStep(handle, row, 'terms', body)])
      if (result.outcome === 'accepted') showToast('success', t`The contract was changed. Both of you confirm it again.`)
      else if (result.outcome === 'queued') showToast('info', queuedText(result.waitingFor))
    } finally {
      setBusy(false)
    }
  }
  return (
    <form className="form card lending-terms" noValidate onSubmit={(e) => void save(e)} aria-labelledby="loan-terms-title">
      <h3 id="loan-terms-title">
        <Trans>Change the contract</Trans>
      </h3>
      <Alert variant="info">
        <Trans>Saving a change clears both confirmations: you and the borrower confirm the contract again.</Trans>
      </Alert>
      <TextField label={t`From`} type="date" min={today} value={fromDate} onChange={(e) => setFrom(e.target.value)} error={errors.fromDate} required />
      <TextField
        label={t`To (return date)`}
        type="date"
        min={fromDate || today}
        value={toDate}
        onChange={(e) => setTo(e.target.value)}
        error={errors.toDate}
        required
      />
      <TextAreaField
        label={t`Condition on handover`}
        value={conditionOut}
        onChange={(e) => setConditionOut(e.target.value)}
        error={errors.conditionOut}
        rows={2}
      />
      <div className="form-actions">
        <Button type="submit" variant="secondary" busy={busy} disabled={busy}>
          <Trans>Save contract</Trans>
        </Button>
      </div>
    </form>
  )
}

type TermsField = 'fromDate' | 'toDate' | 'conditionOut'

/** The association's administration settles a deposit held for damage: how much goes back (at most the deposit). Online. */
function SettleDeposit({ handle, row }: { handle: SyncHandle; row: LoanView & { _version: number } }) {
  const { t } = useLingui()
  const locale = useLocale()
  const user = useSession().user
  const [amount, setAmount] = useState('')
  const [error, setError] = useState<string | undefined>()
  const [busy, setBusy] = useState(false)
  const [action] = useState(() => createActionKey())
  if (!lendsForAssociation(user, row.companyId) || typeof row.depositOre !== 'number') return null
  const deposit = row.depositOre
  const submit = async (event: FormEvent) => {
    event.preventDefault()
    const refundOre = parseKroner(amount)
    if (refundOre === null || refundOre < 0 || refundOre > deposit)
      return setError(t`Enter an amount from ${formatMoney(0, locale)} up to the deposit, ${formatMoney(deposit, locale)}.`)
    setError(undefined)
    setBusy(true)
    try {
      await settleDeposit(row.id, refundOre, row._version, action)
      await handle.engine.syncNow().catch(() => undefined)
      showToast('success', refundOre > 0 ? t`The refund is queued for Vipps MobilePay.` : t`The deposit is kept.`)
    } catch (err) {
      setError(errorMessage(err, t`The deposit could not be settled.`))
    } finally {
      setBusy(false)
    }
  }
  return (
    <section className="lending-section" aria-labelledby="loan-settle-title">
      <h2 id="loan-settle-title">
        <Trans>Settle the deposit</Trans>
      </h2>
      <form className="form card" noValidate onSubmit={(e) => void submit(e)}>
        <TextField
          label={t`Refund to the borrower (DKK)`}
          hint={t`At most ${formatMoney(deposit, locale)}. What is not refunded is kept by the association.`}
          inputMode="decimal"
          value={amount}
          onChange={(e) => setAmount(e.target.value)}
          error={error}
        />
        <div className="form-actions">
          <Button type="submit" busy={busy} disabled={busy}>
            <Trans>Settle deposit</Trans>
          </Button>
        </div>
      </form>
    </section>
  )
}
