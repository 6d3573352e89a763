import { useLingui } from '@lingui/react/macro'
import { Alert } from '../ui/Alert'
import type { NotKeptError } from '../../sync/outcomes'
import { useNotKeptText } from '../../features/sync-status/refusal'

/** What a queued change waits for: the connection (the browser is offline) or the server to answer. */
export type WaitingFor = 'connection' | 'server'

/**
 * The one wording of a change kept on this device but not yet accepted by the server
 * (docs/OFFLINE.md "Conflicts and refusals"): never "sent" or "created" before the server answered. For toasts and alerts alike.
 */
export function useQueuedText(): (waitingFor: WaitingFor) => string {
  const { t } = useLingui()
  return (waitingFor) => (waitingFor === 'connection' ? t`Queued — will be sent when online.` : t`Queued — will be sent when the server answers.`)
}

/** "Queued — will be sent when …", as a notice in a form. */
export function QueuedNotice({ waitingFor }: { waitingFor: WaitingFor }) {
  return <Alert variant="info">{useQueuedText()(waitingFor)}</Alert>
}

/** The change could not be stored on this device: it was NOT kept, and what to do (the form keeps what was typed). */
export function NotKeptNotice({ error }: { error: NotKeptError }) {
  return <Alert variant="error">{useNotKeptText()(error)}</Alert>
}
