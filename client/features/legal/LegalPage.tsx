import type { ReactNode } from 'react'
import { Link } from '@tanstack/react-router'
import { Trans } from '@lingui/react/macro'
import { useLocale } from '../../i18n/use-locale'
import { formatDate } from '../../lib/format'
import { usePageTitle } from '../../lib/use-page-title'

/** Frame of the static legal texts: heading, "last updated" (today, docs/PRODUCT.md §2) and a contact link. */
export function LegalPage({ title, children }: { title: string; children: ReactNode }) {
  const locale = useLocale()
  usePageTitle(title)
  const today = formatDate(new Date(), locale, 'long')
  return (
    <article className="page page-text">
      <h1>{title}</h1>
      <p className="muted">
        <Trans>Last updated: {today}</Trans>
      </p>
      {children}
      <p>
        <Trans>
          Questions about this text? <Link to="/contact">Contact us</Link>.
        </Trans>
      </p>
    </article>
  )
}
