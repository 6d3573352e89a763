import { Trans, useLingui } from '@lingui/react/macro'
import { Link, useParams } from '@tanstack/react-router'
import { OneTimeChargeRequest } from '../../../shared/contract/billing'
import { isAgreementAdmin } from '../../../shared/domain/roles'
import { messages } from '../../../shared/i18n-messages'
import { Alert } from '../../components/ui/Alert'
import { Spinner } from '../../components/ui/Spinner'
import { useLocale } from '../../i18n/use-locale'
import { formatMoney } from '../../lib/format'
import { newId } from '../../lib/ids'
import { usePageTitle } from '../../lib/use-page-title'
import { useSync } from '../../sync/use-sync'
import { useSession } from '../auth/session'
import { roleOf } from '../shell/navigation'
import { useAgreement } from '../agreements/use-agreements'
import { requestOneTimeCharge } from './billing-mutations'
import { schemaMessages } from '../../lib/form-issues'
import { MoneyActionForm } from './MoneyActionForm'
import { RecordMissing } from '../../components/sync/RecordMissing'
import { personName } from '../../../shared/erased-person'

/** Request a one-off payment on an accepted agreement (docs/PRODUCT.md §2, §5; agreement admins). */
export function OneTimeChargePage() {
  const { t, i18n } = useLingui()
  const locale = useLocale()
  const { agreementId } = useParams({ from: '/_auth/charges/$agreementId_/oneTimeCharge' })
  const sync = useSync()
  const record = useAgreement(sync, agreementId)
  const agreement = record?.row
  const user = useSession().user
  usePageTitle(t`Request One Off Payment`)
  if (!sync || agreement === undefined || (!agreement && record?.absent === 'loading')) return <Spinner label={t`Loading agreement`} />

  const allowed = user && isAgreementAdmin(roleOf(user))
  const number = agreement?.externalId ?? ''
  const member = personName(agreement?.member?.fullName, i18n) ?? ''
  const price = formatMoney(agreement?.price ?? 0, locale)
  return (
    <div className="page">
      <div className="page-header">
        <h1>
          <Trans>Request One Off Payment</Trans>
        </h1>
        <Link to="/charges/$agreementId" params={{ agreementId }} className="btn btn-link">
          <Trans>Back to payments</Trans>
        </Link>
      </div>
      {!agreement ?
        <RecordMissing absent={record?.absent === 'offline' ? 'offline' : 'notFound'} notFound={<Trans>Agreement not found</Trans>} />
      : !allowed ?
        <Alert variant="info">
          <Trans>Only the association's staff can request payments.</Trans>
        </Alert>
      : agreement.status !== 'ACCEPTED' ?
        <Alert variant="warning">{i18n._(messages.oneTimeChargeNeedsAccepted.id)}</Alert>
      : <MoneyActionForm
          label={t`Request One Off Payment`}
          submitLabel={<Trans>Request payment</Trans>}
          success={i18n._(messages.oneTimeChargeCreated.id)}
          check={({ amount, description }) => schemaMessages(OneTimeChargeRequest.safeParse({ amount: amount ?? 0, description }), i18n)}
          submit={({ amount, description }) =>
            requestOneTimeCharge(sync, { id: agreement.id, companyId: agreement.companyId ?? '' }, { id: newId(), amount, description })
          }
        >
          <p>
            <Trans>
              Agreement {number} with {member}. The member is charged through Vipps MobilePay; the usual price is {price}.
            </Trans>
          </p>
        </MoneyActionForm>
      }
    </div>
  )
}
