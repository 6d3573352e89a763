import { useEffect, useRef } from 'react'
import { useLingui } from '@lingui/react/macro'
import { showToast } from '../../lib/toast'
import { mutationKind } from '../../sync/mutation-kinds'
import { isProblem, useOutbox, type SyncHandle } from '../../sync/use-sync'
import { refusalText } from './refusal'

/**
 * Tells the user when the server refuses a change they made earlier (maybe offline, maybe on
 * another screen), with the feature's message: 'Failed to delete notification'. Changes refused
 * before this page opened are not announced again; they stay listed in the sync panel.
 */
export function useProblemToasts(handle: SyncHandle | null): void {
  const { t, i18n } = useLingui()
  const outbox = useOutbox(handle)
  const known = useRef<{ handle: SyncHandle; ids: Set<string> } | null>(null)

  useEffect(() => {
    if (!handle || !outbox) return
    const problems = outbox.filter(isProblem)
    if (known.current?.handle !== handle) {
      known.current = { handle, ids: new Set(problems.map((m) => m.mutationId)) }
      return
    }
    for (const m of problems) {
      if (known.current.ids.has(m.mutationId)) continue
      known.current.ids.add(m.mutationId)
      const kind = mutationKind(m.kind)
      const refused = refusalText(m, i18n)
      showToast(
        'error',
        m.status === 'conflict' ? t`A change conflicts with a newer version on the server`
        : refused ? refused
        : kind ? i18n._(kind.failed)
        : t`A change could not be saved`,
      )
    }
  }, [handle, outbox, t, i18n])
}
