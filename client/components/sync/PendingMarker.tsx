import { Trans, useLingui } from '@lingui/react/macro'

/**
 * Marks a change saved on this device that the server has not confirmed yet (docs/OFFLINE.md). Money
 * actions say they will be sent when online, since nothing has been paid or refunded yet.
 */
export function PendingMarker({ money = false }: { money?: boolean }) {
  const { t } = useLingui()
  return money ?
      <span className="pending-marker" title={t`This payment action is saved on this device and will be sent when online.`}>
        <Trans>Will be sent when online</Trans>
      </span>
    : <span className="pending-marker" title={t`This change is saved on this device and will be sent to the server.`}>
        <Trans>Not yet synced</Trans>
      </span>
}
