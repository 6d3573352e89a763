import { useState, type FormEvent } from 'react'
import { msg } from '@lingui/core/macro'
import { Trans, useLingui } from '@lingui/react/macro'
import { useNavigate } from '@tanstack/react-router'
import { CreateProviderRequest } from '../../../shared/contract/payment-providers'
import { Alert } from '../../components/ui/Alert'
import { Button } from '../../components/ui/Button'
import { ApiError, createActionKey, errorMessage } from '../../lib/api'
import { newId } from '../../lib/ids'
import { requestSync } from '../../sync/use-sync'
import { issuesByField } from '../../lib/form-issues'
import { createProvider } from './provider-actions'
import { ProviderCredentialFields, type CredentialField } from './ProviderCredentialFields'

const createFailed = msg`Failed to add payment provider. Please try again.`
const needsConnection = msg`You are offline. A payment provider can be added when you are online.`

const empty: Record<CredentialField, string> = { providerName: '', merchantSerialNumber: '', subscriptionKey: '', clientId: '', clientSecret: '' }

/**
 * Adds a Vipps MobilePay provider to the company (super admin, docs/PRODUCT.md §2 "Company view"). A new
 * provider is a test one unless switched off here (docs/PRODUCT.md §9). Sent directly, not queued, because it
 * carries secrets; on success the provider's edit page opens.
 */
export function AddProviderForm({ companyId, onDone }: { companyId: string; onDone: () => void }) {
  const { t, i18n } = useLingui()
  const navigate = useNavigate()
  const [values, setValues] = useState(empty)
  const [isTest, setIsTest] = useState(true)
  const [errors, setErrors] = useState<Partial<Record<CredentialField, string>>>({})
  const [failure, setFailure] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const [id] = useState(newId)
  const [action] = useState(createActionKey)
  const set = (field: CredentialField) => (e: { target: { value: string } }) => setValues((v) => ({ ...v, [field]: e.target.value }))

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    const parsed = CreateProviderRequest.safeParse({ id, type: 'VIPPS', isTest, isActive: true, config: { ...values, useTestMode: isTest } })
    if (!parsed.success) return setErrors(issuesByField<CredentialField>(parsed.error.issues, i18n, 1))
    setErrors({})
    setFailure(null)
    setBusy(true)
    try {
      const created = await createProvider(companyId, parsed.data, action)
      requestSync()
      void navigate({ to: '/company/$id/payment-provider/$providerId', params: { id: companyId, providerId: created.id } })
    } catch (e) {
      setFailure(e instanceof ApiError && e.status === 0 ? i18n._(needsConnection) : errorMessage(e, i18n._(createFailed)))
    } finally {
      setBusy(false)
    }
  }

  return (
    <form className="form card" noValidate onSubmit={(e) => void submit(e)} aria-label={t`Add payment provider`}>
      {failure && <Alert variant="error">{failure}</Alert>}
      <p>
        <Trans>Type</Trans>: Vipps MobilePay
      </p>
      <ProviderCredentialFields values={values} errors={errors} set={set} />
      <label className="checkbox-field">
        <input type="checkbox" checked={isTest} onChange={(e) => setIsTest(e.target.checked)} /> <Trans>Test environment</Trans>
      </label>
      <div className="form-actions">
        <Button variant="secondary" onClick={onDone}>
          <Trans>Cancel</Trans>
        </Button>
        <Button type="submit" busy={busy}>
          <Trans>Add payment provider</Trans>
        </Button>
      </div>
    </form>
  )
}
