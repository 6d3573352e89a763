import { Link } from '@tanstack/react-router'
import { Trans, useLingui } from '@lingui/react/macro'
import { usePageTitle } from '../../lib/use-page-title'

export function NotFound() {
  const { t } = useLingui()
  usePageTitle(t`Page not found`)
  return (
    <div className="page">
      <h1>
        <Trans>Page not found</Trans>
      </h1>
      <p>
        <Trans>The page you are looking for does not exist.</Trans>
      </p>
      <p>
        <Link to="/">
          <Trans>Go to the front page</Trans>
        </Link>
      </p>
    </div>
  )
}
