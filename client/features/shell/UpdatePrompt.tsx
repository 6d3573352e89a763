import { useRegisterSW } from 'virtual:pwa-register/react'
import { Trans } from '@lingui/react/macro'
import { Button } from '../../components/ui/Button'

const HOUR = 60 * 60 * 1000

/**
 * Registers the service worker (registerType "prompt", OFFLINE.md) and asks before switching to
 * a new version, checking for one every hour.
 */
export function UpdatePrompt() {
  const {
    needRefresh: [needRefresh, setNeedRefresh],
    updateServiceWorker,
  } = useRegisterSW({
    onRegisteredSW(_url, registration) {
      if (registration) setInterval(() => void registration.update().catch(() => undefined), HOUR)
    },
  })
  if (!needRefresh) return null
  return (
    <div className="update-prompt" role="status">
      <span>
        <Trans>A new version is available</Trans>
      </span>
      <Button size="sm" onClick={() => void updateServiceWorker(true)}>
        <Trans>Reload</Trans>
      </Button>
      <Button size="sm" variant="ghost" onClick={() => setNeedRefresh(false)}>
        <Trans>Later</Trans>
      </Button>
    </div>
  )
}
