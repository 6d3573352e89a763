import { useState } from 'react'
import { useRegisterSW } from 'virtual:pwa-register/react'
import { Trans } from '@lingui/react/macro'
import { Button } from '../../components/ui/Button'
import { whileOutboxIdle } from '../../sync/engine'

const HOUR = 60 * 60 * 1000

/**
 * Registers the service worker (registerType "prompt", OFFLINE.md) and asks before switching to
 * a new version, checking for one every hour. The switch reloads the page, so it waits until no
 * tab is sending a queued change (see `whileOutboxIdle`); queued changes survive the reload.
 */
export function UpdatePrompt() {
  const [waiting, setWaiting] = useState(false)
  const {
    needRefresh: [needRefresh, setNeedRefresh],
    updateServiceWorker,
  } = useRegisterSW({
    onRegisteredSW(_url, registration) {
      if (registration) setInterval(() => void registration.update().catch(() => undefined), HOUR)
    },
  })
  if (!needRefresh) return null

  const reload = () => {
    setWaiting(true)
    void whileOutboxIdle(() => updateServiceWorker(true)).finally(() => setWaiting(false))
  }

  return (
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
  )
}
