import { useState } from 'react'
import { Trans, useLingui } from '@lingui/react/macro'
import { CancelAgreementRequest } from '../../../shared/contract/agreements'
import { defaultTerminationDate, lastPaymentOf, terminationProblem, type PaymentSchedule } from '../../../shared/domain/termination'
import { useLocale } from '../../i18n/use-locale'
import { formatDate, formatMoney } from '../../lib/format'
import { translateIssue } from '../../lib/form-issues'
import { Button } from '../../components/ui/Button'
import { Modal } from '../../components/ui/Modal'
import { TextField } from '../../components/ui/TextField'
import { todayIso } from '../../lib/format'
import { NotKeptError } from '../../sync/outcomes'
import type { SyncHandle } from '../../sync/use-sync'
import { useNotKeptText } from '../sync-status/refusal'
import { terminateAgreement } from './agreement-mutations'
import type { AgreementView } from './use-agreements'

/**
 * The terminate dialog (docs/PRODUCT.md §2 "Agreement view", §4, §9): a termination date (today + 30 days by
 * default) and 'Make last payment'. Checked here with the server's rules, then queued, so it also
 * works offline; the dialog stays open with the message when the input is refused. With "Make
 * last payment" it says what the last payment will charge, for which days and when (it takes the
 * place of the last period's regular charge: docs/decisions/0035-the-last-payment-of-a-termination-charges-each-day-once.md).
 */
export function TerminateDialog({ handle, agreement, open, onClose }: { handle: SyncHandle; agreement: AgreementView; open: boolean; onClose: () => void }) {
  const { t, i18n } = useLingui()
  const today = todayIso()
  const [date, setDate] = useState(() => defaultTerminationDate(today))
  const [finalPayment, setFinalPayment] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const locale = useLocale()
  const notKeptText = useNotKeptText()
  const schedule: PaymentSchedule | undefined =
    agreement.paymentPeriod && agreement.startPaymentDate && agreement.price !== undefined ?
      {
        price: agreement.price,
        paymentPeriod: agreement.paymentPeriod,
        startPaymentDate: agreement.startPaymentDate,
        nextRegularPaymentDate: agreement.nextRegularPaymentDate ?? null,
      }
    : undefined
  const validDate = CancelAgreementRequest.safeParse({ terminationDate: date, finalPaymentRequired: true })
  const last =
    finalPayment && schedule && validDate.success && !terminationProblem(validDate.data, today, agreement.status ?? '', schedule) ?
      lastPaymentOf(schedule, validDate.data.terminationDate)
    : null

  const submit = async () => {
    const parsed = CancelAgreementRequest.safeParse({ terminationDate: date, finalPaymentRequired: finalPayment })
    if (!parsed.success) return setError(parsed.error.issues[0] ? translateIssue(parsed.error.issues[0], i18n) : '')
    const problem = terminationProblem(parsed.data, today, agreement.status ?? '', schedule)
    if (problem) return setError(i18n._(problem.message))
    setError(null)
    setBusy(true)
    try {
      await terminateAgreement(handle, agreement, parsed.data)
      onClose()
    } catch (err) {
      // Not stored on this device: the termination is NOT kept; the dialog stays open with the choice.
      if (!(err instanceof NotKeptError)) throw err
      setError(notKeptText(err))
    } finally {
      setBusy(false)
    }
  }

  return (
    <Modal
      open={open}
      title={<Trans>Terminate agreement</Trans>}
      closeLabel={t`Close`}
      onClose={onClose}
      footer={
        <>
          <Button variant="secondary" onClick={onClose} disabled={busy}>
            <Trans>Cancel</Trans>
          </Button>
          <Button variant="danger" onClick={() => void submit()} busy={busy}>
            {busy ? t`Processing...` : t`Terminate`}
          </Button>
        </>
      }
    >
      <div className="form">
        <label className="checkbox-field">
          <input type="checkbox" checked={finalPayment} onChange={(e) => setFinalPayment(e.target.checked)} aria-describedby="final-payment-note" />
          <Trans>Make last payment</Trans>
        </label>
        <p id="final-payment-note" className="field-hint">
          <Trans>This will be done 3 days before termination date</Trans>
        </p>
        <TextField
          label={t`Termination date is set to:`}
          type="date"
          value={date}
          min={today}
          onChange={(e) => setDate(e.target.value)}
          error={error}
          required
        />
        {last && (
          <LastPaymentPreview
            amount={formatMoney(last.amount, locale)}
            due={formatDate(last.due, locale)}
            from={formatDate(last.from, locale)}
            through={formatDate(last.through, locale)}
          />
        )}
      </div>
    </Modal>
  )
}

function LastPaymentPreview({ amount, due, from, through }: { amount: string; due: string; from: string; through: string }) {
  return (
    <p className="field-hint last-payment-preview" role="status">
      <Trans>
        Last payment: {amount} on {due}, for {from} – {through}. It takes the place of the regular payment for those days.
      </Trans>
    </p>
  )
}
