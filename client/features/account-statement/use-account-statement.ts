/**
 * An account statement (decision 0068): from the server when it answers; when it cannot be reached,
 * computed from the device's copy with the same rules (local-statement.ts), marked `local` so
 * the screen says it is the offline copy.
 */
import { useEffect, useState } from 'react'
import { AccountStatementResponse } from '../../../shared/contract/account-statement'
import { api, ApiError } from '../../lib/api'
import type { SyncHandle } from '../../sync/use-sync'
import { localStatement } from './local-statement'

export interface StatementRequest {
  companyId: string
  /** Another member's (staff); null: the signed-in user's own. */
  userId: string | null
  year: number
  /** An interim statement's last day (decision 0081); absent: the whole year, or to today while it runs. */
  through?: string
}

export type StatementState =
  | { status: 'loading' }
  | { status: 'ready'; data: AccountStatementResponse; source: 'server' | 'local' }
  | { status: 'error'; offline: boolean; message: string }

export function useAccountStatement(handle: SyncHandle | null, request: StatementRequest | null, own: { id: string; name: string } | null): StatementState {
  const [state, setState] = useState<StatementState>({ status: 'loading' })
  const key = JSON.stringify(request)
  useEffect(() => {
    if (!request || !own) return
    const abort = new AbortController()
    setState({ status: 'loading' })
    const offline = async () => {
      const local = handle ? await localStatement(handle.db, { ...request, ownUserId: own.id, ownName: own.name }) : null
      if (abort.signal.aborted) return
      setState(local ? { status: 'ready', data: local, source: 'local' } : { status: 'error', offline: true, message: '' })
    }
    const path = request.userId ? `/companies/${request.companyId}/members/${request.userId}/account-statement` : '/account-statement'
    const query = {
      ...(request.userId ? {} : { companyId: request.companyId }),
      year: String(request.year),
      ...(request.through ? { through: request.through } : {}),
    }
    api('GET', path, { query, schema: AccountStatementResponse, signal: abort.signal })
      .then((data) => !abort.signal.aborted && setState({ status: 'ready', data, source: 'server' }))
      .catch((err: unknown) => {
        if (abort.signal.aborted) return
        // Unreachable (offline, or the server failing): the local copy answers with the same rules.
        if (err instanceof ApiError && (err.status === 0 || err.status >= 500)) return void offline()
        setState({ status: 'error', offline: false, message: err instanceof ApiError ? err.message : '' })
      })
    return () => abort.abort()
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, handle, own?.id])
  return state
}
