import { lazy, Suspense, useEffect, useState, type ReactNode } from 'react'
import { Link } from '@tanstack/react-router'
import { Trans, useLingui } from '@lingui/react/macro'
import type { AccountInfo } from '../../../shared/contract/account'
import { Logo } from '../../components/ui/Logo'
import { useSync, useSyncStatus } from '../../sync/use-sync'
import { SignOutButton } from '../auth/SignOutButton'
import { useUnreadNotifications } from '../notifications/use-notifications'
import { sendPendingLanguage } from '../profile/profile-store'
import { SyncIndicator } from '../sync-status/SyncIndicator'
import { useProblemToasts } from '../sync-status/use-problem-toasts'
import { Footer } from './Footer'
import { MenuButton } from './MenuButton'
import { homePathOf, sidebarSections } from './navigation'
import { SkipLink } from './SkipLink'
import { useCollapsibleMenu } from './use-menu'

// None of its code is needed to show the first screen: it is loaded once the screen is up (see
// AppLayout), so opening it later, also offline, never waits for the network.
const loadSyncPanel = () => import('../sync-status/SyncPanel').then((m) => ({ default: m.SyncPanel }))
const SyncPanel = lazy(loadSyncPanel)
/** How long after the first screen the sync panel's code is fetched. */
const SYNC_PANEL_PREFETCH_MS = 1500

/** The signed-in layout: a sidebar (a collapsible menu on phones) beside the content. */
export function AppLayout({ user, notices, children }: { user: AccountInfo; notices?: ReactNode; children: ReactNode }) {
  const { t, i18n } = useLingui()
  const menu = useCollapsibleMenu()
  const sync = useSync()
  const unread = useUnreadNotifications(sync)
  useProblemToasts(sync)
  const [syncPanel, setSyncPanel] = useState(false)
  useEffect(() => {
    const timer = setTimeout(() => void loadSyncPanel().catch(() => undefined), SYNC_PANEL_PREFETCH_MS)
    return () => clearTimeout(timer)
  }, [])
  const openSyncPanel = () => setSyncPanel(true)
  // A language chosen offline on the Profile screen reaches the account once the server answers
  // again: tried on going online and after every successful sync, since a try made while the
  // browser still thought it was online fails without the online flag ever changing.
  const { online, lastSyncedAt } = useSyncStatus(sync)
  useEffect(() => {
    if (sync && online) void sendPendingLanguage(sync.db)
  }, [sync, online, lastSyncedAt])

  return (
    <div className="app-layout">
      <SkipLink />
      <aside className="sidebar">
        <div className="sidebar-top">
          <Link to={homePathOf(user)} className="logo-link">
            <Logo />
          </Link>
          {sync && <SyncIndicator handle={sync} className="sync-indicator-top" onOpen={openSyncPanel} />}
          <MenuButton open={menu.open} controls="sidebar-menu" onClick={menu.toggle} />
        </div>
        <div id="sidebar-menu" className={`sidebar-menu${menu.open ? ' is-open' : ''}`}>
          {user.currentCompany && <p className="sidebar-company">{user.currentCompany.name}</p>}
          <nav aria-label={t`Main`} className="sidebar-nav">
            <Link to="/notifications" className="nav-link">
              <span>
                <Trans>Notifications</Trans>
              </span>
              {unread > 0 && (
                <span className="badge badge-error nav-badge">
                  <span aria-hidden="true">{unread}</span>
                  <span className="sr-only">{t`${unread} unread`}</span>
                </span>
              )}
            </Link>
            {sidebarSections(user).map((section) => (
              <section key={section.key} className="nav-section" aria-labelledby={`nav-${section.key}`}>
                <h2 id={`nav-${section.key}`} className="nav-section-title">
                  {i18n._(section.title)}
                </h2>
                <ul>
                  {section.links.map((link) => (
                    <li key={link.to}>
                      <Link to={link.to} className="nav-link">
                        {i18n._(link.label)}
                      </Link>
                    </li>
                  ))}
                </ul>
              </section>
            ))}
          </nav>
          <div className="sidebar-footer">
            {sync && <SyncIndicator handle={sync} className="sync-indicator-side" onOpen={openSyncPanel} />}
            <SignOutButton variant="ghost" className="sidebar-signout" />
          </div>
        </div>
        {notices}
      </aside>
      <div className="app-content">
        <main id="main" className="app-main" tabIndex={-1}>
          {children}
        </main>
        <Footer />
      </div>
      {sync && syncPanel && (
        <Suspense fallback={null}>
          <SyncPanel open onClose={() => setSyncPanel(false)} handle={sync} />
        </Suspense>
      )}
    </div>
  )
}
