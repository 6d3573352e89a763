import { useEffect, useState } from 'react'
import { msg } from '@lingui/core/macro'
import { Trans, useLingui } from '@lingui/react/macro'
import { PendingMarker } from '../../components/sync/PendingMarker'
import { Link, useNavigate, useParams } from '@tanstack/react-router'
import { canEdit, canTerminate } from '../../../shared/domain/agreement-status'
import { isAgreementAdmin, isCompanyStaff } from '../../../shared/domain/roles'
import { ChangeProblem } from '../../components/sync/ChangeProblem'
import { Alert } from '../../components/ui/Alert'
import { Badge } from '../../components/ui/Badge'
import { Button, buttonClass } from '../../components/ui/Button'
import { Spinner } from '../../components/ui/Spinner'
import { Table } from '../../components/ui/Table'
import { useLocale } from '../../i18n/use-locale'
import { ApiError, createActionKey, errorMessage } from '../../lib/api'
import { formatDate, formatMoney } from '../../lib/format'
import { usePageTitle } from '../../lib/use-page-title'
import { requestSync, useSync, useSyncStatus, type SyncHandle } from '../../sync/use-sync'
import { useSession } from '../auth/session'
import { roleOf } from '../shell/navigation'
import { acceptAgreement, rejectAgreement } from './agreement-actions'
import { statusBadge } from './agreement-format'
import { agreementStatusLabels, partTypeLabels, paymentPeriodLabels } from './labels'
import type { PaymentProvider } from '../../../shared/contract/payment-providers'
import type { CollectionProblem } from '../../../shared/domain/agreement-status'
import { useCompanyRows } from '../companies/use-company-rows'
import { collectionProblemOf, collectionProblemText, nextPaymentOf } from './agreement-state'
import { useAddressLine } from './use-address-line'
import { TerminateDialog } from './TerminateDialog'
import { OpenBalance } from '../billing/OpenBalance'
import { useAgreement, type AgreementView } from './use-agreements'
import { RecordMissing } from '../../components/sync/RecordMissing'
import { OfflineReason } from '../../components/sync/OfflineReason'
import { personName, personEmail } from '../../../shared/erased-person'

const acceptFailed = msg`Failed to accept the agreement. Please try again.`
const rejectFailed = msg`Failed to reject the agreement. Please try again.`
/** While Vipps MobilePay has the last word, the view asks for news this often. */
const PENDING_REFRESH_MS = 3000

/**
 * One agreement (docs/PRODUCT.md §2 "Agreement view"), from the local copy so it shows offline. Staff edit and
 * terminate it (queued, also offline); its member accepts or rejects it while it is new, which
 * needs Vipps MobilePay and so the network.
 */
export function AgreementPage() {
  const { t } = useLingui()
  const { id } = useParams({ from: '/_auth/agreements/$id' })
  const sync = useSync()
  const state = useAgreement(sync, id)
  const agreement = state?.row as AgreementView | null | undefined
  const number = agreement?.externalId
  usePageTitle(number ? t`Agreement ${number}` : t`Agreement`)

  // Waiting for the member's answer in Vipps: the server hears it (webhook or poll) within seconds.
  const pending = agreement?.status === 'PENDING'
  useEffect(() => {
    if (!pending) return
    const timer = setInterval(requestSync, PENDING_REFRESH_MS)
    return () => clearInterval(timer)
  }, [pending])

  if (!sync || !state || (!agreement && state.absent === 'loading')) return <Spinner label={t`Loading agreement`} />
  if (!agreement) {
    return (
      <div className="page">
        <h1>
          <Trans>Agreement</Trans>
        </h1>
        <RecordMissing absent={state.absent === 'offline' ? 'offline' : 'notFound'} notFound={<Trans>Agreement not found</Trans>} />
        <BackLink />
      </div>
    )
  }
  return <AgreementDetails handle={sync} agreement={agreement} problems={state.problems} />
}

function BackLink() {
  return (
    <Link to="/agreements" className="btn btn-link">
      <Trans>Back to agreements</Trans>
    </Link>
  )
}

function AgreementDetails({
  handle,
  agreement: a,
  problems,
}: {
  handle: SyncHandle
  agreement: AgreementView
  problems: NonNullable<ReturnType<typeof useAgreement>>['problems']
}) {
  const { t, i18n } = useLingui()
  const locale = useLocale()
  const user = useSession().user
  const role = user ? roleOf(user) : 'USER'
  // Company admin staff of this company (not a board member, decision 0024) act on it; others read it.
  const admin = (role === 'SUPERADMIN' || isAgreementAdmin(role)) && a.companyId === user?.currentCompany?.id
  const isMember = a.member?.userId === user?.id
  const addressLine = useAddressLine()
  const providerRows = useCompanyRows(handle, 'paymentProvider', a.companyId ?? '') as (Partial<PaymentProvider> & { id: string })[] | undefined
  const problem = collectionProblemOf(a, new Map((providerRows ?? []).map((p) => [p.id, p])))
  const next = nextPaymentOf(a)
  const [terminating, setTerminating] = useState(false)
  const status = a.status ?? 'CREATED'
  const editable = admin && canEdit({ status, terminationDate: a.terminationDate ?? null })
  const terminable = admin && canTerminate({ status, terminationDate: a.terminationDate ?? null })
  const number = a.externalId
  const title = number ? t`Agreement ${number}` : t`New agreement`

  return (
    <div className="page page-narrow">
      <div className="page-header">
        <h1>{title}</h1>
        <BackLink />
      </div>
      {problems.map((m) => (
        <ChangeProblem key={m.mutationId} handle={handle} mutation={m} />
      ))}
      <StatusNotice agreement={a} isMember={isMember} problem={problem} />
      {problem && !isMember && (
        <Alert variant="warning">
          <strong>
            <Trans>Payments are not collected</Trans>
          </strong>{' '}
          {i18n._(collectionProblemText[problem])}
        </Alert>
      )}
      {a.overdue && (
        <Alert variant="error">
          {a.debtCollection ?
            <Trans>A payment has failed and reminders went unanswered: the agreement is flagged for the association's debt collection.</Trans>
          : <Trans>A payment has failed and is not settled yet. Reminders are sent by e-mail.</Trans>}
        </Alert>
      )}
      <section className="card" aria-labelledby="agreement-details-title">
        <div className="section-header">
          <h2 id="agreement-details-title">
            <Trans>Details</Trans>
          </h2>
          {a._pending && <PendingMarker />}
        </div>
        <dl className="detail-list">
          <dt>
            <Trans>Member</Trans>
          </dt>
          <dd>
            {personName(a.member?.fullName, i18n)}
            {/* The member's account statement (decision 0068): their own, or for the association's staff. */}
            {a.member?.userId && (isMember || (isCompanyStaff(role) && a.companyId === user?.currentCompany?.id)) && (
              <>
                {' · '}
                <Link to="/account-statement" search={isMember ? { companyId: a.companyId } : { userId: a.member.userId }}>
                  <Trans>Account statement</Trans>
                </Link>
              </>
            )}
          </dd>
          <dt>
            <Trans>Email</Trans>
          </dt>
          <dd>
            <a href={`mailto:${personEmail(a.member?.emailAddress)}`}>{personEmail(a.member?.emailAddress)}</a>
          </dd>
          <dt>
            <Trans>Addresses</Trans>
          </dt>
          <dd>
            {a.addresses?.length ?
              <ul className="plain-list">
                {a.addresses.map((ad) => (
                  <li key={ad.id}>{addressLine(ad)}</li>
                ))}
              </ul>
            : <Trans>No addresses</Trans>}
          </dd>
          <dt>
            <Trans>Start payment date</Trans>
          </dt>
          <dd>{a.startPaymentDate ? formatDate(a.startPaymentDate, locale) : '-'}</dd>
          <dt>
            <Trans>Next payment date</Trans>
          </dt>
          <dd>
            {next ? formatDate(next.date, locale) : '-'}
            {next?.kind === 'FINAL' && (
              <span className="muted">
                {' '}
                (<Trans>last payment</Trans>)
              </span>
            )}
          </dd>
          <dt>
            <Trans>Payment period</Trans>
          </dt>
          <dd>{a.paymentPeriod ? i18n._(paymentPeriodLabels[a.paymentPeriod]) : '-'}</dd>
          <dt>
            <Trans>Price</Trans>
          </dt>
          <dd>{formatMoney(a.price ?? 0, locale)}</dd>
          {a.companyId && <OpenBalance companyId={a.companyId} agreementId={a.id} />}
          <dt>
            <Trans>Status</Trans>
          </dt>
          <dd>
            <Badge variant={statusBadge(status, a.overdue === true)}>
              <span className="status-dot" aria-hidden="true" />
              {a.overdue ? t`Overdue` : i18n._(agreementStatusLabels[status])}
            </Badge>
          </dd>
          {a.terminationDate && (
            <>
              <dt>
                <Trans>Termination date</Trans>
              </dt>
              <dd>
                {formatDate(a.terminationDate, locale)}
                {a.finalPaymentRequired && (
                  <span className="muted">
                    {' '}
                    (<Trans>with a last payment</Trans>)
                  </span>
                )}
              </dd>
            </>
          )}
        </dl>
      </section>
      <PartsTable agreement={a} />
      <div className="button-row">
        {editable && (
          <Link to="/agreements/$id/edit" params={{ id: a.id }} className={buttonClass('secondary')}>
            <Trans>Edit</Trans>
          </Link>
        )}
        {(status === 'ACCEPTED' || status === 'CANCELED' || status === 'CLOSED') && !a._pending && (
          <Link to="/charges/$agreementId" params={{ agreementId: a.id }} className={buttonClass('secondary')}>
            <Trans>Payments</Trans>
          </Link>
        )}
        {admin && status === 'ACCEPTED' && !a.terminationDate && !a._pending && problem !== 'NO_PROVIDER_AGREEMENT' && (
          <Link to="/charges/$agreementId/oneTimeCharge" params={{ agreementId: a.id }} className={buttonClass('secondary')}>
            <Trans>Request One Off Payment</Trans>
          </Link>
        )}
        {terminable && (
          <Button variant="danger" onClick={() => setTerminating(true)}>
            <Trans>Terminate</Trans>
          </Button>
        )}
        {isMember && status === 'CREATED' && !a._pending && <MemberAnswer agreementId={a.id} />}
      </div>
      {terminating && <TerminateDialog handle={handle} agreement={a} open onClose={() => setTerminating(false)} />}
    </div>
  )
}

/** What the status means for the person looking, in particular after returning from Vipps. */
function StatusNotice({ agreement: a, isMember, problem }: { agreement: AgreementView; isMember: boolean; problem: CollectionProblem | null }) {
  if (a.status === 'PENDING')
    return (
      <Alert variant="info">
        <Spinner />{' '}
        {isMember ?
          <Trans>Waiting for your approval in Vipps MobilePay. This page updates by itself.</Trans>
        : <Trans>Waiting for the member to approve the agreement in Vipps MobilePay.</Trans>}
      </Alert>
    )
  if (!isMember) return null
  if (a.status === 'CREATED')
    return (
      <Alert variant="info">
        <Trans>Please review the agreement. Accept it to approve the payments in Vipps MobilePay, or reject it.</Trans>
      </Alert>
    )
  if (a.status === 'ACCEPTED' && problem)
    return (
      <Alert variant="warning">
        <Trans>Payments for this agreement are not collected at the moment. Please contact the association.</Trans>
      </Alert>
    )
  if (a.status === 'ACCEPTED' && !a.terminationDate)
    return (
      <Alert variant="success">
        <Trans>The agreement is accepted. The payments are collected through Vipps MobilePay.</Trans>
      </Alert>
    )
  if (a.status === 'REJECTED')
    return (
      <Alert variant="warning">
        <Trans>The agreement was rejected.</Trans>
      </Alert>
    )
  if (a.status === 'EXPIRED')
    return (
      <Alert variant="warning">
        <Trans>The agreement was not approved in time and has expired. Please contact the association.</Trans>
      </Alert>
    )
  return null
}

function PartsTable({ agreement: a }: { agreement: AgreementView }) {
  const { t, i18n } = useLingui()
  const locale = useLocale()
  const parts = a.parts ?? []
  return (
    <section className="card" aria-labelledby="agreement-parts-title">
      <h2 id="agreement-parts-title">
        <Trans>Parts</Trans>
      </h2>
      <Table caption={t`Parts`} captionHidden className="table-parts">
        <thead>
          <tr>
            <th scope="col">
              <Trans>Type</Trans>
            </th>
            <th scope="col" className="hide-phone">
              <Trans>Description</Trans>
            </th>
            <th scope="col" className="cell-number col-vat">
              <Trans>VAT</Trans>
            </th>
            <th scope="col" className="cell-number">
              <Trans>Price</Trans>
            </th>
          </tr>
        </thead>
        <tbody>
          {parts.map((p) => (
            <tr key={p.id}>
              <th scope="row">
                {i18n._(partTypeLabels[p.type])}
                {/* On a phone the description sits under the type, so the price stays in view. */}
                <span className="show-phone muted cell-sub">{p.description}</span>
              </th>
              <td className="cell-wrap hide-phone">{p.description}</td>
              <td className="cell-number col-vat">{p.vatRate} %</td>
              <td className="cell-number cell-nowrap">{formatMoney(p.price, locale)}</td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr>
            <th scope="row" colSpan={2} className="hide-phone">
              <Trans>Total</Trans>
            </th>
            <th scope="row" className="show-phone-cell">
              <Trans>Total</Trans>
            </th>
            <td className="col-vat" />
            <td className="cell-number cell-nowrap">{formatMoney(a.price ?? 0, locale)}</td>
          </tr>
        </tfoot>
      </Table>
    </section>
  )
}

/** Accept (on to Vipps MobilePay) and Reject, for the agreement's member while it is new. */
function MemberAnswer({ agreementId }: { agreementId: string }) {
  const { t, i18n } = useLingui()
  const navigate = useNavigate()
  const [busy, setBusy] = useState<'accept' | 'reject' | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [acceptAction] = useState(createActionKey)
  const [rejectAction] = useState(createActionKey)
  const online = useSyncStatus(useSync()).online

  const accept = async () => {
    setBusy('accept')
    setError(null)
    try {
      const { confirmationUrl } = await acceptAgreement(agreementId, acceptAction)
      window.location.assign(confirmationUrl)
    } catch (e) {
      setError(offlineOr(e, errorMessage(e, i18n._(acceptFailed))))
      setBusy(null)
    }
  }
  const reject = async () => {
    setBusy('reject')
    setError(null)
    try {
      await rejectAgreement(agreementId, rejectAction)
      requestSync()
      void navigate({ to: '/agreements' })
    } catch (e) {
      setError(offlineOr(e, errorMessage(e, i18n._(rejectFailed))))
      setBusy(null)
    }
  }
  const offlineOr = (e: unknown, text: string) =>
    e instanceof ApiError && e.status === 0 ? t`You are offline. Accepting or rejecting needs a connection to Vipps MobilePay.` : text

  return (
    <>
      {!online && (
        <OfflineReason id="answer-offline">
          <Trans>You are offline. Accepting or rejecting needs a connection to Vipps MobilePay.</Trans>
        </OfflineReason>
      )}
      <Button
        variant="secondary"
        onClick={() => void reject()}
        busy={busy === 'reject'}
        disabled={busy !== null || !online}
        aria-describedby={online ? undefined : 'answer-offline'}
      >
        <Trans>Reject</Trans>
      </Button>
      <Button
        onClick={() => void accept()}
        busy={busy === 'accept'}
        disabled={busy !== null || !online}
        aria-describedby={online ? undefined : 'answer-offline'}
      >
        <Trans>Accept</Trans>
      </Button>
      {error && <Alert variant="error">{error}</Alert>}
    </>
  )
}
