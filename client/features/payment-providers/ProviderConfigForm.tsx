import { useState, type FormEvent } from 'react'
import { msg } from '@lingui/core/macro'
import { Trans, useLingui } from '@lingui/react/macro'
import { UpdateProviderRequest } from '../../../shared/contract/payment-providers'
import { Alert } from '../../components/ui/Alert'
import { Button } from '../../components/ui/Button'
import { ApiError, createActionKey, errorMessage } from '../../lib/api'
import { requestSync } from '../../sync/use-sync'
import { issuesByField, type Notice } from '../../lib/form-issues'
import { testProviderConnection, updateProviderConfig } from './provider-actions'
import type { ProviderView } from './ProviderPage'
import { ProviderCredentialFields, type CredentialField } from './ProviderCredentialFields'

const updateFailed = msg`Failed to update provider. Please try again.`
const needsConnection = msg`You are offline. Provider settings are saved when you are online.`

/**
 * The provider's config (docs/PRODUCT.md §2 "Payment provider edit", §3). Secrets are never shown: the field
 * starts empty, shows the masked stored value as a hint, and an empty field keeps the stored one.
 * Sent directly (not queued), so no secret is ever written to the browser's database.
 */
export function ProviderConfigForm({ provider }: { provider: ProviderView & { companyId: string } }) {
  const { t, i18n } = useLingui()
  const config = provider.config
  const [values, setValues] = useState<Record<CredentialField, string>>({
    providerName: config?.providerName ?? '',
    merchantSerialNumber: config?.merchantSerialNumber ?? '',
    subscriptionKey: '',
    clientId: config?.clientId ?? '',
    clientSecret: '',
  })
  const [useTestMode, setUseTestMode] = useState(config?.useTestMode ?? true)
  const [errors, setErrors] = useState<Partial<Record<CredentialField, string>>>({})
  const [notice, setNotice] = useState<Notice | null>(null)
  const [busy, setBusy] = useState<'save' | 'test' | null>(null)
  const [saveAction] = useState(createActionKey)
  const [testAction] = useState(createActionKey)
  const set = (field: CredentialField) => (e: { target: { value: string } }) => setValues((v) => ({ ...v, [field]: e.target.value }))

  const save = async (event: FormEvent) => {
    event.preventDefault()
    const parsed = UpdateProviderRequest.safeParse({ config: { ...values, useTestMode } })
    if (!parsed.success) return setErrors(issuesByField<CredentialField>(parsed.error.issues, i18n, 1))
    setErrors({})
    setBusy('save')
    try {
      const saved = await updateProviderConfig(provider, parsed.data, saveAction)
      setValues((v) => ({ ...v, subscriptionKey: '', clientSecret: '', providerName: saved.config.providerName }))
      setNotice({ variant: 'success', text: t`Provider updated successfully!` })
      requestSync()
    } catch (e) {
      const offline = e instanceof ApiError && e.status === 0
      setNotice({ variant: 'error', text: offline ? i18n._(needsConnection) : errorMessage(e, i18n._(updateFailed)) })
    } finally {
      setBusy(null)
    }
  }

  const testConnection = async () => {
    setBusy('test')
    try {
      const answer = await testProviderConnection(provider, testAction)
      setNotice({ variant: 'success', text: answer.message })
    } catch (e) {
      setNotice({ variant: 'error', text: errorMessage(e, t`The connection test failed. Please try again.`) })
    } finally {
      setBusy(null)
    }
  }

  return (
    <form className="card form" noValidate onSubmit={(e) => void save(e)} aria-labelledby="provider-config-title">
      <h2 id="provider-config-title">
        <Trans>Configuration</Trans>
      </h2>
      {notice && (
        <Alert key={notice.text} variant={notice.variant}>
          {notice.text}
        </Alert>
      )}
      <ProviderCredentialFields
        values={values}
        errors={errors}
        set={set}
        stored={{ clientSecret: config?.clientSecret, subscriptionKey: config?.subscriptionKey }}
      />
      <label className="checkbox-field">
        <input type="checkbox" checked={useTestMode} onChange={(e) => setUseTestMode(e.target.checked)} /> <Trans>Use test mode</Trans>
      </label>
      <div className="form-actions form-actions-split">
        <Button variant="secondary" busy={busy === 'test'} disabled={busy !== null} onClick={() => void testConnection()}>
          <Trans>Test connection</Trans>
        </Button>
        <Button type="submit" busy={busy === 'save'} disabled={busy !== null}>
          <Trans>Save</Trans>
        </Button>
      </div>
    </form>
  )
}
