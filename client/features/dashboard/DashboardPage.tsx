import { Plural, Trans, useLingui } from '@lingui/react/macro'
import { useEffect } from 'react'
import { Link, useNavigate } from '@tanstack/react-router'
import { categoriesWithMoney, type Dashboard, type PeriodFigures } from '../../../shared/domain/dashboard'
import { isCompanyAdminStaff, isCompanyStaff } from '../../../shared/domain/roles'
import { Alert } from '../../components/ui/Alert'
import { Spinner } from '../../components/ui/Spinner'
import { Table } from '../../components/ui/Table'
import { useLocale } from '../../i18n/use-locale'
import { formatDate, formatMoney, formatNumber, type Locale } from '../../lib/format'
import { usePageTitle } from '../../lib/use-page-title'
import { useSync } from '../../sync/use-sync'
import { useSession } from '../auth/session'
import { roleOf } from '../shell/navigation'
import { AttentionList } from './AttentionList'
import { categoryLabels, dateRange, longMonth } from './labels'
import { MonthChart } from './MonthChart'
import { useDashboard } from './use-dashboard'
import './dashboard.css'

/**
 * The company dashboard (docs/PRODUCT.md §2 "Company dashboard", decision 0060): the current
 * company's money this month and this year, the next collection, what needs attention and the
 * last twelve months per category — for its staff, from the synced rows, so it shows offline too.
 */
export function DashboardPage() {
  const { t } = useLingui()
  usePageTitle(t`Dashboard`)
  const user = useSession().user
  const role = user ? roleOf(user) : 'USER'
  const company = user?.currentCompany ?? null
  const staff = company !== null && isCompanyStaff(role)
  const navigate = useNavigate()
  // A resident has their own summary on the agreements; the super admin starts at the companies.
  useEffect(() => {
    if (user && !staff) void navigate({ to: role === 'SUPERADMIN' ? '/companies' : '/agreements', replace: true })
  }, [user, staff, role, navigate])
  if (!company || !staff) return null
  return <CompanyDashboard companyId={company.id} companyName={company.name} adminStaff={isCompanyAdminStaff(role)} />
}

function CompanyDashboard({ companyId, companyName, adminStaff }: { companyId: string; companyName: string; adminStaff: boolean }) {
  const { t } = useLingui()
  const locale = useLocale()
  const handle = useSync()
  const { dashboard, hasCompany, absent } = useDashboard(handle, companyId)
  const waiting = !dashboard || (!hasCompany && absent === 'loading')
  return (
    <div className="page page-dashboard">
      <div className="page-header dashboard-header">
        <h1>
          <Trans>Dashboard</Trans>
        </h1>
        <p className="muted dashboard-company">{companyName}</p>
      </div>
      {absent === 'offline' && (
        <Alert variant="info" className="dashboard-offline">
          <Trans>You are offline. These figures are computed from the data on this device and may not include the latest payments.</Trans>
        </Alert>
      )}
      {waiting ?
        <Spinner label={t`Loading the dashboard`} />
      : <DashboardBody dashboard={dashboard} locale={locale} adminStaff={adminStaff} />}
    </div>
  )
}

function DashboardBody({ dashboard: d, locale, adminStaff }: { dashboard: Dashboard; locale: Locale; adminStaff: boolean }) {
  const { t } = useLingui()
  return (
    <>
      <div className="dashboard-summary">
        <Period id="month" title={t`This month`} figures={d.month} locale={locale} />
        <Period id="year" title={t`This year so far`} figures={d.year} locale={locale} />
        <section className="card dashboard-card" aria-labelledby="dashboard-collection-title" data-section="collection">
          <h2 id="dashboard-collection-title">
            <Trans>Collection</Trans>
          </h2>
          <dl className="figure-list">
            <div>
              <dt>
                <Trans>Next collection</Trans>
              </dt>
              <dd data-date={d.next?.date ?? ''}>{d.next ? formatDate(d.next.date, locale, 'long') : t`None planned`}</dd>
            </div>
            {d.next && (
              <div>
                <dt>
                  <Trans>Expected amount</Trans>
                </dt>
                <dd data-ore={d.next.amount}>{formatMoney(d.next.amount, locale)}</dd>
                <dd className="muted dashboard-sub">
                  <Payments payments={d.next.payments} />
                </dd>
              </div>
            )}
            <div>
              <dt>
                <Trans>Outstanding in total</Trans>
              </dt>
              <dd data-figure="outstanding-total" data-ore={d.outstanding.amount}>
                {formatMoney(d.outstanding.amount, locale)}
              </dd>
              <dd className="muted dashboard-sub">
                <UnpaidInvoices invoices={d.outstanding.invoices} />
              </dd>
            </div>
          </dl>
          {adminStaff && d.outstanding.invoices > 0 && (
            <p className="dashboard-card-link">
              <Link to="/debtors">
                <Trans>See debtors</Trans>
              </Link>
            </p>
          )}
        </section>
      </div>
      <p className="muted dashboard-note">
        <Trans>
          Net collected is what the charge statistics show for the same dates: collected less refunded. Outstanding is the unpaid invoices due in the period,
          counted as in the debtor overview.
        </Trans>
      </p>

      <section className="card" aria-labelledby="dashboard-attention-title">
        <h2 id="dashboard-attention-title">
          <Trans>Needs attention</Trans>
        </h2>
        <AttentionList items={d.attention} locale={locale} adminStaff={adminStaff} />
      </section>

      <Months dashboard={d} locale={locale} />
    </>
  )
}

function Period({ id, title, figures: f, locale }: { id: string; title: string; figures: PeriodFigures; locale: Locale }) {
  const { t } = useLingui()
  const rows = [
    { key: 'collected', label: t`Collected`, ore: f.collected },
    { key: 'refunded', label: t`Refunded`, ore: f.refunded },
    { key: 'net', label: t`Net collected`, ore: f.net },
    { key: 'outstanding', label: t`Outstanding`, ore: f.outstanding },
  ]
  return (
    <section className="card dashboard-card" aria-labelledby={`dashboard-${id}-title`} data-period={id} data-start={f.startDate} data-end={f.endDate}>
      <h2 id={`dashboard-${id}-title`}>{title}</h2>
      <p className="muted dashboard-range">{dateRange(f.startDate, f.endDate, locale)}</p>
      <dl className="figure-list">
        {rows.map((r) => (
          <div key={r.key} className={r.key === 'net' ? 'dashboard-figure-net' : undefined}>
            <dt>{r.label}</dt>
            <dd data-figure={r.key} data-ore={r.ore}>
              {formatMoney(r.ore, locale)}
            </dd>
          </div>
        ))}
      </dl>
    </section>
  )
}

function Months({ dashboard: d, locale }: { dashboard: Dashboard; locale: Locale }) {
  const { t, i18n } = useLingui()
  const categories = categoriesWithMoney(d.months)
  const months = d.months.map((m) => m.month)
  const first = longMonth(months[0]!, locale)
  const last = longMonth(months.at(-1)!, locale)
  return (
    <section className="card" aria-labelledby="dashboard-months-title">
      <h2 id="dashboard-months-title">
        <Trans>The last 12 months by category</Trans>
      </h2>
      <p className="muted">
        <Trans>
          Net collected per month from {first} to {last}, in DKK.
        </Trans>
      </p>
      {categories.length === 0 ?
        <p className="empty">
          <Trans>Nothing was collected in the last 12 months.</Trans>
        </p>
      : <>
          {d.heatingWater && (
            <p className="dashboard-legend">
              <span className="dashboard-legend-swatch" aria-hidden="true" />
              <HeatingWaterLegend period={dateRange(d.heatingWater.period.startDate, d.heatingWater.period.endDate, locale)} />
            </p>
          )}
          <div className="dashboard-charts">
            {categories.map((c) => {
              const values = d.months.map((m) => m.categories[c])
              const label = i18n._(categoryLabels[c])
              return (
                <figure key={c} className="dashboard-chart" data-category={c}>
                  <figcaption>
                    <span className="dashboard-chart-name">{label}</span>{' '}
                    <span className="muted">
                      {formatMoney(
                        values.reduce((s, v) => s + v, 0),
                        locale,
                      )}
                    </span>
                  </figcaption>
                  <MonthChart title={t`${label}: net collected per month`} months={months} values={values} band={d.heatingWater} locale={locale} />
                </figure>
              )
            })}
          </div>
          <details className="dashboard-table">
            <summary>
              <Trans>Show as table</Trans>
            </summary>
            <Table caption={t`Net collected per month and category (DKK)`} captionHidden className="table-dashboard">
              <thead>
                <tr>
                  <th scope="col">
                    <Trans>Month</Trans>
                  </th>
                  {categories.map((c) => (
                    <th key={c} scope="col" className="cell-number">
                      {i18n._(categoryLabels[c])}
                    </th>
                  ))}
                  <th scope="col" className="cell-number">
                    <Trans>Total</Trans>
                  </th>
                </tr>
              </thead>
              <tbody>
                {d.months.map((m) => (
                  <tr key={m.month} data-month={m.month}>
                    <th scope="row" className="cell-nowrap">
                      {longMonth(m.month, locale)}
                    </th>
                    {categories.map((c) => (
                      <Amount key={c} ore={m.categories[c]} locale={locale} category={c} />
                    ))}
                    <Amount ore={m.net} locale={locale} category="total" />
                  </tr>
                ))}
              </tbody>
            </Table>
          </details>
        </>
      }
    </section>
  )
}

const Amount = ({ ore, locale, category }: { ore: number; locale: Locale; category: string }) => (
  <td className="cell-number cell-nowrap" data-category={category} data-value={ore}>
    {formatNumber(ore / 100, locale, 2)}
  </td>
)

const Payments = ({ payments }: { payments: number }) => <Plural value={payments} one="(# payment)" other="(# payments)" />
const UnpaidInvoices = ({ invoices }: { invoices: number }) => <Plural value={invoices} one="(# unpaid invoice)" other="(# unpaid invoices)" />
const HeatingWaterLegend = ({ period }: { period: string }) => <Trans>Shaded: the heating and water period, {period}</Trans>
