import { useState } from 'react'
import { Trans, useLingui } from '@lingui/react/macro'
import { Button } from '../ui/Button'
import type { Mutation } from '../../sync/local-db'
import { mergeSpecOf, mutationKind } from '../../sync/mutation-kinds'
import { refusalOf } from '../../sync/outcomes'
import { queueActions, type SyncHandle } from '../../sync/use-sync'
import { ConflictChoice } from './ConflictChoice'
import { useRefusalText } from '../../features/sync-status/refusal'

/** The name of a queued change ("Delete notification"), for lists. */
export function useChangeLabel(): (m: Mutation) => string {
  const { t, i18n } = useLingui()
  return (m) => {
    const kind = mutationKind(m.kind)
    return kind ? i18n._(kind.label) : t`Change`
  }
}

/**
 * Whether sending a refused change again can help. Not when it was refused because the user lost
 * access to its company: a retry (under a new key) would only be refused again.
 */
export const canRetry = (m: Mutation): boolean => refusalOf(m)?.code !== 'NO_ACCESS'

/**
 * A change the server refused (with its message, Retry and Discard; Discard only when the user
 * lost access, with why) or one that conflicts with a newer version on the server (both versions
 * side by side, Keep mine or Take theirs).
 */
export function ChangeProblem({ handle, mutation, showLabel = true }: { handle: SyncHandle; mutation: Mutation; showLabel?: boolean }) {
  const { t } = useLingui()
  const label = useChangeLabel()
  const [busy, setBusy] = useState(false)
  const actions = queueActions(handle)
  const run = (action: (m: Mutation) => Promise<unknown>) => async () => {
    setBusy(true)
    try {
      await action(mutation)
    } finally {
      setBusy(false)
    }
  }
  const conflict = mutation.status === 'conflict'
  const reason = mutation.lastError || t`no reason given`
  // Access lost while offline: in words, naming the company (docs/OFFLINE.md "Conflicts and refusals"), not the server's "not found".
  const refused = useRefusalText()(mutation)

  // A versioned edit with registered fields: merged already, the user chooses only where both changed the same thing.
  if (conflict && mergeSpecOf(mutation.kind) && mutation.conflict) {
    return (
      <div className="change-problem change-conflict" data-mutation={mutation.mutationId}>
        {showLabel && <p className="change-problem-label">{label(mutation)}</p>}
        <ConflictChoice handle={handle} mutation={mutation} />
      </div>
    )
  }

  return (
    <div className="change-problem" data-mutation={mutation.mutationId}>
      {showLabel && <p className="change-problem-label">{label(mutation)}</p>}
      <p className="change-problem-message">
        {conflict ?
          <Trans>Someone changed this on the server after you did. Choose which version to keep.</Trans>
        : (refused ?? <Trans>The server refused this change: {reason}</Trans>)}
      </p>
      {!conflict && !canRetry(mutation) && (
        <p className="field-hint change-problem-hint">
          <Trans>Sending it again cannot help without access. Discard it; if you get access back, make the change again.</Trans>
        </p>
      )}
      {conflict && <ConflictVersions mutation={mutation} />}
      <div className="change-problem-actions">
        {conflict ?
          <>
            <Button size="sm" variant="secondary" busy={busy} onClick={run(actions.keepMine)}>
              <Trans>Keep mine</Trans>
            </Button>
            <Button size="sm" variant="secondary" busy={busy} onClick={run(actions.takeTheirs)}>
              <Trans>Take theirs</Trans>
            </Button>
          </>
        : <>
            {canRetry(mutation) && (
              <Button size="sm" variant="secondary" busy={busy} onClick={run(actions.retry)}>
                <Trans>Retry</Trans>
              </Button>
            )}
            <Button size="sm" variant="ghost" busy={busy} onClick={run(actions.discard)}>
              <Trans>Discard</Trans>
            </Button>
          </>
        }
      </div>
    </div>
  )
}

const shown = (value: unknown) =>
  value === undefined ? '—'
  : value === null ? ''
  : typeof value === 'object' ? JSON.stringify(value)
  : String(value)

/** The fields the user's change sets, with the server's current value of each beside it. */
function ConflictVersions({ mutation }: { mutation: Mutation }) {
  const { t } = useLingui()
  const server = (mutation.conflict ?? {}) as Record<string, unknown>
  const mine = (mutation.body && typeof mutation.body === 'object' ? mutation.body : {}) as Record<string, unknown>
  const fields = Object.keys(mine).length ? Object.keys(mine) : Object.keys(server).filter((k) => k !== 'id' && k !== 'version')
  return (
    <div className="table-wrap">
      <table className="table conflict-table">
        <caption className="sr-only">{t`Your change and the server's version`}</caption>
        <thead>
          <tr>
            <th scope="col">{t`Field`}</th>
            <th scope="col">{t`Server's version`}</th>
            <th scope="col">{t`Your change`}</th>
          </tr>
        </thead>
        <tbody>
          {fields.map((field) => (
            <tr key={field}>
              <th scope="row">{field}</th>
              <td className="cell-wrap">{shown(server[field])}</td>
              <td className="cell-wrap">{shown(mine[field])}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}
