import { useEffect } from 'react'
import { Trans, useLingui } from '@lingui/react/macro'
import { Alert } from '../../components/ui/Alert'
import { Button } from '../../components/ui/Button'
import { reportError } from '../../lib/report-error'
import { usePageTitle } from '../../lib/use-page-title'

/**
 * A screen's files could not be loaded because the device is offline: a screen never opened while
 * online, whose files the service worker has not stored yet (docs/decisions/0087-ready-offline-from-the-first-visit.md).
 */
const screenNotKept = (error: unknown) =>
  typeof navigator !== 'undefined' &&
  !navigator.onLine &&
  error instanceof Error &&
  // Chromium, Firefox and Safari's words for a module that did not load, and Vite's for a screen's CSS.
  /dynamically imported module|importing a module script failed|unable to preload/i.test(error.message)

/** The router's error boundary: reports the error to the server log and offers a reload. */
export function ErrorPage({ error, reset }: { error: unknown; reset?: () => void }) {
  const { t } = useLingui()
  const offline = screenNotKept(error)
  usePageTitle(offline ? t`Not available offline yet — open it once while online.` : t`Something went wrong`)
  useEffect(() => {
    if (!offline) reportError(error, { source: 'error-boundary' })
  }, [error, offline])
  if (offline)
    return (
      <div className="page">
        <h1>
          <Trans>Offline</Trans>
        </h1>
        <Alert variant="info" className="record-offline">
          <Trans>Not available offline yet — open it once while online.</Trans>
        </Alert>
        <Button onClick={() => (reset ? reset() : location.reload())}>
          <Trans>Try again</Trans>
        </Button>
      </div>
    )
  return (
    <div className="page">
      <h1>
        <Trans>Something went wrong</Trans>
      </h1>
      <p>
        <Trans>An unexpected error stopped this page. The error has been reported.</Trans>
      </p>
      <Button
        onClick={() => {
          if (reset) reset()
          else location.reload()
        }}
      >
        <Trans>Try again</Trans>
      </Button>
    </div>
  )
}
