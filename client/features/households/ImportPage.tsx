import { useMemo, useState, type FormEvent } from 'react'
import { Trans, useLingui } from '@lingui/react/macro'
import { Link } from '@tanstack/react-router'
import type { ImportOutcome, ImportReport } from '../../../shared/contract/household-import'
import { MAX_IMPORT_BYTES } from '../../../shared/contract/household-import'
import { effectiveRole, isCompanyAdminStaff } from '../../../shared/domain/roles'
import { firstOfNextMonth } from '../../../shared/domain/agreement-dates'
import { Alert } from '../../components/ui/Alert'
import { Badge, type BadgeVariant } from '../../components/ui/Badge'
import { Button, buttonClass } from '../../components/ui/Button'
import { Table } from '../../components/ui/Table'
import { TextField } from '../../components/ui/TextField'
import { ApiError, createActionKey, errorMessage, saveBlob } from '../../lib/api'
import { showToast } from '../../lib/toast'
import { formatDate, todayIso } from '../../lib/format'
import { useLocale } from '../../i18n/use-locale'
import { usePageTitle } from '../../lib/use-page-title'
import { useSync, useSyncStatus } from '../../sync/use-sync'
import { useSession } from '../auth/session'
import { importTemplate, runImport } from './import-api'
import './households.css'

const outcomeVariant: Record<ImportOutcome, BadgeVariant> = { NEW: 'success', UPDATE: 'info', UNCHANGED: 'neutral', ERROR: 'error' }

/**
 * Import households and residents from a spreadsheet (docs/PRODUCT.md "Importing households",
 * decision 0092): the chairman, administrator and accountant choose a file, see a dry run — each
 * row's outcome and every problem by row and column — and then import all rows, or only the valid
 * ones. A household whose payer's row has amounts gets an agreement from the first payment date
 * chosen here (decision 0093); nobody is invited. Online only: the server reads the file and
 * checks the addresses.
 */
export function ImportPage() {
  const { t } = useLingui()
  usePageTitle(t`Import households`)
  const user = useSession().user
  const companyId = user?.currentCompany?.id ?? null
  const role = user && companyId ? effectiveRole(user.userRole, user.companies, companyId) : 'USER'
  const admin = role === 'SUPERADMIN' || isCompanyAdminStaff(role)
  const handle = useSync()
  const { online } = useSyncStatus(handle)
  const locale = useLocale()
  const [file, setFile] = useState<File | null>(null)
  const [startPaymentDate, setStartPaymentDate] = useState(() => firstOfNextMonth(todayIso()))
  const [dateError, setDateError] = useState<string | null>(null)
  const [report, setReport] = useState<ImportReport | null>(null)
  const [fileError, setFileError] = useState<string | null>(null)
  const [failure, setFailure] = useState<string | null>(null)
  const [busy, setBusy] = useState<'dryRun' | 'all' | 'onlyValid' | 'template' | null>(null)
  const action = useMemo(() => createActionKey(), [])
  const outcomeLabels: Record<ImportOutcome, string> = { NEW: t`New household`, UPDATE: t`Update`, UNCHANGED: t`Unchanged`, ERROR: t`Error` }

  if (!companyId || !admin)
    return (
      <div className="page">
        <Alert variant="error">
          <Trans>Only the association’s chairman, administrator and accountant can import households.</Trans>
        </Alert>
      </div>
    )

  const offlineText = t`The import could not be sent: there is no connection. Try again when you are online.`
  const run = async (mode: 'dryRun' | 'all' | 'onlyValid') => {
    setFailure(null)
    if (!file) return setFileError(t`Please choose a file`)
    if (file.size > MAX_IMPORT_BYTES) return setFileError(t`The file is too large (at most 5 MB).`)
    setFileError(null)
    setDateError(null)
    setBusy(mode)
    try {
      const answer = await runImport(companyId, file, mode, startPaymentDate, mode === 'dryRun' ? undefined : action)
      setReport(answer)
      if (answer.imported) {
        showToast('success', t`The households were imported.`)
        await handle?.engine.syncNow().catch(() => undefined)
      }
    } catch (error) {
      if (error instanceof ApiError && error.issues[0]?.path === 'file') setFileError(error.issues[0].message)
      else if (error instanceof ApiError && error.issues[0]?.path === 'startPaymentDate') setDateError(error.issues[0].message)
      else setFailure(error instanceof ApiError && error.status === 0 ? offlineText : errorMessage(error, t`The file could not be imported.`))
    } finally {
      setBusy(null)
    }
  }
  const submit = (event: FormEvent) => {
    event.preventDefault()
    void run('dryRun')
  }
  const download = async () => {
    setBusy('template')
    try {
      const { blob, name } = await importTemplate(companyId)
      saveBlob(blob, name)
    } catch (error) {
      setFailure(error instanceof ApiError && error.status === 0 ? offlineText : errorMessage(error, t`The template could not be downloaded.`))
    } finally {
      setBusy(null)
    }
  }

  const errors = report?.counts.ERROR ?? 0
  const valid = report ? report.rows.length - errors : 0
  return (
    <div className="page household-import-page">
      <div className="page-header">
        <Link to="/households" className={buttonClass('link')}>
          <Trans>← Back to households</Trans>
        </Link>
      </div>
      <h1>
        <Trans>Import households</Trans>
      </h1>
      <p className="muted">
        <Trans>
          Bring in the association’s households and residents from a spreadsheet: one row for each resident of a household. Danish or English column names,
          comma decimals and Danish dates are understood. New residents are not invited: invite them afterwards.
        </Trans>
      </p>
      {!online && (
        <Alert variant="info">
          <Trans>You are offline. Importing households needs a connection.</Trans>
        </Alert>
      )}
      {failure && <Alert variant="error">{failure}</Alert>}
      <form className="form card" noValidate onSubmit={submit}>
        <div className={`field${fileError ? ' field-invalid' : ''}`}>
          <label htmlFor="import-file" className="field-label">
            <Trans>Spreadsheet</Trans>
          </label>
          <input
            id="import-file"
            type="file"
            className="input"
            accept=".xlsx,.csv"
            aria-invalid={fileError ? true : undefined}
            aria-describedby={`import-file-hint${fileError ? ' import-file-error' : ''}`}
            onChange={(e) => {
              setFile(e.target.files?.[0] ?? null)
              setReport(null)
            }}
          />
          <p id="import-file-hint" className="field-hint">
            <Trans>Excel (.xlsx) or CSV; at most 5 MB.</Trans>
          </p>
          {fileError && (
            <p id="import-file-error" className="field-error">
              {fileError}
            </p>
          )}
        </div>
        <TextField
          label={t`First payment date of new agreements`}
          hint={t`A household whose payer’s row has rent or on-account amounts gets an agreement to accept in Vipps MobilePay, paid monthly from this date.`}
          type="date"
          value={startPaymentDate}
          onChange={(e) => {
            setStartPaymentDate(e.target.value)
            setReport(null)
          }}
          error={dateError ?? undefined}
          required
        />
        <div className="form-actions">
          <Button type="submit" busy={busy === 'dryRun'} disabled={busy !== null || !online}>
            <Trans>Check the file</Trans>
          </Button>
          <Button type="button" variant="secondary" busy={busy === 'template'} disabled={busy !== null || !online} onClick={() => void download()}>
            <Trans>Download the template</Trans>
          </Button>
        </div>
      </form>

      {report && (
        <section className="card household-import-report" aria-labelledby="import-report-heading">
          <h2 id="import-report-heading">
            {report.imported ?
              <Trans>Imported</Trans>
            : <Trans>What the import will do</Trans>}
          </h2>
          <p aria-live="polite">
            <Trans>
              New: {report.counts.NEW} · Updates: {report.counts.UPDATE} · Unchanged: {report.counts.UNCHANGED} · Errors: {report.counts.ERROR}
            </Trans>
          </p>
          {(report.agreements.NEW > 0 || report.agreements.EXISTING > 0) && (
            <p>
              {report.imported ?
                <Trans>
                  Agreements created: {report.agreements.NEW}, from {formatDate(report.agreements.startPaymentDate, locale, 'long')} · Already had one:{' '}
                  {report.agreements.EXISTING}
                </Trans>
              : <Trans>
                  Agreements to create: {report.agreements.NEW}, from {formatDate(report.agreements.startPaymentDate, locale, 'long')} · Already had one:{' '}
                  {report.agreements.EXISTING}
                </Trans>
              }
            </p>
          )}
          {report.agreements.problem && <Alert variant="error">{report.agreements.problem}</Alert>}
          {report.problems.length > 0 && (
            <Table caption={t`Problems by row and column`}>
              <thead>
                <tr>
                  <th scope="col">
                    <Trans>Row</Trans>
                  </th>
                  <th scope="col">
                    <Trans>Column</Trans>
                  </th>
                  <th scope="col">
                    <Trans>Problem</Trans>
                  </th>
                </tr>
              </thead>
              <tbody>
                {report.problems.map((p, i) => (
                  <tr key={i}>
                    <td>{p.row}</td>
                    <td>{p.columnName ?? '—'}</td>
                    <td>{p.message}</td>
                  </tr>
                ))}
              </tbody>
            </Table>
          )}
          <Table caption={t`Rows`}>
            <thead>
              <tr>
                <th scope="col">
                  <Trans>Row</Trans>
                </th>
                <th scope="col">
                  <Trans>Address</Trans>
                </th>
                <th scope="col">
                  <Trans>Resident</Trans>
                </th>
                <th scope="col">
                  <Trans>Outcome</Trans>
                </th>
              </tr>
            </thead>
            <tbody>
              {report.rows.map((r) => (
                <tr key={r.row}>
                  <td>{r.row}</td>
                  <td>{r.address}</td>
                  <td>{r.residentName ?? '—'}</td>
                  <td>
                    <Badge variant={outcomeVariant[r.outcome]}>{outcomeLabels[r.outcome]}</Badge>
                    {r.agreement === 'NEW' && (
                      <>
                        {' '}
                        <Badge variant="info">{t`New agreement`}</Badge>
                      </>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </Table>
          {!report.imported && (
            <div className="form-actions">
              <Button
                type="button"
                busy={busy === 'all'}
                disabled={busy !== null || !online || errors > 0 || valid === 0 || report.agreements.problem !== null}
                onClick={() => void run('all')}
              >
                <Trans>Import all</Trans>
              </Button>
              {errors > 0 && valid > 0 && (
                <Button
                  type="button"
                  variant="secondary"
                  busy={busy === 'onlyValid'}
                  disabled={busy !== null || !online || report.agreements.problem !== null}
                  onClick={() => void run('onlyValid')}
                >
                  <Trans>Import only the valid rows</Trans>
                </Button>
              )}
            </div>
          )}
          {!report.imported && errors > 0 && (
            <p className="muted">
              <Trans>Correct the rows with errors and check the file again, or import only the valid rows.</Trans>
            </p>
          )}
        </section>
      )}
    </div>
  )
}
