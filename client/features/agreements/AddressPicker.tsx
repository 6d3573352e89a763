import { useId, useRef, useState } from 'react'
import { Trans, useLingui } from '@lingui/react/macro'
import { Button } from '../../components/ui/Button'
import type { AgreementAddress } from './agreement-form'
import { useAddressLine } from './use-address-line'

interface AddressPickerProps {
  /** The company's addresses. */
  addresses: readonly AgreementAddress[]
  selected: readonly string[]
  onChange: (ids: string[]) => void
  error?: string
}

/**
 * docs/PRODUCT.md §2/§5: a dropdown of the company's addresses with an add button; the chosen ones are listed
 * and each can be removed. An address is added only once one is chosen in the dropdown.
 */
export function AddressPicker({ addresses, selected, onChange, error }: AddressPickerProps) {
  const { t } = useLingui()
  const addressLine = useAddressLine()
  const id = useId()
  const [choice, setChoice] = useState('')
  const select = useRef<HTMLSelectElement>(null)
  const available = addresses.filter((a) => !selected.includes(a.id))
  const chosen = selected.map((sid) => addresses.find((a) => a.id === sid)).filter((a): a is AgreementAddress => a !== undefined)

  const add = () => {
    if (!choice) return
    onChange([...selected, choice])
    setChoice('')
    select.current?.focus()
  }

  const remove = (addressId: string) => {
    onChange(selected.filter((s) => s !== addressId))
    select.current?.focus()
  }

  return (
    <fieldset className="address-picker" aria-describedby={error ? `${id}-error` : undefined}>
      <legend className="field-label">
        <Trans>Addresses</Trans>
      </legend>
      {addresses.length === 0 ?
        <p className="empty">
          <Trans>No addresses configured</Trans>
        </p>
      : <div className="address-picker-row">
          <div className="field">
            <label htmlFor={`${id}-select`} className="sr-only">
              <Trans>Address</Trans>
            </label>
            <select
              id={`${id}-select`}
              ref={select}
              className="input"
              value={choice}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? `${id}-error` : undefined}
              onChange={(e) => setChoice(e.target.value)}
              onKeyDown={(e) => {
                // Enter adds the chosen address instead of submitting the whole form.
                if (e.key === 'Enter' && choice) {
                  e.preventDefault()
                  add()
                }
              }}
            >
              <option value="">{available.length ? t`Choose an address` : t`All addresses are added`}</option>
              {available.map((a) => (
                <option key={a.id} value={a.id}>
                  {addressLine(a)}
                </option>
              ))}
            </select>
          </div>
          <Button variant="secondary" onClick={add} disabled={!choice}>
            <Trans>Add address</Trans>
          </Button>
        </div>
      }
      {chosen.length > 0 && (
        <ul className="chip-list" aria-label={t`Chosen addresses`}>
          {chosen.map((a) => {
            const line = addressLine(a)
            return (
              <li key={a.id} className="chip">
                <span className="chip-text">{line}</span>
                <Button variant="ghost" size="sm" onClick={() => remove(a.id)}>
                  <Trans>
                    Remove <span className="sr-only">{line}</span>
                  </Trans>
                </Button>
              </li>
            )
          })}
        </ul>
      )}
      {error && (
        <p id={`${id}-error`} className="field-error">
          {error}
        </p>
      )}
    </fieldset>
  )
}
