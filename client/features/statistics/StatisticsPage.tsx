import { useEffect, useRef, useState } from 'react'
import { Trans, useLingui } from '@lingui/react/macro'
import type { StatisticsPeriodType } from '../../../shared/contract/statistics'
import { isCompanyAdminStaff } from '../../../shared/domain/roles'
import { statisticsCategories } from '../../../shared/domain/statistics'
import { heatingWaterPeriod, isIsoDate } from '../../../shared/domain/statistics-period'
import { Alert } from '../../components/ui/Alert'
import { FilterBar } from '../../components/ui/FilterBar'
import { SelectField, TextField } from '../../components/ui/TextField'
import { Spinner } from '../../components/ui/Spinner'
import { TableFrame } from '../../components/ui/Table'
import { useLocale } from '../../i18n/use-locale'
import { formatDate, formatNumber, todayIso, type Locale } from '../../lib/format'
import { usePageTitle } from '../../lib/use-page-title'
import { useSync } from '../../sync/use-sync'
import { useRecord } from '../../sync/use-record'
import type { Company } from '../../../shared/contract/companies'
import { useSession } from '../auth/session'
import { roleOf } from '../shell/navigation'
import { categoryLabels } from './category-labels'
import { ExportButton } from './ExportButton'
import { useChargeStatistics, type StatisticsRequest } from './use-charge-statistics'

/** Kroner with two decimals, without the currency (the headers say DKK); the cell keeps øre in data-value for the export. */
const Amount = ({ ore, locale }: { ore: number; locale: Locale }) => (
  <td className="cell-number cell-nowrap" data-value={ore}>
    {formatNumber(ore / 100, locale, 2)}
  </td>
)

/**
 * Charges statistics (docs/PRODUCT.md §2 "Charges statistics", decision 0032): what was withdrawn per member
 * address and charge category in a period, for company admin staff; export to a spreadsheet.
 */
export function StatisticsPage() {
  const { t, i18n } = useLingui()
  const locale = useLocale()
  usePageTitle(t`Charges`)
  const user = useSession().user
  const role = user ? roleOf(user) : 'USER'
  const companyId = user?.currentCompany?.id ?? null
  const handle = useSync()
  const company = useRecord<Company>(handle, 'company', companyId ?? '')
  const [type, setType] = useState<StatisticsPeriodType>('current')
  const [agreementId, setAgreementId] = useState('')
  const [custom, setCustom] = useState({ startDate: '', endDate: '' })
  const [heatingMissing, setHeatingMissing] = useState(false)
  const allowed = companyId !== null && isCompanyAdminStaff(role)

  const request: StatisticsRequest | null =
    !allowed ? null
    : type === 'custom' ? { companyId, type, startDate: custom.startDate, endDate: custom.endDate, agreementId: agreementId || undefined }
    : { companyId, type, agreementId: agreementId || undefined }
  const state = useChargeStatistics(handle, request)
  // The dropdown keeps the last known agreements while the next period loads.
  const agreements = useRef<{ id: string; externalId: string }[]>([])
  if (state.status === 'ready') agreements.current = state.data.agreements

  const companyRow = company?.row
  const hasHeatingPeriod =
    companyRow ? heatingWaterPeriod(todayIso(), companyRow.heatingWaterPeriodStartDate, companyRow.heatingWaterPeriodEndDate) !== undefined : true
  const serverSaysMissing = state.status === 'error' && (state.code === 'heating-water-missing' || state.code === 'BUSINESS_RULE')
  useEffect(() => {
    if (heatingMissing || serverSaysMissing) console.warn('Heating & Water Period is not set for this company')
  }, [heatingMissing, serverSaysMissing])

  function choosePeriod(next: StatisticsPeriodType) {
    if (next === 'heating-water' && !hasHeatingPeriod) {
      setHeatingMissing(true)
      return
    }
    setHeatingMissing(false)
    setCustom({ startDate: '', endDate: '' })
    setType(next)
  }

  function changeCustom(field: 'startDate' | 'endDate', value: string) {
    const next = { ...custom, [field]: value }
    setCustom(next)
    setHeatingMissing(false)
    if (isIsoDate(next.startDate) && isIsoDate(next.endDate) && next.startDate <= next.endDate) setType('custom')
  }
  const customInvalid = isIsoDate(custom.startDate) && isIsoDate(custom.endDate) && custom.startDate > custom.endDate

  if (!allowed)
    return (
      <div className="page">
        <h1>
          <Trans>Charges</Trans>
        </h1>
        <Alert variant="warning">
          <Trans>The charge statistics are for the company's administrators, chairman and accountant.</Trans>
        </Alert>
      </div>
    )

  const data = state.status === 'ready' ? state.data : null
  return (
    <div className="page page-statistics">
      <div className="page-header">
        <h1>
          <Trans>Charges</Trans>
        </h1>
        {data && data.statistics.charges.length > 0 && <ExportButton tableId="statistics" filename="charges" sheetName={t`Charges`} />}
      </div>

      <div className="statistics-filters">
        <SelectField
          label={t`Agreement`}
          value={agreementId}
          onChange={(e) => setAgreementId(e.target.value)}
          options={[{ value: '', label: t`All` }, ...agreements.current.map((a) => ({ value: a.id, label: a.externalId }))]}
        />
        <FilterBar
          label={t`Period`}
          options={[
            { key: 'previous' as const, label: t`Previous Year` },
            { key: 'current' as const, label: t`Current Period` },
            { key: 'heating-water' as const, label: t`Heating & Water Period` },
          ]}
          selected={type === 'custom' ? ('custom' as never) : type}
          onSelect={choosePeriod}
        />
        <div className="statistics-dates">
          <TextField label={t`Start date`} type="date" value={custom.startDate} onChange={(e) => changeCustom('startDate', e.target.value)} />
          <TextField
            label={t`End date`}
            type="date"
            value={custom.endDate}
            min={custom.startDate || undefined}
            onChange={(e) => changeCustom('endDate', e.target.value)}
            error={customInvalid ? t`The end date must be on or after the start date` : null}
          />
        </div>
      </div>

      {(heatingMissing || serverSaysMissing) && (
        <Alert variant="warning">
          <Trans>The heating and water period is not set for this company. An administrator can set it on the company page.</Trans>
        </Alert>
      )}
      {data && state.status === 'ready' && state.source === 'local' && (
        <Alert variant="info">
          <Trans>You are offline. These figures are computed from the data on this device and may not include the latest payments.</Trans>
        </Alert>
      )}
      <p className="muted statistics-note">
        <Trans>All amounts are based on what has been withdrawn from members' bank accounts.</Trans>
      </p>

      <section className="card statistics-card" aria-busy={state.status === 'loading'}>
        {state.status === 'loading' ?
          <Spinner label={t`Loading charges`} />
        : state.status === 'error' ?
          !serverSaysMissing && (
            <Alert variant="error">
              <Trans>The charge statistics could not be loaded. Please try again.</Trans>
            </Alert>
          )
        : data!.statistics.charges.length === 0 ?
          <p className="empty">
            <Trans>No charges found for the selected period</Trans>
          </p>
        : <TableFrame labelledBy="statistics-caption">
            <table id="statistics" className="table table-striped table-statistics">
              <caption id="statistics-caption" className="table-caption">
                <Trans>
                  Summary from {formatDate(data!.startDate, locale)} to {formatDate(data!.endDate, locale)}
                </Trans>
              </caption>
              <thead>
                <tr>
                  <th scope="col">
                    <Trans>Address</Trans>
                  </th>
                  {statisticsCategories.map((c) => (
                    <th key={c} scope="col" className="cell-number">
                      {i18n._(categoryLabels[c])}
                    </th>
                  ))}
                  <th scope="col" className="cell-number">
                    <Trans>Total (DKK)</Trans>
                  </th>
                </tr>
              </thead>
              <tbody>
                {data!.statistics.charges.map((row) => (
                  <tr key={row.consumerAddress}>
                    <th scope="row">{row.consumerAddress || t`No address`}</th>
                    {statisticsCategories.map((c) => (
                      <Amount key={c} ore={row.parts[c]} locale={locale} />
                    ))}
                    <Amount ore={row.total} locale={locale} />
                  </tr>
                ))}
              </tbody>
              <tfoot>
                <tr>
                  <th scope="row">
                    <Trans>Summary</Trans>
                  </th>
                  {statisticsCategories.map((c) => (
                    <Amount key={c} ore={data!.statistics.summary[c]} locale={locale} />
                  ))}
                  <Amount ore={data!.statistics.summary.total} locale={locale} />
                </tr>
              </tfoot>
            </table>
          </TableFrame>
        }
      </section>
    </div>
  )
}
