import { useRef, useState } from 'react'
import { useRegisterSW } from 'virtual:pwa-register/react'
import { Trans } from '@lingui/react/macro'
import { Button } from '../../components/ui/Button'
import { whileOutboxIdle } from '../../sync/engine'
import { offlineUnavailable, watchOfflineReadiness } from '../sync-status/offline-ready'
import { OfflineReadyAnnouncer } from '../sync-status/OfflineReadiness'

const HOUR = 60 * 60 * 1000
const ACTIVATE_WAIT_MS = 5000

/**
 * Lets the waiting service worker take over, then reloads. We reload ourselves instead of waiting
 * for `controllerchange`: a page opened before any worker was installed is not controlled, never
 * sees that event, and would otherwise ignore the click.
 */
async function activateAndReload(registration: ServiceWorkerRegistration | undefined): Promise<void> {
  const waiting = registration?.waiting
  if (waiting) {
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ACTIVATE_WAIT_MS)
      waiting.addEventListener('statechange', () => {
        if (waiting.state === 'activated' || waiting.state === 'redundant') {
          clearTimeout(timer)
          resolve()
        }
      })
      waiting.postMessage({ type: 'SKIP_WAITING' })
    })
  }
  location.reload()
}

/**
 * Registers the service worker (registerType "prompt", docs/OFFLINE.md) and asks before switching to
 * a new version, checking for one every hour. The switch reloads the page, so it waits until no
 * tab is sending a queued change (see `whileOutboxIdle`); queued changes survive the reload. Only
 * the first worker of a browser takes over without asking (nothing older is in use; decision 0087):
 * the sync status follows that (`watchOfflineReadiness`).
 */
export function UpdatePrompt() {
  const [waiting, setWaiting] = useState(false)
  const registration = useRef<ServiceWorkerRegistration | undefined>(undefined)
  const {
    needRefresh: [needRefresh, setNeedRefresh],
  } = useRegisterSW({
    // At once, not after the window's load event: the first visit becomes ready offline sooner (decision 0087).
    immediate: true,
    onRegisteredSW(_url, r) {
      registration.current = r
      watchOfflineReadiness()
      if (r) setInterval(() => void r.update().catch(() => undefined), HOUR)
    },
    onRegisterError: offlineUnavailable,
  })

  const reload = () => {
    setWaiting(true)
    void whileOutboxIdle(() => activateAndReload(registration.current)).finally(() => setWaiting(false))
  }

  return (
    <>
      <OfflineReadyAnnouncer />
      {needRefresh && (
        <div className="update-prompt" role="status">
          <span>
            {waiting ?
              <Trans>Sending your changes before the update…</Trans>
            : <Trans>A new version is available</Trans>}
          </span>
          <Button size="sm" onClick={reload} busy={waiting}>
            <Trans>Reload</Trans>
          </Button>
          <Button size="sm" variant="ghost" onClick={() => setNeedRefresh(false)} disabled={waiting}>
            <Trans>Later</Trans>
          </Button>
        </div>
      )}
    </>
  )
}
