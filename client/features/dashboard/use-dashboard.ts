/**
 * The dashboard's data (decision 0060): the company's synced rows, live from the local copy, turned
 * into figures by shared/domain/dashboard.ts — the same rules as the charge statistics and the
 * debtor overview on the server — so the screen is the same online and offline.
 */
import { useMemo } from 'react'
import type { CompanyStatus } from '../../../shared/domain/company-status'
import {
  dashboardOf,
  type Dashboard,
  type DashboardAgreement,
  type DashboardCharge,
  type DashboardCompany,
  type DashboardDocument,
  type DashboardInput,
  type DashboardProvider,
} from '../../../shared/domain/dashboard'
import { todayIso } from '../../lib/format'
import type { LocalDb, Row } from '../../sync/local-db'
import { sharedQuery, useSharedQuery, type SharedQuery } from '../../sync/shared-query'
import { absenceOf, type Absence } from '../../sync/use-record'
import { useSyncStatus, type SyncHandle } from '../../sync/use-sync'

/** The rows of one company the dashboard reads, as stored. */
export interface DashboardRows {
  company: Row | undefined
  invoices: Row[]
  charges: Row[]
  agreements: Row[]
  providers: Row[]
}

/** Reads the company's rows from the local copy (one read transaction: see shared-query.ts). */
export async function readDashboardRows(db: LocalDb, companyId: string): Promise<DashboardRows> {
  const [company, invoices, agreements, providers] = await Promise.all([
    db.companies.get(companyId),
    db.invoices.where('companyId').equals(companyId).toArray(),
    db.agreements.where('companyId').equals(companyId).toArray(),
    db.paymentProviders.where('companyId').equals(companyId).toArray(),
  ])
  // Charges are kept by agreement (local-db.ts has no company index on them).
  const charges =
    agreements.length ?
      await db.charges
        .where('agreementId')
        .anyOf(agreements.map((a) => a.id))
        .toArray()
    : []
  return { company, invoices, charges, agreements, providers }
}

const isString = (v: unknown): v is string => typeof v === 'string'

/**
 * The rows in the shape the shared rules read. A row the server has not confirmed yet (a local
 * preview) may lack fields; only complete ones count, as on the statistics screen.
 */
export function dashboardInput(rows: DashboardRows, today: string): DashboardInput {
  const c = rows.company
  const company: DashboardCompany | null =
    c && isString(c.status) ?
      {
        id: c.id,
        status: c.status as CompanyStatus,
        heatingWaterPeriodStartDate: (c.heatingWaterPeriodStartDate as string | null | undefined) ?? null,
        heatingWaterPeriodEndDate: (c.heatingWaterPeriodEndDate as string | null | undefined) ?? null,
      }
    : null
  const documents = rows.invoices.filter((i) => isString(i.kind) && Array.isArray(i.invoiceArticles) && isString(i.dueDate)) as unknown as DashboardDocument[]
  const charges = rows.charges.filter((x) => isString(x.status) && isString(x.due)) as unknown as DashboardCharge[]
  const agreements = rows.agreements.filter((a) => isString(a.externalId) && isString(a.status) && a.member) as unknown as DashboardAgreement[]
  const providers: DashboardProvider[] = rows.providers.map((p) => {
    const hooks = p.hooks as unknown[] | undefined
    return {
      id: p.id,
      isActive: p.isActive === true,
      providerName: ((p.config as { providerName?: string } | undefined)?.providerName ?? '').trim(),
      webhooks:
        Array.isArray(hooks) ? hooks.length
        : typeof p.webhookCount === 'number' ? p.webhookCount
        : 0,
    }
  })
  return { today, company, documents, charges, agreements, providers }
}

function rowsQuery(companyId: string): SharedQuery<DashboardRows> {
  return sharedQuery(`dashboard:${companyId}`, ['companies', 'invoices', 'charges', 'agreements', 'paymentProviders'], (db) => readDashboardRows(db, companyId))
}

export interface DashboardState {
  /** undefined while the local copy opens. */
  dashboard: Dashboard | undefined
  /** Whether the company's row has arrived (the first pull may still be on its way). */
  hasCompany: boolean
  /** `offline`: the server cannot be reached, so the figures are what this device last synced. */
  absent: Absence
}

export function useDashboard(handle: SyncHandle | null, companyId: string): DashboardState {
  const rows = useSharedQuery(handle?.db, rowsQuery(companyId))
  const absent = absenceOf(useSyncStatus(handle))
  const today = todayIso()
  const dashboard = useMemo(() => (rows ? dashboardOf(dashboardInput(rows, today)) : undefined), [rows, today])
  return { dashboard, hasCompany: rows?.company !== undefined, absent }
}
