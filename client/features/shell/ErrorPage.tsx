import { useEffect } from 'react'
import { Trans, useLingui } from '@lingui/react/macro'
import { Button } from '../../components/ui/Button'
import { reportError } from '../../lib/report-error'
import { usePageTitle } from '../../lib/use-page-title'

/** The router's error boundary: reports the error to the server log and offers a reload. */
export function ErrorPage({ error, reset }: { error: unknown; reset?: () => void }) {
  const { t } = useLingui()
  usePageTitle(t`Something went wrong`)
  useEffect(() => reportError(error, { source: 'error-boundary' }), [error])
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
