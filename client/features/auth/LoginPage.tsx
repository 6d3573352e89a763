import { useState, type FormEvent } from 'react'
import { useNavigate } from '@tanstack/react-router'
import { Trans, useLingui } from '@lingui/react/macro'
import { messages } from '../../../shared/i18n-messages'
import { Alert } from '../../components/ui/Alert'
import { Button } from '../../components/ui/Button'
import { TextField } from '../../components/ui/TextField'
import { ApiError, createActionKey } from '../../lib/api'
import { isProductionEnv, useAppEnv } from '../../lib/app-env'
import { usePageTitle } from '../../lib/use-page-title'
import { requestPasswordReset, signIn } from './auth-mutations'

type Method = 'email' | 'token'

/**
 * Sign-in (docs/PRODUCT.md §2 "Login", §4 "Login screen modes"). `error` comes from `?error=` of a failed
 * redirect; `expired` when the session ended while changes were being synced.
 */
export function LoginPage({ error: redirectError, expired = false }: { error?: string; expired?: boolean }) {
  const { t, i18n } = useLingui()
  const navigate = useNavigate()
  const env = useAppEnv()
  const [mode, setMode] = useState<'login' | 'reset'>('login')
  const [method, setMethod] = useState<Method>('email')
  const [email, setEmail] = useState('')
  const [password, setPassword] = useState('')
  const [token, setToken] = useState('')
  const [resetEmail, setResetEmail] = useState('')
  const [error, setError] = useState<string | null>(null)
  const [info, setInfo] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const [action] = useState(createActionKey)
  usePageTitle(mode === 'reset' ? t`Reset password` : t`Sign in`)

  const redirectMessage =
    !redirectError ? null
    : redirectError === 'vipps_unavailable' ? t`Sign-in with Vipps MobilePay is not available right now. Please try again later.`
    : redirectError === 'token_login_failed' ? i18n._(messages.loginFailed)
    : redirectError === 'vipps_no_account' ?
      t`No Boligkasse account has the phone number of your Vipps MobilePay profile. Sign in another way, for example with your e-mail and password, then link Vipps MobilePay from your profile.`
    : redirectError === 'vipps_not_linked' ?
      t`We could not tell which account this Vipps MobilePay number belongs to. Sign in with your e-mail and password, then link Vipps MobilePay from your profile.`
    : t`Sign-in with Vipps MobilePay failed. Please try again.`
  const shownError = error ?? (info ? null : redirectMessage)
  const tokenAllowed = !isProductionEnv(env)
  const activeMethod: Method = tokenAllowed ? method : 'email'

  /** Runs one server call with the busy state and the alerts reset. */
  const run = async (work: () => Promise<void>, failure: (e: unknown) => string) => {
    setBusy(true)
    setError(null)
    setInfo(null)
    try {
      await work()
    } catch (e) {
      setError(failure(e))
    } finally {
      setBusy(false)
    }
  }

  // Rate limiting is the one failure with its own message (from the server, in the user's language).
  const loginFailure = (e: unknown) => (e instanceof ApiError && e.status === 429 ? e.message || i18n._(messages.rateLimited) : i18n._(messages.loginFailed))

  const onSignIn = (event: FormEvent) => {
    event.preventDefault()
    void run(async () => {
      await signIn(activeMethod === 'email' ? { type: 'email', email, password } : { type: 'token', token }, action)
      await navigate({ to: '/' })
    }, loginFailure)
  }

  const onRequestReset = (event: FormEvent) => {
    event.preventDefault()
    void run(
      async () => {
        const message = await requestPasswordReset(resetEmail, action)
        setMode('login')
        setEmail('')
        setResetEmail('')
        setInfo(message)
      },
      (e) => (e instanceof ApiError && e.status === 429 && e.message ? e.message : i18n._(messages.genericError)),
    )
  }

  const openReset = () => {
    setResetEmail(email)
    setError(null)
    setInfo(null)
    setMode('reset')
  }

  const alerts = (
    <>
      {shownError && <Alert variant="error">{shownError}</Alert>}
      {info && <Alert variant="info">{info}</Alert>}
      {expired && !info && !shownError && (
        <Alert variant="warning">
          <Trans>Your session has expired. Sign in again: changes you made that are not synced yet are kept and will be sent.</Trans>
        </Alert>
      )}
    </>
  )

  if (mode === 'reset') {
    return (
      <div className="page page-narrow">
        <div className="card auth-card">
          <h1>
            <Trans>Reset password</Trans>
          </h1>
          <p className="muted">
            <Trans>Enter your e-mail address and we will send you a link to reset your password.</Trans>
          </p>
          {alerts}
          <form onSubmit={onRequestReset} className="form">
            <TextField
              label={t`Email`}
              type="email"
              name="email"
              autoComplete="email"
              required
              autoFocus
              value={resetEmail}
              onChange={(e) => setResetEmail(e.target.value)}
            />
            <div className="form-actions">
              <Button variant="secondary" onClick={() => setMode('login')} disabled={busy}>
                <Trans>Cancel</Trans>
              </Button>
              <Button type="submit" busy={busy}>
                <Trans>Send reset link</Trans>
              </Button>
            </div>
          </form>
        </div>
      </div>
    )
  }

  const emailForm = (
    <form onSubmit={onSignIn} className="form">
      <TextField label={t`Email`} type="email" name="email" autoComplete="username" required value={email} onChange={(e) => setEmail(e.target.value)} />
      <TextField
        label={t`Password`}
        type="password"
        name="password"
        autoComplete="current-password"
        required
        value={password}
        onChange={(e) => setPassword(e.target.value)}
      />
      <div className="form-actions form-actions-split">
        <Button variant="link" onClick={openReset}>
          <Trans>Forgot password</Trans>
        </Button>
        <Button type="submit" busy={busy}>
          <Trans>Sign in</Trans>
        </Button>
      </div>
    </form>
  )

  const tokenForm = (
    <form onSubmit={onSignIn} className="form">
      <TextField label={t`Token`} name="token" autoComplete="off" required value={token} onChange={(e) => setToken(e.target.value)} />
      <div className="form-actions">
        <Button type="submit" busy={busy}>
          <Trans>Sign in</Trans>
        </Button>
      </div>
    </form>
  )

  return (
    <div className="page page-narrow">
      <div className="card auth-card">
        <h1>
          <Trans>Sign in</Trans>
        </h1>
        {alerts}
        {tokenAllowed && (
          // Toggle buttons rather than tabs: a tab panel named "Email" would clash with the
          // e-mail field's label for anyone finding fields by label.
          <div role="group" aria-label={t`Sign-in method`} className="segmented">
            {(['email', 'token'] as const).map((m) => (
              <button
                key={m}
                type="button"
                className="segmented-option"
                aria-pressed={activeMethod === m}
                onClick={() => {
                  setMethod(m)
                  setError(null)
                }}
              >
                {m === 'email' ? t`Email` : t`Token`}
              </button>
            ))}
          </div>
        )}
        {activeMethod === 'email' ? emailForm : tokenForm}
        <div className="divider" role="presentation">
          <span>
            <Trans>or</Trans>
          </span>
        </div>
        {/* The provider's brand name, the same in every language. */}
        <a href="/api/auth/vipps" className="btn btn-vipps btn-block">
          Vipps MobilePay
        </a>
      </div>
    </div>
  )
}
