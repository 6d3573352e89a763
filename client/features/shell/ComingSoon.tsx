import { msg } from '@lingui/core/macro'
import { Trans, useLingui } from '@lingui/react/macro'
import { usePageTitle } from '../../lib/use-page-title'

/** Screens that later issues build; their routes show this placeholder so every link works. */
const titles = {
  home: msg`Home`,
  register: msg`Create an account`,
}

export type ComingSoonPage = keyof typeof titles

export function ComingSoon({ page }: { page: ComingSoonPage }) {
  const { i18n } = useLingui()
  const heading = i18n._(titles[page])
  usePageTitle(heading)
  return (
    <div className="page">
      <h1>{heading}</h1>
      <div className="card coming-soon">
        <p className="coming-soon-title">
          <Trans>Coming soon</Trans>
        </p>
        <p>
          <Trans>This part of Boligkasse is being built and will be available in a later version.</Trans>
        </p>
      </div>
    </div>
  )
}
