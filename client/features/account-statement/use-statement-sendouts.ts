/** The yearly sendouts of a company (decision 0068): read from the server, and a year sent once (it needs the connection). */
import { useCallback, useEffect, useMemo, useState } from 'react'
import { z } from 'zod'
import { StatementSendout } from '../../../shared/contract/account-statement'
import { api, ApiError, createActionKey } from '../../lib/api'

export type SendoutsState = { status: 'loading' } | { status: 'ready'; sendouts: StatementSendout[] } | { status: 'error'; offline: boolean }

export function useStatementSendouts(companyId: string) {
  const [state, setState] = useState<SendoutsState>({ status: 'loading' })
  const [round, setRound] = useState(0)
  const action = useMemo(() => createActionKey(), [])
  const reload = useCallback(() => setRound((n) => n + 1), [])

  useEffect(() => {
    const abort = new AbortController()
    api('GET', `/companies/${companyId}/account-statement-sendouts`, { schema: z.array(StatementSendout), signal: abort.signal })
      .then((sendouts) => !abort.signal.aborted && setState({ status: 'ready', sendouts }))
      .catch((err: unknown) => !abort.signal.aborted && setState({ status: 'error', offline: err instanceof ApiError && err.status === 0 }))
    return () => abort.abort()
  }, [companyId, round])

  /** Queues the year; throws the server's refusal (an ApiError) as it came. The same action keeps its key across a retry. */
  const send = useCallback(
    async (year: number) => {
      try {
        await api('POST', `/companies/${companyId}/account-statement-sendouts/${year}`, { schema: StatementSendout, action })
        action.settle()
      } catch (err) {
        if (err instanceof ApiError && err.status !== 0 && err.status < 500) action.settle()
        throw err
      } finally {
        reload()
      }
    },
    [companyId, action, reload],
  )

  return { state, send, reload, round }
}
