/**
 * The statistics of a period (decision 0032): from the server when it answers; when it cannot be
 * reached, computed here from the synced invoices, agreements and company with the same shared
 * rules (shared/domain/statistics*.ts), and marked `local` so the screen says so.
 */
import { useEffect, useState } from 'react'
import { ChargeStatistics, type StatisticsPeriodType } from '../../../shared/contract/statistics'
import type { Invoice } from '../../../shared/contract/invoices'
import { documentOfInvoice, sortAgreementsByExternalId, statisticsFromDocuments } from '../../../shared/domain/statistics'
import { resolvePeriod } from '../../../shared/domain/statistics-period'
import { api, ApiError } from '../../lib/api'
import { todayIso } from '../../lib/format'
import type { LocalDb } from '../../sync/local-db'
import type { SyncHandle } from '../../sync/use-sync'

export interface StatisticsRequest {
  companyId: string
  type: StatisticsPeriodType
  startDate?: string
  endDate?: string
  agreementId?: string
}

export type StatisticsState =
  { status: 'loading' } | { status: 'ready'; data: ChargeStatistics; source: 'server' | 'local' } | { status: 'error'; code: string; message: string }

/** Computes the statistics from the local copy; a period the rules refuse comes back as its reason. */
export async function localStatistics(
  db: LocalDb,
  r: StatisticsRequest,
  today = todayIso(),
): Promise<ChargeStatistics | 'heating-water-missing' | 'custom-dates-missing'> {
  const [company, invoices, agreements] = await Promise.all([
    db.companies.get(r.companyId),
    db.invoices.where('companyId').equals(r.companyId).toArray(),
    db.agreements.where('companyId').equals(r.companyId).toArray(),
  ])
  const period = resolvePeriod(r, today, {
    heatingWaterPeriodStartDate: (company?.heatingWaterPeriodStartDate as string | null | undefined) ?? null,
    heatingWaterPeriodEndDate: (company?.heatingWaterPeriodEndDate as string | null | undefined) ?? null,
  })
  if (typeof period === 'string') return period
  const documents = (invoices as unknown as Invoice[]).filter((i) => i.kind && i.invoiceArticles).map(documentOfInvoice)
  return {
    agreements: sortAgreementsByExternalId(
      agreements.filter((a) => typeof a.externalId === 'string').map((a) => ({ externalId: a.externalId as string, id: a.id })),
    ),
    statistics: statisticsFromDocuments(documents, { ...period, agreementId: r.agreementId }),
    type: r.type,
    ...period,
  }
}

export function useChargeStatistics(handle: SyncHandle | null, request: StatisticsRequest | null): StatisticsState {
  const [state, setState] = useState<StatisticsState>({ status: 'loading' })
  const key = JSON.stringify(request)
  useEffect(() => {
    if (!request) return
    const abort = new AbortController()
    setState({ status: 'loading' })
    const offline = async () => {
      if (!handle) return setState({ status: 'error', code: 'NETWORK_ERROR', message: '' })
      const local = await localStatistics(handle.db, request)
      if (abort.signal.aborted) return
      if (typeof local === 'string') setState({ status: 'error', code: local, message: '' })
      else setState({ status: 'ready', data: local, source: 'local' })
    }
    const { companyId, ...query } = request
    api('GET', `/company/${companyId}/charges-statistics`, { query, schema: ChargeStatistics, signal: abort.signal })
      .then((data) => !abort.signal.aborted && setState({ status: 'ready', data, source: 'server' }))
      .catch((err: unknown) => {
        if (abort.signal.aborted) return
        // Unreachable (offline, or the server failing): the local copy answers with the same rules.
        if (err instanceof ApiError && (err.status === 0 || err.status >= 500)) return void offline()
        const e = err instanceof ApiError ? err : new ApiError(0, 'UNKNOWN', '')
        setState({ status: 'error', code: e.code, message: e.message })
      })
    return () => abort.abort()
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, handle])
  return state
}
