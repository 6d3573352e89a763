import { useId, useRef, useState, type FormEvent } from 'react'
import { Trans, useLingui } from '@lingui/react/macro'
import { useLocale } from '../../i18n/use-locale'
import type { Mutation } from '../../sync/local-db'
import type { FieldConflict, Side } from '../../sync/merge'
import type { EditField } from '../../sync/mutation-kinds'
import { mergeOf } from '../../sync/outbox'
import { queueActions, type SyncHandle } from '../../sync/use-sync'
import { Alert } from '../ui/Alert'
import { Button } from '../ui/Button'
import './conflict.css'

/**
 * A change that met a newer version on the server (docs/OFFLINE.md "Conflicts and refusals"): everything that does not collide
 * is already merged; for each field (or part) both changed differently the user picks "Your
 * change" or "Now on the server", side by side (stacked on a phone), in words, money in kroner and
 * dates as dates. Radios in a fieldset per field, one "Save choice", or "Discard my change".
 */
export function ConflictChoice({ handle, mutation }: { handle: SyncHandle; mutation: Mutation }) {
  const { t, i18n } = useLingui()
  const locale = useLocale()
  const id = useId()
  const formRef = useRef<HTMLFormElement>(null)
  const [choices, setChoices] = useState<Record<string, Side>>({})
  const [missing, setMissing] = useState(false)
  const [busy, setBusy] = useState(false)
  const merged = mergeOf(mutation, mutation.conflict)
  if (!merged) return null
  const { fields, result } = merged
  const fieldOf = (name: string) => fields.find((f) => f.name === name)
  const ctx = { i18n, locale }
  const show = (field: EditField | undefined, value: unknown) => {
    if (value === undefined && field?.list) return t`(removed)`
    return field ? field.format(value, ctx) : String(value ?? '')
  }
  const legendOf = (c: FieldConflict) => {
    const field = fieldOf(c.field)
    const label = field ? i18n._(field.label) : c.field
    if (!c.itemId) return label
    return `${label}: ${show(field, c.base ?? c.server ?? c.mine)}`
  }
  // The user's changes that go through as they are (whatever is chosen below).
  const kept = result.changed.filter((name) => !result.conflicts.some((c) => c.field === name && !c.itemId)).map((name) => fieldOf(name))
  const actions = queueActions(handle)

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault()
    if (busy) return
    const open = result.conflicts.find((c) => !choices[c.key])
    if (open) {
      setMissing(true)
      formRef.current?.querySelector<HTMLInputElement>(`input[data-key="${CSS.escape(open.key)}"]`)?.focus()
      return
    }
    setBusy(true)
    try {
      await actions.resolve(mutation, choices)
    } finally {
      setBusy(false)
    }
  }
  const onDiscard = async () => {
    setBusy(true)
    try {
      await actions.discard(mutation)
    } finally {
      setBusy(false)
    }
  }

  return (
    <form ref={formRef} className="conflict-choice" noValidate onSubmit={(e) => void onSubmit(e)} aria-label={t`Choose which version to keep`}>
      <p>
        <Trans>Someone else changed this while your change was waiting to be sent. Where you both changed the same thing, choose which version to keep.</Trans>
      </p>
      {kept.length > 0 && (
        <p className="muted">
          <Trans>Your other changes are kept: {kept.map((f) => (f ? i18n._(f.label) : '')).join(', ')}.</Trans>
        </p>
      )}
      {result.conflicts.map((c) => {
        const field = fieldOf(c.field)
        const name = `${id}-${c.key}`
        const option = (side: Side, heading: string, value: unknown) => (
          <label className="conflict-option">
            <input
              type="radio"
              name={name}
              value={side}
              data-key={side === 'mine' ? c.key : undefined}
              checked={choices[c.key] === side}
              onChange={() => {
                setChoices((all) => ({ ...all, [c.key]: side }))
                setMissing(false)
              }}
            />
            <span className="conflict-side">{heading}</span>
            <span className="conflict-value">{show(field, value)}</span>
          </label>
        )
        return (
          <fieldset key={c.key} className={`conflict-field${missing && !choices[c.key] ? ' field-invalid' : ''}`}>
            <legend className="conflict-legend">{legendOf(c)}</legend>
            <div className="conflict-options">
              {option('mine', t`Your change`, c.mine)}
              {option('server', t`Now on the server`, c.server)}
            </div>
          </fieldset>
        )
      })}
      {missing && (
        <Alert variant="error">
          <Trans>Choose a version for each field.</Trans>
        </Alert>
      )}
      <div className="change-problem-actions">
        <Button type="submit" size="sm" busy={busy}>
          <Trans>Save choice</Trans>
        </Button>
        <Button type="button" size="sm" variant="ghost" busy={busy} onClick={() => void onDiscard()}>
          <Trans>Discard my change</Trans>
        </Button>
      </div>
    </form>
  )
}
