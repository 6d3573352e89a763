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

async function start() {
  configureApi({
    getToken: () => sessionStore.get().token,
    getLocale: currentLocale,
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
  installGlobalErrorReporting()
  void loadAppEnv()
  await activateLocale(storedLocale())
  void startSession()
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <I18nProvider i18n={i18n}>
        <App />
      </I18nProvider>
    </StrictMode>,
  )
}

void start()
