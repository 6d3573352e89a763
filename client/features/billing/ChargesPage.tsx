import { Trans, useLingui } from '@lingui/react/macro'
import { PendingMarker } from '../../components/sync/PendingMarker'
import { Link, useParams } from '@tanstack/react-router'
import { isAgreementAdmin } from '../../../shared/domain/roles'
import { Badge } from '../../components/ui/Badge'
import { buttonClass } from '../../components/ui/Button'
import { Spinner } from '../../components/ui/Spinner'
import { Table, ActionsHeader } from '../../components/ui/Table'
import { useLocale } from '../../i18n/use-locale'
import { formatDate, formatMoney } from '../../lib/format'
import { usePageTitle } from '../../lib/use-page-title'
import { useSync } from '../../sync/use-sync'
import { useSession } from '../auth/session'
import { roleOf } from '../shell/navigation'
import { useAgreement } from '../agreements/use-agreements'
import { chargeKindLabels, chargeStatusBadge, chargeStatusLabels } from './labels'
import { refundableOf, refundedOf, useCharges, type ChargeView } from './use-charges'
import { RecordMissing } from '../../components/sync/RecordMissing'

/**
 * The charges of an agreement (docs/PRODUCT.md §2 "Charges of an agreement"): what was asked for, when, and
 * what became of it, with the invoice and — for everyone but a plain user — a Refund link.
 * From the local copy, so it shows offline.
 */
export function ChargesPage() {
  const { t } = useLingui()
  const { agreementId } = useParams({ from: '/_auth/charges/$agreementId' })
  const sync = useSync()
  const record = useAgreement(sync, agreementId)
  const agreement = record?.row
  const charges = useCharges(sync, agreementId)
  const user = useSession().user
  const role = user ? roleOf(user) : 'USER'
  const number = agreement?.externalId ?? ''
  usePageTitle(t`Payments`)

  if (!sync || !charges || agreement === undefined || (!agreement && record?.absent === 'loading')) return <Spinner label={t`Loading payments`} />
  const canRequest = isAgreementAdmin(role) && agreement?.status === 'ACCEPTED' && !agreement.terminationDate
  return (
    <div className="page">
      <div className="page-header">
        <h1>{number ? t`Payments of agreement ${number}` : t`Payments`}</h1>
        <div className="button-row">
          <Link to="/agreements/$id" params={{ id: agreementId }} search={{}} className="btn btn-link">
            <Trans>Back to the agreement</Trans>
          </Link>
          {canRequest && (
            <Link to="/charges/$agreementId/oneTimeCharge" params={{ agreementId }} className={buttonClass('primary')}>
              <Trans>Request One Off Payment</Trans>
            </Link>
          )}
        </div>
      </div>
      {!agreement && <RecordMissing absent={record?.absent === 'offline' ? 'offline' : 'notFound'} notFound={<Trans>Agreement not found</Trans>} />}
      {agreement && charges.length === 0 && (
        <p className="empty">
          <Trans>No payments yet.</Trans>
        </p>
      )}
      {charges.length > 0 && <ChargeTable charges={charges} agreementId={agreementId} canRefund={role !== 'USER'} />}
    </div>
  )
}

function ChargeTable({ charges, agreementId, canRefund }: { charges: ChargeView[]; agreementId: string; canRefund: boolean }) {
  const { t, i18n } = useLingui()
  const locale = useLocale()
  return (
    <Table caption={t`Payments`} captionHidden className="table-charges">
      <thead>
        <tr>
          <th scope="col">
            <Trans>Type</Trans>
          </th>
          <th scope="col" className="cell-number">
            <Trans>Amount</Trans>
          </th>
          <th scope="col">
            <Trans>Description</Trans>
          </th>
          <th scope="col">
            <Trans>Due date</Trans>
          </th>
          <th scope="col">
            <Trans>Status</Trans>
          </th>
          <th scope="col">
            <Trans>Invoice</Trans>
          </th>
          {canRefund && <ActionsHeader />}
        </tr>
      </thead>
      <tbody>
        {charges.map((c) => {
          const refunded = refundedOf(c)
          const refundedText = formatMoney(refunded, locale)
          const description = c.description ?? ''
          return (
            <tr key={c.id}>
              <th scope="row" data-label={t`Type`}>
                {c.kind ? i18n._(chargeKindLabels[c.kind]) : ''}
              </th>
              <td className="cell-number cell-nowrap" data-label={t`Amount`}>
                <span>
                  {formatMoney(c.amount ?? 0, locale)}
                  {refunded > 0 && (
                    <span className="muted cell-sub">
                      <Trans>{refundedText} refunded</Trans>
                    </span>
                  )}
                </span>
              </td>
              <td className="cell-wrap" data-label={t`Description`}>
                {c.description}
              </td>
              <td className="cell-nowrap" data-label={t`Due date`}>
                {c.due ? formatDate(c.due, locale) : '-'}
              </td>
              <td data-label={t`Status`}>
                <span>
                  {c.status && <Badge variant={chargeStatusBadge(c.status)}>{i18n._(chargeStatusLabels[c.status])}</Badge>}
                  {c._pending && <PendingMarker money />}
                  {c._rejected && (
                    <span className="field-error" role="status">
                      {c._rejected}
                    </span>
                  )}
                </span>
              </td>
              <td data-label={t`Invoice`}>
                {c.invoiceId ?
                  <Link to="/invoices/$id" params={{ id: c.invoiceId }}>
                    {c.invoiceNumber}
                  </Link>
                : '-'}
              </td>
              {canRefund && (
                <td className="cell-actions">
                  {refundableOf(c) > 0 && (
                    <Link to="/refunds/create" search={{ chargeId: c.id, agreementId }} className="btn btn-ghost btn-sm">
                      <Trans>
                        Refund <span className="sr-only">{description}</span>
                      </Trans>
                    </Link>
                  )}
                </td>
              )}
            </tr>
          )
        })}
      </tbody>
    </Table>
  )
}
