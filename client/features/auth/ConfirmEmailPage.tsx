import { useEffect, useRef, useState } from 'react'
import { Link } from '@tanstack/react-router'
import { Trans, useLingui } from '@lingui/react/macro'
import { messages } from '../../../shared/i18n-messages'
import { Alert } from '../../components/ui/Alert'
import { Spinner } from '../../components/ui/Spinner'
import { errorMessage } from '../../lib/api'
import { usePageTitle } from '../../lib/use-page-title'
import { confirmEmail, refreshUser } from './auth-mutations'
import { isSignedIn, useSession } from './session'

type Outcome = { status: 'working' } | { status: 'confirmed'; message: string } | { status: 'failed'; message: string }

/**
 * Uses an e-mail confirmation link (`/confirm-email?token=`): an added e-mail sign-in, or a new
 * e-mail address for the account, counts once its owner opens the link. The token is sent once,
 * on arrival, and the server's message is shown. Works signed out as well as signed in.
 */
export function ConfirmEmailPage({ token }: { token?: string }) {
  const { t, i18n } = useLingui()
  const signedIn = isSignedIn(useSession())
  const [outcome, setOutcome] = useState<Outcome>(() =>
    token ? { status: 'working' } : { status: 'failed', message: i18n._(messages.invalidConfirmationLink) },
  )
  /** The token already sent: each link is used once, whatever re-renders or re-runs the effect. */
  const sent = useRef<string | null>(null)
  usePageTitle(t`Confirm e-mail address`)

  useEffect(() => {
    if (!token || sent.current === token) return
    sent.current = token
    setOutcome({ status: 'working' })
    confirmEmail(token).then(
      (message) => {
        setOutcome({ status: 'confirmed', message })
        // A changed account address shows at once in the signed-in app.
        if (isSignedIn()) void refreshUser().catch(() => undefined)
      },
      (e: unknown) => setOutcome({ status: 'failed', message: errorMessage(e, i18n._(messages.genericError)) }),
    )
  }, [token, i18n])

  return (
    <div className="page page-narrow">
      <div className="card auth-card">
        <h1>
          <Trans>Confirm e-mail address</Trans>
        </h1>
        {outcome.status === 'working' ?
          <p>
            <Spinner label={t`Confirming your e-mail address`} />
          </p>
        : <>
            <Alert variant={outcome.status === 'confirmed' ? 'success' : 'error'}>{outcome.message}</Alert>
            <p>
              {signedIn ?
                <Link to="/user" className="btn btn-primary">
                  <Trans>Go to your profile</Trans>
                </Link>
              : <Link to="/login" className="btn btn-primary">
                  <Trans>Go to sign in</Trans>
                </Link>
              }
            </p>
          </>
        }
      </div>
    </div>
  )
}
