import { useEffect, useRef, useState } from 'react'
import { Trans, useLingui } from '@lingui/react/macro'
import { partTypes, vatRates, type PartType, type VatRate } from '../../../shared/domain/agreement-parts'
import { Button } from '../../components/ui/Button'
import { SelectField, TextField } from '../../components/ui/TextField'
import { formatMoney } from '../../lib/format'
import { newId } from '../../lib/ids'
import { useLocale } from '../../i18n/use-locale'
import { emptyPart, partErrors, totalOre, type FieldErrors, type PartDraft } from './agreement-form'
import { partTypeLabels } from './labels'
import { translateIssueMessage } from '../../lib/form-issues'

interface PartsEditorProps {
  parts: PartDraft[]
  onChange: (parts: PartDraft[]) => void
  errors: FieldErrors
  onErrors: (errors: FieldErrors) => void
  /** docs/PRODUCT.md §9: OTHER on create, FEE on edit. */
  newPartType: PartType
}

/**
 * The parts of an agreement (docs/PRODUCT.md §2 create and edit): each line editable, removable, and a new
 * line added only once the last one is complete (docs/PRODUCT.md §5). Prices are typed in kroner.
 */
export function PartsEditor({ parts, onChange, errors, onErrors, newPartType }: PartsEditorProps) {
  const { t, i18n } = useLingui()
  const locale = useLocale()
  /** The part whose first field (or, with `invalid`, first field with a message) gets the focus after a render. */
  const [focus, setFocus] = useState<{ key: string; invalid: boolean } | null>(null)
  const firstFields = useRef(new Map<string, HTMLSelectElement>())
  const addButton = useRef<HTMLButtonElement>(null)

  useEffect(() => {
    if (!focus) return
    const first = firstFields.current.get(focus.key)
    const invalid = focus.invalid ? first?.closest('fieldset')?.querySelector<HTMLElement>('[aria-invalid="true"]') : null
    ;(invalid ?? first)?.focus()
    setFocus(null)
  }, [focus])

  const message = (key: string) => (errors[key] ? translateIssueMessage(errors[key], i18n) : undefined)
  const withoutPartErrors = () => Object.fromEntries(Object.entries(errors).filter(([k]) => !k.startsWith('parts')))

  const update = (index: number, patch: Partial<PartDraft>) => {
    onChange(parts.map((p, i) => (i === index ? { ...p, ...patch } : p)))
    const fields = Object.keys(patch).map((f) => `parts.${index}.${f}`)
    if (fields.some((f) => errors[f])) onErrors(Object.fromEntries(Object.entries(errors).filter(([k]) => !fields.includes(k))))
  }

  const add = () => {
    const lastIndex = parts.length - 1
    const incomplete = lastIndex >= 0 ? partErrors(parts[lastIndex]!, lastIndex) : null
    if (incomplete) {
      onErrors({ ...errors, ...incomplete })
      setFocus({ key: parts[lastIndex]!.key, invalid: true })
      return
    }
    const part = emptyPart(newId(), newPartType)
    onErrors(withoutPartErrors())
    onChange([...parts, part])
    setFocus({ key: part.key, invalid: false })
  }

  const remove = (index: number) => {
    onChange(parts.filter((_, i) => i !== index))
    // Messages are keyed by position: after a removal they would point at the wrong lines.
    onErrors(withoutPartErrors())
    const next = parts[index + 1] ?? parts[index - 1]
    if (next) setFocus({ key: next.key, invalid: false })
    else addButton.current?.focus()
  }

  const total = totalOre(parts)
  const typeOptions = partTypes.map((type) => ({ value: type, label: i18n._(partTypeLabels[type]) }))
  const vatOptions = vatRates.map((rate) => ({ value: String(rate), label: `${rate} %` }))

  return (
    <fieldset className="parts-editor" aria-describedby={errors.parts ? 'parts-error' : undefined}>
      <legend className="parts-legend">
        <Trans>Parts</Trans>
      </legend>
      {parts.length === 0 && (
        <p className="empty">
          <Trans>No parts yet.</Trans>
        </p>
      )}
      <ol className="part-list">
        {parts.map((part, index) => {
          const n = index + 1
          return (
            <li key={part.key}>
              <fieldset className="part-row">
                <legend className="part-legend">
                  <Trans>Part {n}</Trans>
                </legend>
                <SelectField
                  label={t`Type`}
                  ref={(el) => {
                    if (el) firstFields.current.set(part.key, el)
                    else firstFields.current.delete(part.key)
                  }}
                  value={part.type}
                  onChange={(e) => update(index, { type: e.target.value as PartType })}
                  error={message(`parts.${index}.type`)}
                  options={typeOptions}
                />
                <TextField
                  label={t`Description`}
                  className="part-description"
                  value={part.description}
                  onChange={(e) => update(index, { description: e.target.value })}
                  error={message(`parts.${index}.description`)}
                  autoComplete="off"
                  maxLength={200}
                />
                <TextField
                  label={t`Price (DKK)`}
                  className="part-price"
                  inputMode="decimal"
                  autoComplete="off"
                  placeholder={locale === 'da' ? '0,00' : '0.00'}
                  value={part.price}
                  onChange={(e) => update(index, { price: e.target.value })}
                  error={message(`parts.${index}.price`)}
                />
                <SelectField
                  label={t`VAT`}
                  value={String(part.vatRate)}
                  onChange={(e) => update(index, { vatRate: Number(e.target.value) as VatRate })}
                  error={message(`parts.${index}.vatRate`)}
                  options={vatOptions}
                />
                <div className="part-remove">
                  <Button variant="ghost" size="sm" onClick={() => remove(index)}>
                    <Trans>
                      Remove <span className="sr-only">part {n}</span>
                    </Trans>
                  </Button>
                </div>
              </fieldset>
            </li>
          )
        })}
      </ol>
      {errors.parts && (
        <p id="parts-error" className="field-error">
          {message('parts')}
        </p>
      )}
      <div className="parts-footer">
        <Button variant="secondary" onClick={add} ref={addButton}>
          <Trans>Add part</Trans>
        </Button>
        <p className="parts-total" aria-live="polite">
          <Trans>Total:</Trans> <strong>{total === null ? '–' : formatMoney(total, locale)}</strong>
        </p>
      </div>
    </fieldset>
  )
}
