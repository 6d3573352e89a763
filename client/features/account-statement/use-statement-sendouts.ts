/**
 * The statement sendouts of a company (decisions 0068 and 0081): read from the server; the yearly
 * statement once the year has ended, an interim statement during it, and resends (it needs the connection).
 */
import { useCallback, useEffect, useMemo, useState } from 'react'
import { z } from 'zod'
import { StatementSendout } from '../../../shared/contract/account-statement'
import { api, ApiError, createActionKey, type ActionKey } from '../../lib/api'

export type SendoutsState = { status: 'loading' } | { status: 'ready'; sendouts: StatementSendout[] } | { status: 'error'; offline: boolean }

/**
 * Posts one intent with its action's key: a retry of the same intent keeps the Idempotency-Key, so
 * the server answers it from its record and sends nothing twice; a refusal or success settles it.
 */
async function post(path: string, action: ActionKey, body?: object): Promise<StatementSendout> {
  try {
    const answer = await api('POST', path, { schema: StatementSendout, action, body })
    action.settle()
    return answer
  } catch (err) {
    if (err instanceof ApiError && err.status !== 0 && err.status < 500) action.settle()
    throw err
  }
}

export function useStatementSendouts(companyId: string) {
  const [state, setState] = useState<SendoutsState>({ status: 'loading' })
  const [round, setRound] = useState(0)
  // One key per kind of intent: the yearly send, an interim, a resend to those not reached, to one member.
  const actions = useMemo(() => ({ yearly: createActionKey(), interim: createActionKey(), resend: createActionKey(), one: createActionKey() }), [])
  const reload = useCallback(() => setRound((n) => n + 1), [])
  const base = `/companies/${companyId}/account-statement-sendouts`

  useEffect(() => {
    const abort = new AbortController()
    api('GET', `/companies/${companyId}/account-statement-sendouts`, { schema: z.array(StatementSendout), signal: abort.signal })
      .then((sendouts) => !abort.signal.aborted && setState({ status: 'ready', sendouts }))
      .catch((err: unknown) => !abort.signal.aborted && setState({ status: 'error', offline: err instanceof ApiError && err.status === 0 }))
    return () => abort.abort()
  }, [companyId, round])

  const after = useCallback(
    async (p: Promise<StatementSendout>) => {
      try {
        return await p
      } finally {
        reload()
      }
    },
    [reload],
  )

  /** Queues the yearly statement of a year that has ended; throws the server's refusal (an ApiError) as it came. */
  const send = useCallback(async (year: number) => await after(post(`${base}/${year}`, actions.yearly)), [after, base, actions])
  /** Queues an interim statement of the running year, 1 January to today. */
  const sendInterim = useCallback(async (year: number) => await after(post(`${base}/${year}/interim`, actions.interim)), [after, base, actions])
  /** Resends a sent statement to one member, or (no `userId`) to those it did not reach. */
  const resend = useCallback(
    async (sendoutId: string, userId?: string) =>
      await after(post(`${base}/${sendoutId}/resend`, userId ? actions.one : actions.resend, userId ? { userId } : {})),
    [after, base, actions],
  )

  return { state, send, sendInterim, resend, reload, round }
}
