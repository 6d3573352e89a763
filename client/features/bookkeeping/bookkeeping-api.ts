/**
 * Bookkeeping's calls (decision 0067). An online screen: the journal is read from
 * the server a page at a time, and exports and closing a month are sent at once (never queued), each
 * said done only once the server accepted it.
 */
import { z } from 'zod'
import { AccountPlanView, ClosedMonth, JournalExport, JournalPage, type AccountPlanInput, type ExportRequest } from '../../../shared/contract/bookkeeping'
import { api, ApiError, apiFile, type ActionKey } from '../../lib/api'

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

/** An export's file, with the server's name for it. */
export const fetchExportFile = (companyId: string, id: string): Promise<{ blob: Blob; name: string }> =>
  apiFile(`/bookkeeping/${companyId}/exports/${id}/file`, 'bogfoering')

/** Whether a call failed for want of a connection (nothing reached the server). */
export const offlineOf = (err: unknown) => err instanceof ApiError && err.status === 0
