import { useId } from 'react'
import { Trans, useLingui } from '@lingui/react/macro'
import { paymentPeriods, type PaymentPeriod } from '../../../shared/domain/agreement-parts'
import { paymentPeriodLabels } from './labels'

/** Payment period radios (docs/PRODUCT.md §2), in a fieldset named "Payment period". */
export function PaymentPeriodField({ value, onChange, error }: { value: PaymentPeriod | ''; onChange: (p: PaymentPeriod) => void; error?: string }) {
  const { i18n } = useLingui()
  const id = useId()
  return (
    <fieldset className={`radio-group${error ? ' field-invalid' : ''}`} aria-describedby={error ? `${id}-error` : undefined}>
      <legend className="field-label">
        <Trans>Payment period</Trans>
      </legend>
      <div className="radio-options">
        {paymentPeriods.map((p) => (
          <label key={p} className="radio-option">
            <input type="radio" name={`${id}-period`} value={p} checked={value === p} onChange={() => onChange(p)} aria-invalid={error ? true : undefined} />
            {i18n._(paymentPeriodLabels[p])}
          </label>
        ))}
      </div>
      {error && (
        <p id={`${id}-error`} className="field-error">
          {error}
        </p>
      )}
    </fieldset>
  )
}
