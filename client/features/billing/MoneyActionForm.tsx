import { useState, type FormEvent, type ReactNode } from 'react'
import { Trans, useLingui } from '@lingui/react/macro'
import { MAX_CHARGE_DESCRIPTION } from '../../../shared/contract/billing'
import { messages } from '../../../shared/i18n-messages'
import { Alert } from '../../components/ui/Alert'
import { Button } from '../../components/ui/Button'
import { TextField } from '../../components/ui/TextField'
import { parseKroner } from '../../lib/kroner-input'
import { useSync, useSyncStatus } from '../../sync/use-sync'

export interface MoneyInput {
  /** øre */
  amount: number
  description: string
}

type Field = 'amount' | 'description'

/**
 * The amount-and-description form of a refund and a one-time charge (spec §2, §5, §8): kroner
 * typed with a comma or a point become exact øre; `check` applies the shared schema (and any
 * limit) and answers a message per field; on success the form is cleared and `success` shown.
 * The action is queued, so offline it says it will be sent when online.
 */
export function MoneyActionForm({
  label,
  submitLabel,
  success,
  check,
  submit,
  children,
}: {
  label: string
  submitLabel: ReactNode
  success: string
  check: (input: { amount: number | null; description: string }) => Partial<Record<Field, string>>
  submit: (input: MoneyInput) => Promise<unknown>
  children?: ReactNode
}) {
  const { t, i18n } = useLingui()
  const online = useSyncStatus(useSync()).online
  const [amount, setAmount] = useState('')
  const [description, setDescription] = useState('')
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({})
  const [done, setDone] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault()
    setDone(null)
    const ore = parseKroner(amount)
    const problems = ore === null ? { amount: i18n._(messages.amountInvalid.id), ...check({ amount: ore, description }) } : check({ amount: ore, description })
    if (ore === null || Object.keys(problems).length > 0) return setErrors(ore === null ? { ...problems, amount: i18n._(messages.amountInvalid.id) } : problems)
    setErrors({})
    setBusy(true)
    try {
      await submit({ amount: ore, description: description.trim() })
      setAmount('')
      setDescription('')
      setDone(online ? success : `${success} ${t`It will be sent when you are online.`}`)
    } finally {
      setBusy(false)
    }
  }

  return (
    <form className="form card page-narrow" noValidate onSubmit={(e) => void onSubmit(e)} aria-label={label}>
      {children}
      {done && <Alert variant="success">{done}</Alert>}
      <TextField
        label={t`Amount (kr.)`}
        inputMode="decimal"
        autoComplete="off"
        value={amount}
        onChange={(e) => setAmount(e.target.value)}
        error={errors.amount}
        hint={t`At least 1 kr., e.g. 250,00`}
        required
      />
      <TextField
        label={t`Description`}
        value={description}
        onChange={(e) => setDescription(e.target.value)}
        error={errors.description}
        maxLength={MAX_CHARGE_DESCRIPTION}
        hint={t`Shown to the member in Vipps MobilePay and on the invoice (at most 45 characters).`}
        required
      />
      {!online && (
        <p className="field-hint">
          <Trans>You are offline. The request is saved on this device and sent once when you are back online.</Trans>
        </p>
      )}
      <div className="form-actions">
        <Button type="submit" busy={busy}>
          {submitLabel}
        </Button>
      </div>
    </form>
  )
}
