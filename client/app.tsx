/** The app: API client, sync session, locale and the router, started by main.tsx once it has asked for the first sync pages. */
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { I18nProvider } from '@lingui/react'
import { RouterProvider } from '@tanstack/react-router'
import { useLingui } from '@lingui/react/macro'
import { Overlay } from './components/ui/Spinner'
import { clearSession, isSignedIn, sessionStore, startSession, useSession } from './features/auth/session'
import { activateLocale, currentLocale, i18n, storedLocale } from './i18n/i18n'
import { configureApi } from './lib/api'
import { loadAppEnv } from './lib/app-env'
import { installGlobalErrorReporting } from './lib/report-error'
import { router } from './router'
import { installSyncSession } from './sync/use-sync'
import './styles.css'

function App() {
  const { t } = useLingui()
  const session = useSession()
  return (
    <>
      <RouterProvider router={router} />
      {session.status === 'validating' && <Overlay label={t`Validating authentication`} />}
    </>
  )
}

/**
 * Loads the registry of queued-change kinds, trying again after a failed load (a network blip, a
 * deploy while the tab was open); after the last try the sync session starts anyway: syncing with
 * some changes named "Change" is better than not syncing at all.
 */
async function loadMutationKinds(): Promise<void> {
  for (let attempt = 0; attempt < 4; attempt++) {
    try {
      await import('./sync/all-mutation-kinds')
      return
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 500 * 2 ** attempt))
    }
  }
}

async function start() {
  configureApi({
    getToken: () => sessionStore.get().token,
    // The session's check may go out before the catalog is active: until then, the language it will be in.
    getLocale: () => (i18n.locale ? currentLocale() : storedLocale()),
    onUnauthorized: (token) => {
      // Only the session that used this token ends. A token being tried for the first time
      // (sign-in, ?authToken=) has no session yet: its caller reports the failure.
      const { token: held } = sessionStore.get()
      if (held !== token) return
      const hadSession = isSignedIn()
      clearSession()
      if (hadSession) void router.navigate({ to: '/login' })
    },
  })
  // The first screen waits for the catalog of its language and for the session's start-up check
  // (route guards await it): both are asked for first, so the files fetched beside them (the
  // queued-change kinds below) do not queue ahead of them in the service worker (docs/OFFLINE.md
  // "Cold start").
  const localeActivated = activateLocale(storedLocale(), { remember: false })
  void startSession()
  // Every kind of queued change, with its name, before the engine reads the queue (docs/OFFLINE.md "Outbox"): its
  // own chunk, fetched beside the locale, so the first screen does not wait for it (a screen that
  // shows queued changes imports its feature's kinds itself). The sync session starts once it is in.
  void loadMutationKinds().then(() => {
    // The signed-in user's offline store and sync engine follow the session. A token the server
    // refuses while syncing ends the session but keeps the queue: it is sent after the next sign-in.
    installSyncSession({
      current: () => {
        const { token, user } = sessionStore.get()
        return token && user ? { userId: user.id, token } : null
      },
      subscribe: sessionStore.subscribe,
      getLocale: currentLocale,
      onAuthPaused: (token) => {
        if (sessionStore.get().token !== token) return
        clearSession()
        void router.navigate({ to: '/login', search: { reason: 'expired' } })
      },
    })
  })
  installGlobalErrorReporting()
  void loadAppEnv()
  await localeActivated
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <I18nProvider i18n={i18n}>
        <App />
      </I18nProvider>
    </StrictMode>,
  )
}

void start()
