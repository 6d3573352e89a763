/**
 * The invitations of an association (docs/PRODUCT.md "Invitations", decision 0091): read from the
 * server page by page, and the actions (invite, the reminder rules) sent at once. Online only: the
 * progress is the server's count of who signed in and accepted, which no device holds offline.
 */
import { useCallback, useEffect, useMemo, useState } from 'react'
import { InvitationProgress, InvitationSettings, InviteResult, type InvitationPerson } from '../../../shared/contract/invitations'
import { api, ApiError, createActionKey, type ActionKey } from '../../lib/api'

export type InvitationsState =
  | { status: 'loading' }
  | { status: 'ready'; progress: InvitationProgress; people: InvitationPerson[]; loadingMore: boolean }
  | { status: 'error'; offline: boolean; message: string }

/** Sends one intent with its action's key: a retry keeps the Idempotency-Key, so the server answers it from its record. */
async function send<T>(run: (action: ActionKey) => Promise<T>, action: ActionKey): Promise<T> {
  try {
    const answer = await run(action)
    action.settle()
    return answer
  } catch (err) {
    if (err instanceof ApiError && err.status !== 0 && err.status < 500) action.settle()
    throw err
  }
}

export function useInvitations(companyId: string | null) {
  const [state, setState] = useState<InvitationsState>({ status: 'loading' })
  const [round, setRound] = useState(0)
  const actions = useMemo(() => ({ all: createActionKey(), chosen: createActionKey(), settings: createActionKey() }), [])
  const reload = useCallback(() => setRound((n) => n + 1), [])
  const base = `/companies/${companyId}/invitations`

  useEffect(() => {
    if (!companyId) return
    const abort = new AbortController()
    api('GET', base, { query: { limit: 50 }, schema: InvitationProgress, signal: abort.signal })
      .then((progress) => !abort.signal.aborted && setState({ status: 'ready', progress, people: progress.people, loadingMore: false }))
      .catch(
        (err: unknown) =>
          !abort.signal.aborted &&
          setState({ status: 'error', offline: err instanceof ApiError && err.status === 0, message: err instanceof ApiError ? err.message : '' }),
      )
    return () => abort.abort()
  }, [companyId, base, round])

  /** The next page of those not done yet, after the ones shown. */
  const more = useCallback(async () => {
    if (state.status !== 'ready' || !state.progress.nextCursor) return
    setState({ ...state, loadingMore: true })
    try {
      const page = await api('GET', base, { query: { limit: 50, cursor: state.progress.nextCursor }, schema: InvitationProgress })
      setState({ status: 'ready', progress: page, people: [...state.people, ...page.people], loadingMore: false })
    } catch {
      setState({ ...state, loadingMore: false })
    }
  }, [state, base])

  /** Invites everyone not signed in yet (no `userIds`), or the chosen ones. */
  const invite = useCallback(
    async (userIds?: string[]) => {
      try {
        return await send(
          (action) => api('POST', base, { schema: InviteResult, action, body: userIds ? { userIds } : {} }),
          userIds ? actions.chosen : actions.all,
        )
      } finally {
        reload()
      }
    },
    [base, actions, reload],
  )

  const saveSettings = useCallback(
    async (settings: InvitationSettings) => {
      try {
        return await send((action) => api('PUT', `${base}/settings`, { schema: InvitationSettings, action, body: settings }), actions.settings)
      } finally {
        reload()
      }
    },
    [base, actions, reload],
  )

  return { state, more, invite, saveSettings, reload, round }
}
