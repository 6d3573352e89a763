import { useRef, useState, type FormEvent, type KeyboardEvent, type ReactNode } from 'react'
import { Trans, useLingui } from '@lingui/react/macro'
import { Button } from '../../components/ui/Button'
import { SelectField, TextField } from '../../components/ui/TextField'
import { offlineDisabled } from '../../components/sync/OfflineReason'

export interface EditableFieldProps {
  label: string
  /** The value as shown when not editing. */
  display: string | null
  /** The value the editor starts from. */
  value: string
  input:
    | {
        kind: 'text' | 'email' | 'tel'
        autoComplete?: string
        inputMode?: 'text' | 'numeric' | 'decimal'
        placeholder?: string
        /** Rewrites what the user types (e.g. digits into dd.mm). */
        format?: (typed: string) => string
      }
    | { kind: 'select'; options: readonly { value: string; label: string }[] }
  /**
   * A second, password input shown while editing (e.g. the current password that confirms a
   * security change); what it holds is passed to `onSave` and forgotten when the editor closes.
   */
  confirmation?: { label: string; autoComplete: string; hint?: string }
  /** Shown under the value when not editing (e.g. a change waiting for confirmation). */
  note?: ReactNode
  /**
   * Saves the value; resolves to null on success, else to an error message for the field, or to
   * messages for the field and the confirmation input each.
   */
  onSave: (value: string, confirmation: string) => Promise<SaveProblem>
  /**
   * Offline, for a value only the server can change: the id of the `OfflineReason` that says why;
   * the Edit button is then disabled and described by it.
   */
  offlineReasonId?: string
  /** Called when the editor opens (e.g. to keep the row as it was then, for the save). */
  onEdit?: () => void
}

export type SaveProblem = string | { value?: string | null; confirmation?: string | null } | null

/**
 * One inline-editable profile value (docs/PRODUCT.md §2 "User profile"): Edit opens an editor with Save and
 * Cancel; Enter saves, Escape cancels, and focus returns to the Edit button.
 */
export function EditableField({ label, display, value, input, confirmation, note, onSave, offlineReasonId, onEdit }: EditableFieldProps) {
  const { t } = useLingui()
  const [editing, setEditing] = useState(false)
  const [draft, setDraft] = useState(value)
  const [secret, setSecret] = useState('')
  const [error, setError] = useState<string | null>(null)
  const [secretError, setSecretError] = useState<string | null>(null)
  const [saving, setSaving] = useState(false)
  const editButton = useRef<HTMLButtonElement>(null)
  const formRef = useRef<HTMLFormElement>(null)

  const close = () => {
    setEditing(false)
    setError(null)
    setSecret('')
    setSecretError(null)
    // The editor unmounts; put focus back where the user started.
    requestAnimationFrame(() => editButton.current?.focus())
  }

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault()
    setSaving(true)
    const problem = await onSave(draft, secret).finally(() => setSaving(false))
    if (!problem) return close()
    setError(typeof problem === 'string' ? problem : (problem.value ?? null))
    setSecretError(typeof problem === 'string' ? null : (problem.confirmation ?? null))
    // The input with the message gets the focus, so the message is read out with it.
    requestAnimationFrame(() => formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus())
  }

  const onKeyDown = (event: KeyboardEvent<HTMLFormElement>) => {
    // Enter submits text inputs natively; a select needs it done by hand.
    if (event.key === 'Enter' && event.target instanceof HTMLSelectElement) {
      event.preventDefault()
      event.currentTarget.requestSubmit()
    }
    if (event.key === 'Escape') {
      event.preventDefault()
      event.stopPropagation()
      close()
    }
  }

  if (!editing) {
    return (
      <div className="editable-row">
        <dt>{label}</dt>
        <dd>
          <span className={display ? '' : 'muted'}>{display || t`Not set`}</span>
          <Button
            ref={editButton}
            variant="ghost"
            size="sm"
            {...(offlineReasonId ? offlineDisabled(false, offlineReasonId) : {})}
            onClick={() => {
              setDraft(value)
              setEditing(true)
              onEdit?.()
            }}
          >
            {/* The field name is in the button's text, not an aria-label, so that finding the
                field by its label does not also find its buttons. */}
            <Trans>
              Edit <span className="sr-only">{label}</span>
            </Trans>
          </Button>
          {note && <p className="field-hint">{note}</p>}
        </dd>
      </div>
    )
  }

  return (
    <div className="editable-row is-editing">
      <dt className="sr-only">{label}</dt>
      <dd>
        <form ref={formRef} className="editable-form" onSubmit={(e) => void onSubmit(e)} onKeyDown={onKeyDown} noValidate>
          {input.kind === 'select' ?
            <SelectField label={label} value={draft} options={input.options} onChange={(e) => setDraft(e.target.value)} error={error} autoFocus />
          : <TextField
              label={label}
              type={input.kind}
              autoComplete={input.autoComplete}
              inputMode={input.inputMode}
              placeholder={input.placeholder}
              value={draft}
              onChange={(e) => setDraft(input.format ? input.format(e.target.value) : e.target.value)}
              error={error}
              autoFocus
            />
          }
          {confirmation && (
            <TextField
              label={confirmation.label}
              type="password"
              autoComplete={confirmation.autoComplete}
              value={secret}
              onChange={(e) => setSecret(e.target.value)}
              hint={confirmation.hint}
              error={secretError}
            />
          )}
          <div className="form-actions">
            <Button variant="secondary" size="sm" onClick={close} disabled={saving}>
              <Trans>
                Cancel <span className="sr-only">{label}</span>
              </Trans>
            </Button>
            <Button type="submit" size="sm" busy={saving}>
              <Trans>
                Save <span className="sr-only">{label}</span>
              </Trans>
            </Button>
          </div>
        </form>
      </dd>
    </div>
  )
}
