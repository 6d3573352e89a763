import { Trans, useLingui } from '@lingui/react/macro'
import { Link, useNavigate } from '@tanstack/react-router'
import type { AccountStatementResponse } from '../../../shared/contract/account-statement'
import type { StatementRow } from '../../../shared/domain/account-statement'
import { Alert } from '../../components/ui/Alert'
import { Button } from '../../components/ui/Button'
import { SelectField } from '../../components/ui/TextField'
import { Spinner } from '../../components/ui/Spinner'
import { TableFrame } from '../../components/ui/Table'
import { useLocale } from '../../i18n/use-locale'
import { formatDate, formatDateTime, formatMoney, todayIso, type Locale } from '../../lib/format'
import { usePageTitle } from '../../lib/use-page-title'
import { useSync, useSyncStatus } from '../../sync/use-sync'
import { useSession } from '../auth/session'
import { ExportButton } from '../statistics/ExportButton'
import { failureReasonLabels, rowKindLabels } from './row-labels'
import { useAccountStatement } from './use-account-statement'
import { ResendToMember, YearlySendout } from './YearlySendout'
import { isCompanyAdminStaff } from '../../../shared/domain/roles'
import { roleOf } from '../shell/navigation'
import { useStatementCompanies } from './use-statement-companies'
import './account-statement.css'

export interface StatementSearch {
  year?: number
  companyId?: string
  /** Staff: the member whose statement it is. */
  userId?: string
  /** An interim statement's last day (decision 0081). */
  through?: string
}

const FIRST_YEAR = 2020

/**
 * The account statement (kontokort, route /account-statement, decision 0068): every invoice, payment,
 * failed charge, credit note, refund and write-off of one member in one association for a year,
 * with the running balance said in words. A resident reads their own (choosing the association if
 * they have several); staff open a member's from the debtor overview (`userId`). Printable, exported
 * to Excel in the browser, and computed from the device's copy when offline.
 */
export function AccountStatementPage({ search }: { search: StatementSearch }) {
  const { t } = useLingui()
  const locale = useLocale()
  usePageTitle(t`Account statement`)
  const navigate = useNavigate()
  const user = useSession().user
  const handle = useSync()
  const status = useSyncStatus(handle)
  const own = search.userId === undefined || search.userId === user?.id
  // Company admin staff send the year's statements to every member from here.
  const staffCompanyId = user && isCompanyAdminStaff(roleOf(user)) ? (user.currentCompany?.id ?? null) : null
  const companies = useStatementCompanies(handle, user?.id ?? null)
  const thisYear = Number(todayIso().slice(0, 4))
  const year = search.year ?? thisYear
  // Their own: the association chosen, or the first they have an account with; staff without one of their own only send.
  const companyId = (search.companyId ?? (own ? companies?.[0]?.id : user?.currentCompany?.id)) || null
  const waiting = own && !search.companyId && companies === undefined
  const through = search.through?.startsWith(`${year}-`) ? search.through : undefined
  const request = companyId ? { companyId, userId: own ? null : search.userId!, year, through } : null
  const state = useAccountStatement(handle, request, user ? { id: user.id, name: user.fullName } : null)
  const years = Array.from({ length: Math.max(1, thisYear - FIRST_YEAR + 1) }, (_, i) => thisYear - i)
  if (!years.includes(year)) years.push(year)

  const go = (next: StatementSearch) => void navigate({ to: '/account-statement', search: { ...search, ...next } })
  const data = state.status === 'ready' ? state.data : null

  return (
    <div className="page page-account-statement">
      <div className="page-header">
        <h1>
          <Trans>Account statement</Trans>
        </h1>
        {data && (
          <div className="statement-actions no-print">
            <Button variant="secondary" onClick={() => window.print()}>
              <Trans>Print</Trans>
            </Button>
            <ExportButton tableId="account-statement" filename={`account-statement_${data.year}`} sheetName={t`Account statement`} />
          </div>
        )}
      </div>

      <StatementFilters
        year={year}
        years={years}
        companyId={companyId}
        companies={own ? companies : undefined}
        onYear={(y) => go({ year: y, through: undefined })}
        onCompany={(id) => go({ companyId: id })}
      />

      {data && state.status === 'ready' && state.source === 'local' && <OfflineCopyNote lastSyncedAt={status.lastSyncedAt} locale={locale} />}

      {waiting ?
        <Spinner label={t`Loading the account statement`} />
      : !companyId && staffCompanyId ?
        <p className="muted">
          <Trans>You have no account of your own with the association. Open a member's statement from the debtor overview.</Trans>
        </p>
      : !companyId ?
        <p className="empty">
          <Trans>You have no account with an association yet.</Trans>
        </p>
      : state.status === 'loading' ?
        <Spinner label={t`Loading the account statement`} />
      : state.status === 'error' ?
        <Alert variant={state.offline ? 'info' : 'error'}>
          {state.offline ?
            t`You are offline, and this device has no copy of this account statement.`
          : state.message || t`The account statement could not be loaded. Please try again.`}
        </Alert>
      : <Statement data={state.data} own={own} locale={locale} />}

      {staffCompanyId && <StaffSendouts companyId={staffCompanyId} year={year} own={own} data={companyId === staffCompanyId ? data : null} />}
    </div>
  )
}

function Statement({ data, own, locale }: { data: AccountStatementResponse; own: boolean; locale: Locale }) {
  const { t } = useLingui()
  const from = formatDate(data.from, locale)
  // The year so far: a year not over yet is shown to today, never as the balance on 31 December to come.
  const today = todayIso()
  const to = formatDate(data.to < today ? data.to : today, locale)
  const through = formatDate(data.to < today ? data.to : today, locale, 'long')
  const name = data.member.name
  const company = data.companyName
  return (
    <section className="card statement-card">
      {data.interim && <InterimMark through={through} />}
      <p className="statement-heading">
        <strong>{name}</strong>
        {company && <span> · {company}</span>}
      </p>
      <p className="statement-closing">
        <Trans>Balance on {to}:</Trans> <Balance ore={data.closingBalance} own={own} locale={locale} />
      </p>
      <p className="muted statement-sign">
        {own ?
          <Trans>A balance you owe is what you still have to pay; a balance in your favour is what the association owes you.</Trans>
        : <Trans>A balance the member owes is what they still have to pay; a balance in their favour is what the association owes them.</Trans>}
      </p>
      <TableFrame labelledBy="account-statement-caption">
        <table id="account-statement" className="table table-statement">
          <caption id="account-statement-caption" className="table-caption">
            <Trans>
              Account statement from {from} to {to}
            </Trans>
          </caption>
          <thead>
            <tr>
              <th scope="col">
                <Trans>Date</Trans>
              </th>
              <th scope="col">
                <Trans>Text</Trans>
              </th>
              <th scope="col">
                <Trans>Voucher</Trans>
              </th>
              <th scope="col" className="cell-number">
                <Trans>Debit</Trans>
              </th>
              <th scope="col" className="cell-number">
                <Trans>Credit</Trans>
              </th>
              <th scope="col" className="cell-number">
                <Trans>Balance</Trans>
              </th>
            </tr>
          </thead>
          <tbody>
            {data.rows.map((r, i) => (
              <Row key={`${r.kind}:${r.documentId ?? ''}:${i}`} row={r} own={own} locale={locale} />
            ))}
          </tbody>
          <tfoot>
            <tr>
              <th scope="row" colSpan={3}>
                <Trans>Total</Trans>
              </th>
              <td className="cell-number cell-nowrap" data-label={t`Debit`} data-value={data.totalDebit}>
                {formatMoney(data.totalDebit, locale)}
              </td>
              <td className="cell-number cell-nowrap" data-label={t`Credit`} data-value={data.totalCredit}>
                {formatMoney(data.totalCredit, locale)}
              </td>
              <td className="cell-number" data-label={t`Balance`} data-value={data.closingBalance}>
                <Balance ore={data.closingBalance} own={own} locale={locale} />
              </td>
            </tr>
          </tfoot>
        </table>
      </TableFrame>
    </section>
  )
}

/** The statement computed from the device's copy says so, and as of when. */
function OfflineCopyNote({ lastSyncedAt, locale }: { lastSyncedAt: string | number | null | undefined; locale: Locale }) {
  return (
    <Alert variant="info">
      {lastSyncedAt ?
        <Trans>
          Offline copy as of {formatDateTime(new Date(lastSyncedAt), locale)}: computed from the data on this device. Why a payment failed is shown when you are
          online.
        </Trans>
      : <Trans>Offline copy: computed from the data on this device.</Trans>}
    </Alert>
  )
}

/** The year picker, and the association picker for a member with accounts in several. */
function StatementFilters(p: {
  year: number
  years: number[]
  companyId: string | null
  companies: { id: string; name?: string }[] | undefined
  onYear: (year: number) => void
  onCompany: (companyId: string) => void
}) {
  const { t } = useLingui()
  const { year, years, companyId, companies } = p
  return (
    <div className="statement-filters no-print">
      <SelectField
        label={t`Year`}
        value={String(year)}
        onChange={(e) => p.onYear(Number(e.target.value))}
        options={years.map((y) => ({ value: String(y), label: String(y) }))}
      />
      {companies && companies.length > 1 && (
        <SelectField
          label={t`Association`}
          value={companyId ?? ''}
          onChange={(e) => p.onCompany(e.target.value)}
          options={companies.map((c) => ({ value: c.id, label: c.name || c.id }))}
        />
      )}
    </div>
  )
}

/** Company admin staff: the sendouts of the year on their own screen, the resend to a member on that member's statement (decision 0081). */
function StaffSendouts({ companyId, year, own, data }: { companyId: string; year: number; own: boolean; data: AccountStatementResponse | null }) {
  if (own) return <YearlySendout companyId={companyId} year={year} />
  return data ? <ResendToMember companyId={companyId} year={year} userId={data.member.userId} name={data.member.name} /> : null
}

/** An interim statement says so on screen and on paper (decision 0081). */
function InterimMark({ through }: { through: string }) {
  return (
    <p className="statement-interim" role="note">
      <strong>
        <Trans>Interim statement — 1 January to {through}</Trans>
      </strong>{' '}
      <span className="muted">
        <Trans>Not the yearly statement: the year had not ended on {through}.</Trans>
      </span>
    </p>
  )
}

/** The balance in words: owed by the member, in their favour, or nothing. */
function Balance({ ore, own, locale }: { ore: number; own: boolean; locale: Locale }) {
  const amount = formatMoney(Math.abs(ore), locale)
  if (ore === 0) return <span className="cell-nowrap">{amount}</span>
  return (
    <span className={ore > 0 ? 'statement-owed' : 'statement-favour'}>
      <span className="cell-nowrap">{amount}</span>{' '}
      <span className="statement-balance-word">
        {ore > 0 ?
          own ?
            <Trans>you owe</Trans>
          : <Trans>owed</Trans>
        : own ?
          <Trans>in your favour</Trans>
        : <Trans>in the member's favour</Trans>}
      </span>
    </span>
  )
}

function Row({ row, own, locale }: { row: StatementRow; own: boolean; locale: Locale }) {
  const { t, i18n } = useLingui()
  const reason = row.reason ? failureReasonLabels[row.reason] : undefined
  const number = row.creditedNumber
  const detail =
    row.kind === 'OPENING_BALANCE' ? null
    : row.kind === 'CHARGE_FAILED' ?
      reason ? i18n._(reason)
      : null
    : (row.kind === 'CREDIT_NOTE' || row.kind === 'REFUND_PAID' || row.kind === 'WRITE_OFF') && number ?
      t`For invoice ${number}` + (row.text ? ` · ${row.text}` : '')
    : row.text || null
  return (
    <tr className={`statement-row statement-${row.kind.toLowerCase().replace('_', '-')}`}>
      <td className="cell-nowrap" data-label={t`Date`}>
        {formatDate(row.date, locale)}
      </td>
      <td data-label={t`Text`}>
        <span>
          <span className="statement-kind">{i18n._(rowKindLabels[row.kind])}</span>
          {detail && <span className="muted cell-sub">{detail}</span>}
        </span>
      </td>
      <td data-label={t`Voucher`}>
        {row.documentId && row.documentNumber ?
          <Link to="/invoices/$id" params={{ id: row.documentId }}>
            {row.documentNumber}
          </Link>
        : ''}
      </td>
      <td className="cell-number cell-nowrap" data-label={t`Debit`} data-value={row.debit || ''}>
        {row.debit ? formatMoney(row.debit, locale) : ''}
      </td>
      <td className="cell-number cell-nowrap" data-label={t`Credit`} data-value={row.credit || ''}>
        {row.credit ? formatMoney(row.credit, locale) : ''}
      </td>
      <td className="cell-number" data-label={t`Balance`} data-value={row.balance}>
        <Balance ore={row.balance} own={own} locale={locale} />
      </td>
    </tr>
  )
}
