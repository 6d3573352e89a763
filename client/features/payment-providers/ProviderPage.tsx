import { Trans, useLingui } from '@lingui/react/macro'
import { Link, useParams } from '@tanstack/react-router'
import type { PaymentProvider } from '../../../shared/contract/payment-providers'
import { ChangeProblem } from '../../components/sync/ChangeProblem'
import { Badge } from '../../components/ui/Badge'
import { Spinner } from '../../components/ui/Spinner'
import { Switch } from '../../components/ui/Switch'
import { usePageTitle } from '../../lib/use-page-title'
import { useRecord } from '../../sync/use-record'
import { useSync } from '../../sync/use-sync'
import { useSession } from '../auth/session'
import { ProviderConfigForm } from './ProviderConfigForm'
import { setProviderSwitch } from './provider-mutations'
import { WebhooksSection } from './WebhooksSection'
import { RecordMissing } from '../../components/sync/RecordMissing'

export type ProviderView = Partial<PaymentProvider> & { id: string; _version: number }

/**
 * A payment provider (docs/PRODUCT.md §2 "Payment provider edit"), read from the local copy so it shows
 * offline. The two switches save at once through the outbox; the config form and the webhooks
 * talk to the server directly (they carry secrets or call Vipps). Only the super admin changes
 * anything (docs/PRODUCT.md §6); company staff see it read-only.
 */
export function ProviderPage() {
  const { t } = useLingui()
  const { id: companyId, providerId } = useParams({ from: '/_auth/company/$id_/payment-provider/$providerId' })
  const sync = useSync()
  const state = useRecord<PaymentProvider>(sync, 'paymentProvider', providerId)
  const superAdmin = useSession().user?.userRole === 'SUPERADMIN'
  const provider = state?.row?.companyId === companyId ? (state.row as ProviderView) : null
  usePageTitle(provider?.config?.providerName ?? t`Payment provider`)

  if (!sync || !state || (!provider && state.absent === 'loading')) return <Spinner label={t`Loading payment provider`} />
  const back = (
    <Link to="/company/$id" params={{ id: companyId }} className="btn btn-link">
      <Trans>Back to company</Trans>
    </Link>
  )
  if (!provider) {
    return (
      <div className="page">
        <h1>
          <Trans>Payment provider</Trans>
        </h1>
        <RecordMissing absent={state.absent === 'offline' ? 'offline' : 'notFound'} notFound={<Trans>Payment provider not found</Trans>} />
        {back}
      </div>
    )
  }

  return (
    <div className="page page-narrow">
      <div className="page-header">
        <h1>{provider.config?.providerName}</h1>
        {back}
      </div>
      {state.problems.map((m) => (
        <ChangeProblem key={m.mutationId} handle={sync} mutation={m} />
      ))}
      <section className="card form" aria-labelledby="provider-status-title">
        <h2 id="provider-status-title">
          <Trans>Status</Trans>
        </h2>
        <p>
          <Trans>Type</Trans>: <Badge variant="info">{provider.type ?? 'VIPPS'}</Badge>
        </p>
        <Switch
          label={t`Active`}
          hint={t`An inactive provider collects nothing, and its webhooks cannot be changed.`}
          checked={provider.isActive === true}
          disabled={!superAdmin}
          onChange={(on) => void setProviderSwitch(sync, { ...provider, companyId }, 'isActive', on)}
        />
        <Switch
          label={t`Test environment`}
          hint={t`On: Vipps MobilePay's test environment (no real money). Off: production.`}
          checked={provider.isTest === true}
          disabled={!superAdmin}
          onChange={(on) => void setProviderSwitch(sync, { ...provider, companyId }, 'isTest', on)}
        />
      </section>
      {superAdmin && <ProviderConfigForm provider={{ ...provider, companyId }} />}
      <WebhooksSection provider={{ ...provider, companyId }} canManage={superAdmin} />
    </div>
  )
}
