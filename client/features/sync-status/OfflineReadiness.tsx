import { useEffect, useRef, useState } from 'react'
import { Trans } from '@lingui/react/macro'
import { useOfflineReadiness } from './offline-ready'

/**
 * Whether the app works offline yet, as a line of the sync indicator
 * (docs/decisions/0087-ready-offline-from-the-first-visit.md). Part of the indicator button's name,
 * so a screen reader reads it with the sync state.
 */
export function OfflineReadinessLine() {
  const readiness = useOfflineReadiness()
  return (
    <span className={`sync-line sync-line-muted sync-line-offline-ready offline-${readiness}`} data-offline-ready={readiness}>
      {readiness === 'ready' ?
        <Trans>Ready offline</Trans>
      : readiness === 'preparing' ?
        <Trans>Getting ready for offline use…</Trans>
      : <Trans>Not available offline</Trans>}
    </span>
  )
}

/** The same, said in full in the sync panel. */
export function OfflineReadinessDetail() {
  const readiness = useOfflineReadiness()
  return (
    <p className="muted" data-offline-ready={readiness}>
      {readiness === 'ready' ?
        <Trans>Ready offline: the app and the screens you opened work without a network.</Trans>
      : readiness === 'preparing' ?
        <Trans>Getting ready for offline use… Until then the app needs the network.</Trans>
      : <Trans>This browser cannot keep the app for offline use.</Trans>}
    </p>
  )
}

/**
 * Says once, politely, when the app has become ready offline during this visit (the first one, or
 * after the worker was reinstalled). Rendered once in the shell; a page that opens ready says nothing.
 */
export function OfflineReadyAnnouncer() {
  const readiness = useOfflineReadiness()
  const initial = useRef(readiness)
  const [said, setSaid] = useState(false)
  useEffect(() => {
    if (readiness === 'ready' && initial.current !== 'ready') setSaid(true)
  }, [readiness])
  return (
    <span className="sr-only" aria-live="polite">
      {said && <Trans>Ready offline</Trans>}
    </span>
  )
}
