import { useState, type FormEvent } from 'react'
import { Trans, useLingui } from '@lingui/react/macro'
import { Button } from '../../components/ui/Button'
import { Modal } from '../../components/ui/Modal'
import { TextAreaField } from '../../components/ui/TextField'
import { ApiError, errorMessage } from '../../lib/api'

/**
 * A dialog asking for a reason, then sending it: a member's report (the reason required) or a
 * moderator hiding something (the reason optional, shown to moderators). Needs a connection.
 */
export function ReasonDialog({
  open,
  title,
  label,
  submitLabel,
  required,
  maxLength,
  check,
  onSend,
  onClose,
}: {
  open: boolean
  title: string
  label: string
  submitLabel: string
  required: boolean
  maxLength: number
  /** The reason's problem in the user's language, or undefined when it may be sent. */
  check: (reason: string) => string | undefined
  onSend: (reason: string) => Promise<void>
  onClose: () => void
}) {
  const { t } = useLingui()
  const [reason, setReason] = useState('')
  const [error, setError] = useState<string | undefined>()
  const [busy, setBusy] = useState(false)
  const submit = async (event: FormEvent) => {
    event.preventDefault()
    const problem = check(reason)
    if (problem) return setError(problem)
    setBusy(true)
    setError(undefined)
    try {
      await onSend(reason.trim())
      setReason('')
      onClose()
    } catch (err) {
      setError(
        err instanceof ApiError && err.status === 0 ? t`This needs a connection. Try again when you are online.` : errorMessage(err, t`It could not be sent.`),
      )
    } finally {
      setBusy(false)
    }
  }
  return (
    <Modal open={open} title={title} onClose={onClose} closeLabel={t`Close`}>
      <form className="form forum-report-form" noValidate onSubmit={(e) => void submit(e)}>
        <TextAreaField
          label={label}
          value={reason}
          onChange={(e) => setReason(e.target.value)}
          error={error}
          rows={3}
          maxLength={maxLength}
          required={required}
        />
        <div className="form-actions">
          <Button variant="secondary" onClick={onClose}>
            <Trans>Cancel</Trans>
          </Button>
          <Button type="submit" busy={busy} disabled={busy}>
            {submitLabel}
          </Button>
        </div>
      </form>
    </Modal>
  )
}
