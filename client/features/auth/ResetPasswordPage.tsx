import { useState, type FormEvent } from 'react'
import { Link } from '@tanstack/react-router'
import { Trans, useLingui } from '@lingui/react/macro'
import { MIN_PASSWORD_LENGTH } from '../../../shared/contract/auth'
import { messages } from '../../../shared/i18n-messages'
import { Alert } from '../../components/ui/Alert'
import { Button } from '../../components/ui/Button'
import { TextField } from '../../components/ui/TextField'
import { createActionKey, errorMessage } from '../../lib/api'
import { usePageTitle } from '../../lib/use-page-title'
import { resetPassword } from './auth-mutations'

/** Client checks of docs/PRODUCT.md §5 "Reset password", in docs/PRODUCT.md's order; returns a catalog id or null. */
export function resetPasswordProblem(token: string | undefined, password: string, confirmation: string) {
  if (!token) return messages.invalidResetLink
  if (password.length < MIN_PASSWORD_LENGTH) return messages.passwordTooShortReset
  if (password !== confirmation) return messages.passwordsDoNotMatchReset
  return null
}

/** Sets a new password from the e-mailed link (`/reset-password?token&email`). */
export function ResetPasswordPage({ token, email }: { token?: string; email?: string }) {
  const { t, i18n } = useLingui()
  const [password, setPassword] = useState('')
  const [confirmation, setConfirmation] = useState('')
  const [error, setError] = useState<string | null>(token ? null : i18n._(messages.invalidResetLink))
  const [done, setDone] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const [action] = useState(createActionKey)
  usePageTitle(t`Reset password`)

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault()
    const problem = resetPasswordProblem(token, password, confirmation)
    if (problem) return setError(i18n._(problem))
    setBusy(true)
    setError(null)
    try {
      setDone(await resetPassword({ token: token!, email, newPassword: password }, action))
    } catch (e) {
      setError(errorMessage(e, i18n._(messages.genericError)))
    } finally {
      setBusy(false)
    }
  }

  return (
    <div className="page page-narrow">
      <div className="card auth-card">
        <h1>
          <Trans>Reset password</Trans>
        </h1>
        {done ?
          <>
            <Alert variant="success">{done}</Alert>
            <p>
              <Link to="/login" className="btn btn-primary">
                <Trans>Go to sign in</Trans>
              </Link>
            </p>
          </>
        : <form onSubmit={(e) => void onSubmit(e)} className="form" noValidate>
            {error && <Alert variant="error">{error}</Alert>}
            {email && (
              <p className="muted">
                <Trans>Choose a new password for {email}.</Trans>
              </p>
            )}
            <TextField
              label={t`New password`}
              type="password"
              name="new-password"
              autoComplete="new-password"
              required
              minLength={MIN_PASSWORD_LENGTH}
              value={password}
              onChange={(e) => setPassword(e.target.value)}
            />
            <TextField
              label={t`Confirm password`}
              type="password"
              name="confirm-password"
              autoComplete="new-password"
              required
              value={confirmation}
              onChange={(e) => setConfirmation(e.target.value)}
            />
            <div className="form-actions">
              <Button type="submit" busy={busy}>
                <Trans>Reset password</Trans>
              </Button>
            </div>
          </form>
        }
      </div>
    </div>
  )
}
