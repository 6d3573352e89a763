import { Trans, useLingui } from '@lingui/react/macro'
import { Link, useSearch } from '@tanstack/react-router'
import { RefundRequest } from '../../../shared/contract/billing'
import { messages } from '../../../shared/i18n-messages'
import { Alert } from '../../components/ui/Alert'
import { Spinner } from '../../components/ui/Spinner'
import { useLocale } from '../../i18n/use-locale'
import { formatDate, formatMoney } from '../../lib/format'
import { schemaMessages } from '../../lib/form-issues'
import { newId } from '../../lib/ids'
import { usePageTitle } from '../../lib/use-page-title'
import { useSync } from '../../sync/use-sync'
import { useSession } from '../auth/session'
import { roleOf } from '../shell/navigation'
import { refundCharge } from './billing-mutations'
import { MoneyActionForm } from './MoneyActionForm'
import { refundableOf, refundedOf, useCharges } from './use-charges'

/**
 * Refund part or all of a collected charge (spec §2 "Refund create", §5; every role but a plain
 * user). The server makes a credit note for it. Checked here against what is left to refund, so
 * the form says at once what the server would refuse.
 */
export function RefundPage() {
  const { t, i18n } = useLingui()
  const locale = useLocale()
  const { chargeId, agreementId } = useSearch({ from: '/_auth/refunds/create' })
  const sync = useSync()
  const charges = useCharges(sync, agreementId ?? '')
  const user = useSession().user
  usePageTitle(t`Refund`)
  if (!sync || !charges) return <Spinner label={t`Loading payments`} />

  const charge = charges.find((c) => c.id === chargeId)
  const left = charge ? refundableOf(charge) : 0
  const leftText = formatMoney(left, locale)
  const back =
    agreementId ?
      <Link to="/charges/$agreementId" params={{ agreementId }} className="btn btn-link">
        <Trans>Back to payments</Trans>
      </Link>
    : null
  return (
    <div className="page">
      <div className="page-header">
        <h1>
          <Trans>Refund</Trans>
        </h1>
        {back}
      </div>
      {!charge || !agreementId ?
        <Alert variant="error">
          <Trans>Payment not found</Trans>
        </Alert>
      : user && roleOf(user) === 'USER' ?
        <Alert variant="info">
          <Trans>Refunds are made by the association's staff.</Trans>
        </Alert>
      : left === 0 && !charge._pending ?
        <Alert variant="info">{i18n._(charge.status === 'EXECUTED' ? messages.refundTooLarge.id : messages.refundNeedsExecuted.id, { amount: leftText })}</Alert>
      : <MoneyActionForm
          label={t`Refund`}
          submitLabel={<Trans>Create refund</Trans>}
          success={i18n._(messages.refundCreated.id)}
          check={({ amount, description }) => {
            const problems = schemaMessages<'amount' | 'description'>(RefundRequest.safeParse({ chargeId: charge.id, amount: amount ?? 0, description }), i18n)
            if (!problems.amount && amount !== null && amount > left) problems.amount = i18n._(messages.refundTooLarge.id, { amount: leftText })
            return problems
          }}
          submit={({ amount, description }) => refundCharge(sync, agreementId, { id: newId(), chargeId: charge.id, amount, description })}
        >
          <dl className="detail-list">
            <dt>
              <Trans>Payment</Trans>
            </dt>
            <dd>
              {charge.description}
              {charge.due ? ` · ${formatDate(charge.due, locale)}` : ''}
            </dd>
            <dt>
              <Trans>Collected</Trans>
            </dt>
            <dd>{formatMoney(charge.amount ?? 0, locale)}</dd>
            <dt>
              <Trans>Refunded so far</Trans>
            </dt>
            <dd>{formatMoney(refundedOf(charge), locale)}</dd>
            <dt>
              <Trans>Left to refund</Trans>
            </dt>
            <dd>{leftText}</dd>
          </dl>
        </MoneyActionForm>
      }
    </div>
  )
}
