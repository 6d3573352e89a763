import type { ReactNode } from 'react'
import { Link } from '@tanstack/react-router'
import { Trans, useLingui } from '@lingui/react/macro'
import { Logo } from '../../components/ui/Logo'
import { Footer } from './Footer'
import { LanguageSwitcher } from './LanguageSwitcher'
import { MenuButton } from './MenuButton'
import { SkipLink } from './SkipLink'
import { useCollapsibleMenu } from './use-menu'

/** Header, content and footer for visitors who are not signed in. */
export function GuestLayout({ notices, children }: { notices?: ReactNode; children: ReactNode }) {
  const { t } = useLingui()
  const menu = useCollapsibleMenu()
  return (
    <div className="guest-layout">
      <SkipLink />
      <header className="site-header">
        <div className="site-header-inner">
          <Link to="/" className="logo-link">
            <Logo />
          </Link>
          <MenuButton open={menu.open} controls="guest-menu" onClick={menu.toggle} />
          <div id="guest-menu" className={`header-menu${menu.open ? ' is-open' : ''}`}>
            <nav aria-label={t`Main`} className="header-nav">
              <Link to="/contact" className="header-link">
                <Trans>Contact us</Trans>
              </Link>
              <Link to="/login" className="header-link header-link-primary">
                <Trans>Sign in</Trans>
              </Link>
            </nav>
            <LanguageSwitcher />
          </div>
        </div>
        {notices}
      </header>
      <main id="main" className="guest-main" tabIndex={-1}>
        {children}
      </main>
      <Footer />
    </div>
  )
}
