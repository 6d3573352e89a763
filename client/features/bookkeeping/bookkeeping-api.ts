/**
 * Bookkeeping's calls (issue #23 part A, decision 0067). An online screen: the journal is read from
 * the server a page at a time, and exports and closing a month are sent at once (never queued), each
 * said done only once the server accepted it.
 */
import { z } from 'zod'
import { AccountPlanView, ClosedMonth, JournalExport, JournalPage, type AccountPlanInput, type ExportRequest } from '../../../shared/contract/bookkeeping'
import { api, API_BASE, ApiError, type ActionKey } from '../../lib/api'
import { currentLocale } from '../../i18n/i18n'
import { sessionStore } from '../auth/session'

export const fetchPlan = (companyId: string) => api('GET', `/bookkeeping/${companyId}/accounts`, { schema: AccountPlanView })

export const savePlan = (companyId: string, plan: AccountPlanInput, version: number, action: ActionKey) =>
  api('PUT', `/bookkeeping/${companyId}/accounts`, { body: plan, ifMatch: version, schema: AccountPlanView, action })

export const fetchJournal = (companyId: string, q: { from: string; to: string; onlyNew: boolean; cursor?: string }, signal?: AbortSignal) =>
  api('GET', `/bookkeeping/${companyId}/journal`, {
    query: { from: q.from, to: q.to, onlyNew: q.onlyNew ? 'true' : undefined, cursor: q.cursor, limit: 100 },
    schema: JournalPage,
    signal,
  })

export const fetchClosedMonths = (companyId: string) => api('GET', `/bookkeeping/${companyId}/closed-months`, { schema: z.array(ClosedMonth) })

export const closeMonth = (companyId: string, month: string, action: ActionKey) =>
  api('POST', `/bookkeeping/${companyId}/closed-months`, { body: { month }, schema: ClosedMonth, action })

export const createExport = (companyId: string, body: ExportRequest, action: ActionKey) =>
  api('POST', `/bookkeeping/${companyId}/exports`, { body, schema: JournalExport, action })

/** An export's file (the API needs the bearer token a plain link cannot carry), with its name. */
export async function fetchExportFile(companyId: string, id: string): Promise<{ blob: Blob; name: string }> {
  const token = sessionStore.get().token
  let res: Response
  try {
    res = await fetch(`${API_BASE}/bookkeeping/${companyId}/exports/${id}/file`, {
      headers: { 'Accept-Language': currentLocale(), ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    })
  } catch {
    throw new ApiError(0, 'NETWORK_ERROR', '')
  }
  if (!res.ok) throw new ApiError(res.status, res.status === 404 ? 'NOT_FOUND' : 'UNKNOWN', '')
  const name = /filename="([^"]+)"/.exec(res.headers.get('Content-Disposition') ?? '')?.[1] ?? 'bogfoering'
  return { blob: await res.blob(), name }
}

/** Saves a blob under a file name (the browser's download). */
export function saveBlob(blob: Blob, name: string) {
  const url = URL.createObjectURL(blob)
  const a = document.createElement('a')
  a.href = url
  a.download = name
  document.body.append(a)
  a.click()
  a.remove()
  setTimeout(() => URL.revokeObjectURL(url), 10_000)
}
