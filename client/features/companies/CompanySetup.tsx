import { Trans } from '@lingui/react/macro'
import type { CompanyMember } from '../../../shared/contract/companies'
import type { PaymentProvider } from '../../../shared/contract/payment-providers'
import type { CompanyStatus } from '../../../shared/domain/company-status'
import { Alert } from '../../components/ui/Alert'
import type { SyncHandle } from '../../sync/use-sync'
import { useCompanyRows } from './use-company-rows'

export type SetupStep = 'provider' | 'address' | 'administrator' | 'activate'

/**
 * What a company still needs before it can collect payments (docs/decisions/0038-companies-members-and-addresses.md): an active payment
 * provider, at least one address, a chairman or administrator, and the status Active.
 */
export function missingSetup(input: {
  status: CompanyStatus
  providers: Pick<PaymentProvider, 'isActive'>[]
  addresses: unknown[]
  members: Pick<CompanyMember, 'role'>[]
}): SetupStep[] {
  const missing: SetupStep[] = []
  if (!input.providers.some((p) => p.isActive)) missing.push('provider')
  if (input.addresses.length === 0) missing.push('address')
  if (!input.members.some((m) => m.role === 'CHAIRMAN' || m.role === 'ADMINISTRATOR')) missing.push('administrator')
  if (input.status === 'NEW') missing.push('activate')
  return missing
}

/**
 * The list of what is missing, on a new (or an active but incomplete) company, for the super admin
 * and the company's admin staff; read from the local copy, so it also shows offline.
 */
export function CompanySetup({ handle, companyId, status, superAdmin }: { handle: SyncHandle; companyId: string; status: CompanyStatus; superAdmin: boolean }) {
  const providers = useCompanyRows(handle, 'paymentProvider', companyId) as (Partial<PaymentProvider> & { id: string })[] | undefined
  const addresses = useCompanyRows(handle, 'address', companyId)
  const members = useCompanyRows(handle, 'member', companyId) as (Partial<CompanyMember> & { id: string })[] | undefined
  if (!providers || !addresses || !members || (status !== 'NEW' && status !== 'ACTIVE')) return null
  const missing = missingSetup({
    status,
    providers: providers.map((p) => ({ isActive: p.isActive === true })),
    addresses,
    members: members.flatMap((m) => (m.role ? [{ role: m.role }] : [])),
  })
  if (missing.length === 0) return null
  if (missing.length === 1 && missing[0] === 'activate')
    return (
      <Alert variant="info">
        {superAdmin ?
          <Trans>Everything is set up: activate the company to start collecting payments.</Trans>
        : <Trans>Everything is set up: the company starts collecting payments once the super admin activates it.</Trans>}
      </Alert>
    )
  return (
    <Alert variant="warning">
      <p className="setup-title">
        <strong>
          <Trans>Before this company can collect payments:</Trans>
        </strong>
      </p>
      <ul className="setup-list">
        {missing.includes('provider') && (
          <li>
            {superAdmin ?
              <Trans>Add an active payment provider (Vipps MobilePay) on the Payment Providers tab.</Trans>
            : <Trans>The super admin adds an active payment provider (Vipps MobilePay).</Trans>}
          </li>
        )}
        {missing.includes('address') && (
          <li>
            <Trans>Add at least one address on the Addresses tab.</Trans>
          </li>
        )}
        {missing.includes('administrator') && (
          <li>
            <Trans>Add a chairman or an administrator on the Users tab.</Trans>
          </li>
        )}
        {missing.includes('activate') && (
          <li>
            {superAdmin ?
              <Trans>Activate the company.</Trans>
            : <Trans>The super admin activates the company.</Trans>}
          </li>
        )}
      </ul>
    </Alert>
  )
}
