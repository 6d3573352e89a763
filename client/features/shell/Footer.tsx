import { Link } from '@tanstack/react-router'
import { Trans, useLingui } from '@lingui/react/macro'

export function Footer() {
  const { t } = useLingui()
  return (
    <footer className="site-footer">
      <nav aria-label={t`Footer`} className="footer-links">
        <Link to="/contact">
          <Trans>Contact us</Trans>
        </Link>
        <Link to="/legal/terms">
          <Trans>Terms of use</Trans>
        </Link>
        <Link to="/legal/privacy">
          <Trans>Privacy policy</Trans>
        </Link>
      </nav>
      <p className="footer-company">© {new Date().getFullYear()} Boligkasse ApS</p>
    </footer>
  )
}
