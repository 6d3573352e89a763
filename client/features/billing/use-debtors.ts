/**
 * The debtor overview's data (decision 0042): pages of `GET /debtors` from the server (it needs the
 * connection: the actions go to Vipps MobilePay), loaded one after another with "Show more".
 */
import { useCallback, useEffect, useState } from 'react'
import { Charge } from '../../../shared/contract/agreements'
import { DebtorPage, type Debtor } from '../../../shared/contract/billing'
import { Invoice } from '../../../shared/contract/invoices'
import { api, ApiError, type ActionKey } from '../../lib/api'

export type DebtorsState =
  { status: 'loading' } | { status: 'ready'; items: Debtor[]; page: DebtorPage; loadingMore: boolean } | { status: 'error'; offline: boolean; message: string }

export function useDebtors(companyId: string | null, agreementId?: string) {
  const [state, setState] = useState<DebtorsState>({ status: 'loading' })
  const [generation, setGeneration] = useState(0)

  useEffect(() => {
    if (!companyId) return
    const abort = new AbortController()
    setState((s) => (s.status === 'ready' ? s : { status: 'loading' }))
    api('GET', '/debtors', { query: { companyId, agreementId }, schema: DebtorPage, signal: abort.signal }).then(
      (page) => setState({ status: 'ready', items: page.items, page, loadingMore: false }),
      (err: unknown) => {
        if (abort.signal.aborted) return
        setState({ status: 'error', offline: err instanceof ApiError && err.status === 0, message: err instanceof ApiError ? err.message : '' })
      },
    )
    return () => abort.abort()
  }, [companyId, agreementId, generation])

  /** Loads the next page after the ones shown. */
  const more = useCallback(async () => {
    if (state.status !== 'ready' || !state.page.nextCursor || !companyId) return
    setState({ ...state, loadingMore: true })
    try {
      const page = await api('GET', '/debtors', { query: { companyId, agreementId, cursor: state.page.nextCursor }, schema: DebtorPage })
      setState({ status: 'ready', items: [...state.items, ...page.items], page, loadingMore: false })
    } catch (err) {
      setState({ status: 'error', offline: err instanceof ApiError && err.status === 0, message: err instanceof ApiError ? err.message : '' })
    }
  }, [state, companyId, agreementId])

  /** Reads the first page again (after an action). */
  const reload = useCallback(() => setGeneration((g) => g + 1), [])

  return { state, more, reload }
}

// The debtor actions go to Vipps MobilePay, so they are sent at once (not queued), once per ActionKey.

/** Collect again: a new payment request for the invoice, with a client-made id; answers the new charge. */
export const retryInvoice = (invoiceId: string, id: string, action: ActionKey) =>
  api('POST', `/invoice/${invoiceId}/retry`, { body: { id }, schema: Charge, action })

/**
 * Marks the invoice paid outside Vipps MobilePay, with the user's note, on `paidOn` (the Copenhagen
 * day the member paid); without one the server records its business day.
 */
export const markInvoicePaid = (invoiceId: string, note: string, paidOn: string | undefined, action: ActionKey) =>
  api('POST', `/invoice/${invoiceId}/markPaid`, { body: { note, paidOn }, schema: Invoice, action })

/** Writes the invoice off; answers the credit note (its id made by the client). */
export const writeOffInvoice = (invoiceId: string, id: string, note: string, action: ActionKey) =>
  api('POST', `/invoice/${invoiceId}/writeOff`, { body: { id, note }, schema: Invoice, action })
