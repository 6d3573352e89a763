import { Trans, useLingui } from '@lingui/react/macro'
import { TextField } from '../../components/ui/TextField'

export type CredentialField = 'providerName' | 'merchantSerialNumber' | 'subscriptionKey' | 'clientId' | 'clientSecret'

/**
 * The Vipps MobilePay provider's name and credentials, as both the add form and the edit form ask
 * for them. Without `stored` (a new provider) the secrets are required; with it (an existing one)
 * they start empty, an empty one keeps the stored value, and the masked stored value shows as a
 * hint: a secret is never shown.
 */
export function ProviderCredentialFields({
  values,
  errors,
  set,
  stored,
}: {
  values: Record<CredentialField, string>
  errors: Partial<Record<CredentialField, string>>
  set: (field: CredentialField) => (e: { target: { value: string } }) => void
  stored?: { clientSecret?: string; subscriptionKey?: string }
}) {
  const { t } = useLingui()
  const secretHint = (masked: string | undefined) =>
    masked ?
      <Trans>
        Stored: <span className="secret-hint">{masked}</span>. Leave empty to keep it.
      </Trans>
    : undefined
  // Both masked the same way, in this order.
  const secrets = [
    ['clientSecret', t`Client secret`],
    ['subscriptionKey', t`Subscription key`],
  ] as const

  return (
    <>
      <TextField label={t`Provider name`} value={values.providerName} onChange={set('providerName')} error={errors.providerName} required autoComplete="off" />
      <TextField
        label={t`Merchant serial number`}
        value={values.merchantSerialNumber}
        onChange={set('merchantSerialNumber')}
        error={errors.merchantSerialNumber}
        required
        autoComplete="off"
        inputMode="numeric"
      />
      <TextField label={t`Client ID`} value={values.clientId} onChange={set('clientId')} error={errors.clientId} required autoComplete="off" />
      {secrets.map(([field, label]) => (
        <TextField
          key={field}
          label={label}
          type="password"
          value={values[field]}
          onChange={set(field)}
          error={errors[field]}
          hint={secretHint(stored?.[field])}
          required={!stored}
          autoComplete="new-password"
        />
      ))}
    </>
  )
}
